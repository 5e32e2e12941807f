// Chromium's two IndexedDB backends schedule transactions differently, and this test shows where.
// Run with `node --test tests/page/` after scripts/build.sh (scripts/test.sh does both); it runs
// on both backends whatever IDB_BACKEND says.
//
// Chrome's PSA for the SQLite backend ("IndexedDB: SQLite backend", blink-dev, Chrome 149) names
// one web-visible change, "an edge case in IDB transaction scheduling" that "brings Chromium in
// line with Firefox and Safari", both behaviours being allowed by the spec; its demo
// (evanstade/web-storage-demos, idb-txn-scopes) holds a readwrite transaction over one object
// store and waits for a readwrite one over another store of the same database. In Chromium's
// source (content/browser/indexed_db/instance/database.cc) the SQLite backend's lock requests add,
// for every readwrite transaction, an exclusive lock on the whole database ("write operations"),
// beside the per-object-store locks both backends take. So:
//
// - LevelDB runs readwrite transactions over disjoint object stores of one database side by side;
//   SQLite runs them one at a time, in the order they were begun, whichever connection (tab,
//   worker) they come from. Readwrite transactions of different databases run side by side on
//   both, and so do readonly transactions, beside each other and beside a readwrite one over
//   other stores. Transactions over the same store wait for an earlier readwrite one (and a
//   readwrite one for an earlier readonly one) on both.
//
// The raw probes (tests/page/fixtures/backends.mjs) hold a readwrite or readonly transaction H
// open with one get() after another and begin others right after it: each other transaction is
// "beside" H (it completed while H ran) or "after" it (it started only once H had completed). H
// lets go once the others have completed or after HOLD_SPINS answers: a transaction the backend
// holds back cannot start while H runs however long that is, and one it lets run completes within
// a few of H's round trips (3-5 seen, against 2 000), so no outcome depends on the machine's speed.
//
// What it means for idb-ttl, checked through the release build: while another connection holds a
// readwrite transaction over "docs" (collections; another tab writing a collection, or any other
// code holding the database), get() answers with the right value on both backends; set() and
// reap() (readwrite over "entries") run beside it on LevelDB and wait for it on SQLite, then
// write and remove the right records. Held for longer than `timeoutMs`, on SQLite they reject
// with a TimeoutError that says nothing was kept, and nothing was (the expired record is removed
// by the next reap); on LevelDB they are not held at all. The watchdog's timer decides only the
// SQLite side: the LevelDB side needs one set() and one reap() answered within STUCK_TIMEOUT_MS.
//
// Each backend gets a fresh --user-data-dir, and the test checks that the backend it asked for
// wrote it (harness.mjs backendOnDisk).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  CHROMIUM, READY_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, backendOnDisk, chromiumArgsOn,
  startServer, stopServer,
} from "./harness.mjs";
import { HOLD_SPINS } from "./fixtures/backends.mjs";

const FIXTURE = "tests/page/fixtures/backends.html";

/** `timeoutMs` of the store when H holds until the calls settle: the SQLite side waits this long. */
const STUCK_TIMEOUT_MS = 5_000;

/**
 * What each probe's other transactions do on each backend: "beside" H or "after" it. `serial`
 * lists pairs [X, Y] where Y must start only after X has completed.
 */
