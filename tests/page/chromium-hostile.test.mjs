// The hostile-values catalogue (tests/hostile/catalogue.js) in Chromium, against both of the
// package's entries (idb-ttl and idb-ttl/lite). hostile.test.mjs runs the default entry's in Firefox
// and WebKit, where it says what the catalogue covers. Each entry's catalogue runs in shards
// (hostile-report.mjs: SHARDS, about 900 cases each), each shard a test with a Chromium of its
// own, two at a time: the run is mostly IndexedDB round trips, so two overlap well. A shard fails
// when its page makes no progress for minutes (a hang), not when the machine is slow. After the
// shards, one test per entry checks they ran the whole catalogue together. A file of its own, and
// named to sort before the others: it is the longest page test, and node's test runner starts files
// in name order, so with several files at a time (scripts/test.sh) it starts first instead of
// holding up the end of the run.

import { describe } from "node:test";
import { ROOT, withChromium } from "./harness.mjs";
import { ENTRIES, readProgress, shardTests, totalTest, waitForReport } from "./hostile-report.mjs";

/** Runs the fixture at `path` in a Chromium of its own; resolves to its report. */
async function runShard(path, what) {
  let report;
  await withChromium(ROOT, async ({ context, url }) => {
    const page = await context.newPage();
    await page.goto(url + path, { timeout: 120_000 });
    report = await waitForReport(() => page.evaluate(readProgress), what);
  });
  return report;
}

const reports = {};
describe("hostile values, Chromium", { concurrency: 2 }, () => {
  for (const entry of ENTRIES) reports[entry] = shardTests("chromium", entry, runShard);
});
for (const entry of ENTRIES) totalTest("chromium", entry, reports[entry]);
