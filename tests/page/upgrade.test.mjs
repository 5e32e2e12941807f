// Schema upgrade 2 -> 3 on real data: a database written by the previous release's build (kept as
// a fixture, tests/fixtures/release-0.1.0/, see its FIXTURE.md), not by the new code, opens under
// the current build (www/pkg/, made by scripts/build.sh) with every entry, document, bucket and
// expiry intact, in Chromium (playwright-core), Firefox and WebKit (webdriver.mjs).
//
// The repository root is served, so both builds load from one origin and see one IndexedDB:
// tests/page/fixtures/upgrade.html?build=old imports the fixture, ?build=new imports www/pkg/.
// In one browser session per engine:
//   1. old build: writes entries (every kind of expiry, Map and Date values, number and string
//      keys), a collection with a TTL index, one without, a time series; reads it all back
//      through its API (the expectation) and closes. IndexedDB says: version 2, four stores.
//   2. new build, same database: isNew false, dataLoss "none", version 3 with an empty
//      'archive' store, the records of the four v2 stores byte-for-byte as the old build left
//      them (raw IndexedDB), and everything the API reads (values, expiresAt, documents, TTL
//      index, series options and queries) exactly as the old build read it.
//   3. an entry the old build wrote with a short ttl expires on time, and reap() removes exactly
//      it; the rest is still intact.
//   4. reopened with { archiveFor: 60 }: another old entry expires, reap() moves it to the
//      archive and store.archive.get(key) returns the value the old build wrote.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { READY_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, startServer, stopServer, withChromium } from "./harness.mjs";
import { available, launch } from "./webdriver.mjs";

const FIXTURE = join(ROOT, "tests/fixtures/release-0.1.0/index.js");
const PAGE = "tests/page/fixtures/upgrade.html";
/** The v2 schema's object stores (src/idb/mod.rs at the previous release). */
const V2_STORES = ["buckets", "docs", "entries", "meta"];
/** ttl of the old entry that expires in step 3, and of the one archived in step 4 (seconds). */
const SOON_SECS = 10;
const LATER_SECS = 14;

/**
 * One engine's page, whichever way it is driven: `goto(build)` loads upgrade.html with that
 * build and waits for it; `call(step, ...args)` runs `window.upgrade[step](...args)` in the page
 * and resolves to its (JSON) result.
 */
function chromiumPage(page, url) {
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  return {
    errors,
    async goto(build) {
      await page.goto(`${url}${PAGE}?build=${build}`);
      await page.waitForFunction(() => document.documentElement.dataset.state, null, { timeout: READY_TIMEOUT_MS });
      return page.evaluate(() => ({ state: document.documentElement.dataset.state, error: document.documentElement.dataset.error ?? null }));
    },
    call: (step, ...args) => page.evaluate(([step, args]) => window.upgrade[step](...args), [step, args]),
  };
}

function webdriverPage(session, url) {
  return {
    errors: [],
    async goto(build) {
      await session.goto(`${url}${PAGE}?build=${build}`);
      return session.waitFor(() => {
        const d = document.documentElement.dataset;
        return d.state ? { state: d.state, error: d.error ?? null } : null;
      }, READY_TIMEOUT_MS * 2, `upgrade.html?build=${build} to load its build`);
    },
    call: (step, ...args) => session.eval((step, args) => window.upgrade[step](...args), step, args),
  };
}

/** Runs `fn(page)` with the repository root served and `engine` (firefox, webkit) on it. */
async function withEngine(engine, fn) {
  const server = startServer(ROOT);
  let session;
  try {
    const url = await server.url;
    session = await launch(engine);
    await fn(webdriverPage(session, url));
  } finally {
    if (session) await session.quit();
    await stopServer(server.child);
  }
}

/** The encoded entry list `read.entries` without `key`'s entry. */
const withoutKey = (read, key) => {
  const entries = read.entries.arr.filter((e) => e.arr[0] !== key);
  return {
    ...read,
    keys: { arr: read.keys.arr.filter((k) => k !== key) },
    perKey: read.perKey.filter((p) => p.key !== key),
    count: read.count - 1,
    values: { arr: entries.map((e) => e.arr[1]) },
    entries: { arr: entries },
    getMany: { arr: entries.map((e) => e.arr[1]) },
  };
};

/** The old build's read of `key`. */
const oldEntry = (read, key) => {
  const e = read.perKey.find((p) => p.key === key);
  assert.ok(e, `the old build read no entry ${key}`);
  return e;
};

/**
 * This build reads back more of a series' options than 0.1.0 did: the span and byte limit its
 * granularity implies. Checked in `read` (what the new build read), then set aside so that the
 * rest compares with what the old build read.
 */
function setAsideAddedOptions(read) {
  const added = [["bucketMaxSpanSeconds", 86400], ["bucketRoundingSeconds", 86400], ["maxBucketBytes", 128000]];
  for (const s of read.series) {
    const pairs = s.options.obj;
    for (const [k, v] of added) {
      assert.deepEqual(pairs.find(([name]) => name === k), [k, v], `time series ${s.name}: ${k} of granularity "minutes"`);
    }
    s.options.obj = pairs.filter(([name]) => !added.some(([k]) => k === name));
  }
}

