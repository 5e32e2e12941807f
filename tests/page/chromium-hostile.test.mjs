// The hostile-values catalogue (tests/hostile/catalogue.js) in Chromium, against both of the
// package's entries (idb-ttl and idb-ttl/lite). hostile.test.mjs runs the default entry's in Firefox
// and WebKit, where it says what the catalogue covers. Each entry's catalogue runs in shards
// (hostile-report.mjs: SHARDS, about 900 cases each), each shard a test with a Chromium of its
// own, two at a time: the run is mostly IndexedDB round trips, so two overlap well. A shard fails
// when its page makes no progress for minutes (a hang), not when the machine is slow. After the
// shards, one test per entry checks they ran the whole catalogue together. A file of its own, one of the
// longest page tests: scripts/test.sh starts it among the first (`page_first`), so that with
// several files at a time it does not hold up the end of the run.
//
// Both entries' catalogues run on the SQLite backend Chrome is rolling out. Chromium's LevelDB
// backend (what most Chrome users have) meets every value the catalogue stores in one test of its
// own: the positions that write a hostile key or value into each kind of record (`set key`, `set
// value`, `collection.put id`, `collection.put document`: LEVELDB_POSITIONS), every value in each,
// the 10 MB key and value and the 100 000-element array included. What the other positions do
// with a value (its checks, its error and message, nothing written when refused) is the same code
// on every backend, and runs in all three engines; what a backend can do differently is store a
// value. The whole catalogue is not run on LevelDB: each of its 18 accepted 10 MB keys is written
// several times over there (record, index, key path: about 100 MB of LevelDB) and slows the
// origin for seconds after (CONTRIBUTING.md gives the times).

import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, backendOnDisk, chromiumArgsOn, withChromium } from "./harness.mjs";
import { hostileValues } from "../hostile/catalogue.js";
import { ENTRIES, SHARD_TEST_MS, checkShard, fixture, readProgress, shardTests, totalTest, waitForReport } from "./hostile-report.mjs";

/** Chromium's IndexedDB backend both entries' whole catalogues run on (see above). */
const BACKEND = "sqlite";

/** The positions whose cases run on LevelDB: each stores a hostile key or value (see above). */
const LEVELDB_POSITIONS = ["set key", "set value", "collection.put id", "collection.put document"];

/** Runs the fixture at `path` in a Chromium of its own on `backend`; resolves to its report. */
async function runShard(backend, path, what) {
  let report;
  await withChromium(ROOT, async ({ context, url, profile }) => {
    const page = await context.newPage();
    await page.goto(url + path, { timeout: 120_000 });
    report = await waitForReport(() => page.evaluate(readProgress), what);
    assert.equal(backendOnDisk(profile), backend, `${what}: the catalogue's databases are not on the ${backend} backend`);
  }, { args: chromiumArgsOn(backend) });
  return report;
}

const reports = {};
describe("hostile values, Chromium", { concurrency: 2 }, () => {
  test("hostile values, chromium (leveldb): every key and value the catalogue stores, stored on LevelDB", { timeout: SHARD_TEST_MS }, async (t) => {
    const what = "hostile values, chromium (leveldb), default entry, the storing positions";
    const report = await runShard("leveldb", fixture("default", [1, 1], LEVELDB_POSITIONS), what);
    checkShard(t, "chromium (leveldb)", report, "default", [1, 1]);
    assert.deepEqual(report.only, LEVELDB_POSITIONS, "the catalogue ran the storing positions only");
    assert.equal(report.cases, report.total.cases, "every case of those positions ran");
    // 6 keys (-0, 2^53, 1e21, ±Infinity, 10 MB) in each of the two key positions and 17 values
    // of structured clone in `set value` (no hostile value is a document: all refused there).
    assert.ok(report.outcomes.accepted >= 29, `stored on LevelDB: ${report.outcomes.accepted} accepted values, at least 29 expected`);
    // Every value in each position: the catalogue's values made here, without a DOM, are the
    // page's but its DOM nodes.
    const values = Object.keys(hostileValues()).length;
    assert.ok(report.cases >= LEVELDB_POSITIONS.length * values, `${report.cases} cases: every one of ${values} or more values in each of the ${LEVELDB_POSITIONS.length} positions`);
  });
  for (const entry of ENTRIES) reports[entry] = shardTests(`chromium (${BACKEND})`, entry, (path, what) => runShard(BACKEND, path, what));
});
for (const entry of ENTRIES) totalTest(`chromium (${BACKEND})`, entry, reports[entry]);