const EXPECTED = {
  // The difference: readwrite transactions over different stores of one database.
  "rw-a, then rw-b": { leveldb: { B: "beside" }, sqlite: { B: "after" } },
  "rw-a, then rw-b on another connection": { leveldb: { B: "beside" }, sqlite: { B: "after" } },
  "rw-a, then rw-b, then rw-c": {
    leveldb: { B: "beside", C: "beside" }, sqlite: { B: "after", C: "after", serial: [["B", "C"]] },
  },
  "rw-a, then rw-bc, then ro-c": {
    leveldb: { B: "beside", C: "beside", serial: [["B", "C"]] },
    sqlite: { B: "after", C: "after", serial: [["B", "C"]] },
  },
  // A readonly transaction begun after a waiting readwrite one over its store waits for it on
  // both; on SQLite that makes it wait for H too, though H's store is not in its scope.
  "rw-a, then rw-b, then ro-b": {
    leveldb: { B: "beside", C: "beside", serial: [["B", "C"]] },
    sqlite: { B: "after", C: "after", serial: [["B", "C"]] },
  },
  // The same on both.
  "rw-a, then rw-a of another database": { leveldb: { B: "beside" }, sqlite: { B: "beside" } },
  "rw-a, then ro-b": { leveldb: { B: "beside" }, sqlite: { B: "beside" } },
  "ro-a, then ro-a": { leveldb: { B: "beside" }, sqlite: { B: "beside" } },
  "ro-a, then rw-b": { leveldb: { B: "beside" }, sqlite: { B: "beside" } },
  "rw-a, then ro-a": { leveldb: { B: "after" }, sqlite: { B: "after" } },
  "rw-a, then rw-a": { leveldb: { B: "after" }, sqlite: { B: "after" } },
  "ro-a, then rw-a": { leveldb: { B: "after" }, sqlite: { B: "after" } },
};

/**
 * Chromium on `backend` ("leveldb" or "sqlite") on a fresh profile, the repository root served,
 * the fixture open and the library loaded: runs `fn(page)`, closes everything, then checks that
 * `backend` wrote the profile. Other flags as the harness's, without its IDB_BACKEND choice.
 */
async function onBackend(backend, fn) {
  const profile = mkdtempSync(join(tmpdir(), `idb-ttl-backends-${backend}-`));
  const server = startServer(ROOT);
  let context;
  try {
    const url = await server.url;
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: chromiumArgsOn(backend),
      headless: true,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(url + FIXTURE);
    await page.waitForSelector("html[data-state]", { timeout: READY_TIMEOUT_MS });
    const root = await page.evaluate(() => ({ ...document.documentElement.dataset }));
    assert.equal(root.state, "ready", `the fixture did not load the library: ${root.error}`);
    await fn(page);
    assert.deepEqual(pageErrors, [], "uncaught errors in the page");
    await context.close();
    context = undefined;
    assert.equal(backendOnDisk(profile), backend, `Chromium wrote its ${backend} profile with another backend`);
  } finally {
    if (context) await context.close().catch(() => {});
    await stopServer(server.child);
    rmSync(profile, { recursive: true, force: true });
  }
}

/**
 * Probe `name`'s outcome from its event log: for each other transaction, "beside" (completed
 * before H did) or "after" (started after H completed); anything else is named as it is.
 */
function outcome(log) {
  const at = (event) => {
    const i = log.indexOf(event);
    assert.notEqual(i, -1, `no "${event}" in ${JSON.stringify(log)}`);
    return i;
  };
  const hEnd = at("H complete");
  const labels = [...new Set(log.map((e) => e.split(" ")[0]).filter((l) => l !== "H"))];
  const out = {};
  for (const x of labels) {
    out[x] = at(`${x} complete`) < hEnd ? "beside" : at(`${x} start`) > hEnd ? "after" : "started during H, completed after it";
  }
  return { out, at };
}

/** Runs every raw probe on `page` and checks it against EXPECTED[...][backend]. */
async function checkProbes(page, backend) {
  const seen = {};
  for (const [name, expected] of Object.entries(EXPECTED)) {
    const { log, spins } = await page.evaluate((n) => window.probe(n), name);
    seen[name] = log.join(", ");
    const { out, at } = outcome(log);
    const { serial = [], ...want } = expected[backend];
    assert.deepEqual(out, want, `${backend}, probe "${name}": ${seen[name]} (H answered ${spins} times)`);
    for (const [x, y] of serial) {
      assert.ok(at(`${y} start`) > at(`${x} complete`),
        `${backend}, probe "${name}": ${y} started before ${x} completed: ${seen[name]}`);
    }
    // H let go early exactly when nothing waited for it.
    const held = Object.values(out).includes("after");
    assert.equal(spins === HOLD_SPINS, held, `${backend}, probe "${name}": H answered ${spins} times: ${seen[name]}`);
  }
  return seen;
}