/** The whole scenario in one page of one engine (see the top of this file). */
async function upgradeScenario(page, engine) {
  const db = `upgrade-${engine}-${Date.now()}`;

  // 1. The previous release writes and reads back.
  let loaded = await page.goto("old");
  assert.equal(loaded.state, "ready", `the fixture build did not load: ${loaded.error}`);
  const old = await page.call("write", db, { soonSecs: SOON_SECS, laterSecs: LATER_SECS });
  const oldRaw = await page.call("raw", db);
  assert.equal(oldRaw.version, 2, "the previous release writes schema version 2");
  assert.deepEqual(oldRaw.storeNames, V2_STORES);
  // The expectation is not empty: what the old build wrote, it read back.
  assert.equal(old.read.count, 14, "entries the old build read back");
  assert.deepEqual(old.read.collections.map((c) => [c.name, c.count]), [["sessions", 4], ["plain", 2]]);
  assert.deepEqual(old.read.series.map((s) => [s.name, s.count]), [["metrics", 5]]);
  assert.deepEqual(old.read.collections[0].ttlIndex, { obj: [["field", "at"], ["expireAfter", 3600], ["unit", "s"]] });
  const soon = oldEntry(old.read, "soon");
  const later = oldEntry(old.read, "soon-archived");
  assert.equal(typeof soon.expiresAt, "number");
  assert.equal(typeof later.expiresAt, "number");
  for (const s of V2_STORES.filter((s) => s !== "meta")) {
    assert.ok(oldRaw.stores[s].keys.arr.length > 0, `the old build stored records in '${s}'`);
  }

  // 2. The new build opens the same database.
  loaded = await page.goto("new");
  assert.equal(loaded.state, "ready", `www/pkg did not load (run scripts/build.sh): ${loaded.error}`);
  const reopened = await page.call("reopen", db, old.plan);
  assert.ok(Date.now() / 1000 < soon.expiresAt, `step 2 ran after 'soon' expired (ttl ${SOON_SECS} s is too short for this machine)`);
  assert.equal(reopened.isNew, false, "isNew: the upgrade kept the database");
  assert.equal(reopened.dataLoss, "none");
  assert.equal(reopened.dataLossMessage, "");
  const up = reopened.rawAfterOpen;
  assert.equal(up.version, 3, "the new build upgrades to schema version 3");
  assert.deepEqual(up.storeNames, ["archive", ...V2_STORES]);
  assert.deepEqual(up.stores.archive.keys, { arr: [] }, "the archive starts empty");
  assert.deepEqual(up.stores.archive.keyPath, { arr: ["c", "t", "i"] });
  for (const s of V2_STORES) {
    assert.deepEqual(up.stores[s], oldRaw.stores[s], `raw records of '${s}' after the upgrade`);
  }
  setAsideAddedOptions(reopened.read);
  // Every key, value, expiresAt, document, TTL index and time-series event as the old build read it.
  assert.deepEqual(reopened.read.perKey, old.read.perKey, "each entry: key, value, expiresAt");
  assert.deepEqual(reopened.read.collections, old.read.collections, "collections: definition and documents");
  assert.deepEqual(reopened.read.series, old.read.series, "time series: options, counts, queries");
  assert.deepEqual(reopened.read, old.read, "everything the API reads");

  // 3. An old entry expires on time under the new build; reap() removes exactly it.
  const reaped = await page.call("expireAndReap", db, "soon", soon.expiresAt, old.plan);
  assert.deepEqual(reaped.gone, { value: { undef: true }, has: false, expiresAt: { undef: true } });
  const report = Object.fromEntries(reaped.report.obj);
  assert.equal(report.removed, 1, `reap() removed 'soon' only: ${JSON.stringify(reaped.report)}`);
  assert.equal(report.remaining, 0);
  assert.equal(reaped.rawAfter.stores.entries.keys.arr.length, oldRaw.stores.entries.keys.arr.length - 1);
  for (const s of ["docs", "buckets", "meta"]) {
    assert.deepEqual(reaped.rawAfter.stores[s], oldRaw.stores[s], `raw records of '${s}' after reap()`);
  }
  setAsideAddedOptions(reaped.read);
  assert.deepEqual(reaped.read, withoutKey(old.read, "soon"), "everything else after reap()");

  // 4. archiveFor on the upgraded data: the other short-lived old entry moves to the archive.
  const archived = await page.call("archive", db, "soon-archived", later.expiresAt);
  assert.equal(archived.isNew, false);
  assert.deepEqual(archived.before, { value: later.value, archived: { undef: true }, archiveCount: 0 });
  assert.equal(Object.fromEntries(archived.report.obj).archived, 1, `reap() archived one entry: ${JSON.stringify(archived.report)}`);
  assert.deepEqual(archived.after.value, { undef: true }, "the expired entry no longer reads");
  assert.deepEqual(archived.after.archived, later.value, "store.archive.get() returns the value the old build wrote");
  assert.equal(archived.after.archiveCount, 1);
  assert.deepEqual(archived.after.archiveValues, { arr: [later.value] });
  assert.equal(archived.archiveRecords.arr.length, 1);
  assert.deepEqual(archived.own, { map: [["v", 3]] }, "the new build writes and reads on the upgraded database");
  assert.deepEqual(page.errors, [], "uncaught errors in the page");
}

const noFixture = !existsSync(FIXTURE) && "tests/fixtures/release-0.1.0/ is missing";
const timeout = TEST_TIMEOUT_MS * 2;

test("chromium: a database written by release 0.1.0 (schema 2) upgrades to schema 3 intact", { timeout, skip: noFixture }, async () => {
  await withChromium(ROOT, async ({ context, url }) => {
    const page = context.pages()[0] ?? (await context.newPage());
    await upgradeScenario(chromiumPage(page, url), "chromium");
  });
});

for (const engine of ["firefox", "webkit"]) {
  const skip = noFixture || (!available(engine) && `${engine} is not installed (scripts/setup.sh installs it)`);
  test(`${engine}: a database written by release 0.1.0 (schema 2) upgrades to schema 3 intact`, { timeout, skip }, async () => {
    await withEngine(engine, (page) => upgradeScenario(page, engine));
  });
}