/** The store probe with H bounded: the calls run beside H or after it, with the right results. */
async function checkStoreWaits(page, backend) {
  const r = await page.evaluate(() => window.storeProbe("backends-wait", { timeoutMs: 600_000, bounded: true }));
  const what = `${backend}, idb-ttl beside a readwrite transaction over "docs": ${JSON.stringify(r)}`;
  const hEnd = r.log.indexOf("H complete");
  // Reads are never held back by a readwrite transaction over another store.
  assert.ok(r.log.indexOf("get settled") < hEnd, what);
  assert.deepEqual(r.calls.get, { status: "resolved", value: "one" }, what);
  // Writes and reaps: beside H on LevelDB, after it on SQLite.
  const want = backend === "leveldb" ? "beside" : "after";
  for (const call of ["set", "reap"]) {
    assert.equal(r.log.indexOf(`${call} settled`) < hEnd ? "beside" : "after", want, `${call}: ${what}`);
  }
  assert.deepEqual(r.calls.set, { status: "resolved", value: undefined }, what);
  assert.deepEqual(r.calls.reap, { status: "resolved", value: { removed: 1 } }, what);
  assert.deepEqual(r.after, { k1: "one", k2: "two", old: undefined, reapRemoved: 0 }, what);
  assert.equal(r.spins === HOLD_SPINS, backend === "sqlite", `H answered ${r.spins} times: ${what}`);
}

/** The store probe with H held until the calls settle: SQLite's time out, LevelDB's do not wait. */
async function checkStoreStuck(page, backend) {
  const r = await page.evaluate((ms) => window.storeProbe("backends-stuck", { timeoutMs: ms, bounded: false }), STUCK_TIMEOUT_MS);
  const what = `${backend}, idb-ttl while a readwrite transaction over "docs" does not end: ${JSON.stringify(r)}`;
  assert.deepEqual(r.calls.get, { status: "resolved", value: "one" }, what);
  assert.equal(r.log.at(-1), "H complete", what);
  if (backend === "leveldb") {
    assert.deepEqual(r.calls.set, { status: "resolved", value: undefined }, what);
    assert.deepEqual(r.calls.reap, { status: "resolved", value: { removed: 1 } }, what);
    assert.deepEqual(r.after, { k1: "one", k2: "two", old: undefined, reapRemoved: 0 }, what);
  } else {
    for (const call of ["set", "reap"]) {
      assert.equal(r.calls[call].status, "rejected", `${call}: ${what}`);
      assert.equal(r.calls[call].name, "TimeoutError", `${call}: ${what}`);
      assert.match(r.calls[call].message, new RegExp(`no answer within ${STUCK_TIMEOUT_MS} ms`), `${call}: ${what}`);
      assert.match(r.calls[call].message, /nothing it wrote was kept/, `${call}: ${what}`);
    }
    // Nothing kept: no k2, and the expired record (hidden from reads) was left for the next reap.
    assert.deepEqual(r.after, { k1: "one", k2: undefined, old: undefined, reapRemoved: 1 }, what);
  }
}

for (const [backend, title] of [
  ["leveldb", "LevelDB runs readwrite transactions over different object stores side by side; idb-ttl's writes beside another connection's collection write go ahead"],
  ["sqlite", "SQLite runs one readwrite transaction of a database at a time, in order; idb-ttl's writes wait (or time out), reads do not, results stay right"],
]) {
  test(`${backend}: ${title}`, { timeout: TEST_TIMEOUT_MS }, async () => {
    await onBackend(backend, async (page) => {
      const seen = await checkProbes(page, backend);
      await checkStoreWaits(page, backend);
      await checkStoreStuck(page, backend);
      if (process.env.BACKENDS_VERBOSE) {
        for (const [name, log] of Object.entries(seen)) console.log(`${backend.padEnd(8)} ${name.padEnd(40)} ${log}`);
      }
    });
  });
}
