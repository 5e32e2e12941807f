// store.dataLoss on a database Chromium really found corrupt: Chromium deletes a corrupt IndexedDB
// backing store when it opens it and says so on the upgrade event (IDBVersionChangeEvent.dataLoss
// "total", dataLossMessage); open() creates the database again and must surface that, so an app
// can tell "never existed" from "the browser threw it away".
//
// On one --user-data-dir kept across three launches of Chromium (playwright-core), with one
// server (so one origin, http://127.0.0.1:<port>) throughout:
//   1. a fresh profile: open() says isNew, dataLoss "none"; the page writes ENTRIES entries and
//      the browser is closed cleanly;
//   2. the origin's IndexedDB LevelDB write-ahead log (Default/IndexedDB/
//      http_127.0.0.1_<port>.indexeddb.leveldb/*.log, where a small database's records are after
//      a clean close) gets 64 bytes in its middle inverted; relaunched, open() must say isNew,
//      dataLoss "total" and Chromium's reason (here "IndexedDB (database was corrupt): checksum
//      mismatch"), and the store must be empty; closed and opened again in the same page it says
//      isNew false, dataLoss "none";
//   3. relaunched once more: isNew false, dataLoss "none", still empty, and writable.
// The second test corrupts the log the same way and opens the store first from a dedicated
// worker: dataLoss is read from the upgrade event itself, so a worker's store says "total" too.
//
// What else was tried (Chromium 156): every 7th byte of MANIFEST-* inverted gives the same
// "checksum mismatch" wipe; CURRENT naming a missing manifest makes every open() fail
// ("UnknownError ... Internal error opening backing store"), on that launch and the next, with
// no wipe; the log truncated to half its size opens with half the entries and dataLoss "none"
// (LevelDB takes the cut as an unfinished write): a silent partial loss no signal reports.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, startServer, stopServer } from "./harness.mjs";

const FIXTURE = "tests/page/fixtures/blank.html";
const DB = "data-loss";
/** Entries written before the corruption: enough to fill the log well past its header. */
const ENTRIES = 200;
/** Bytes inverted in the middle of each log file. */
const GARBLED = 64;

/**
 * Runs `fn(page)` in the first tab of a Chromium on `profile`, the fixture at `url` loaded;
 * closes the browser cleanly afterwards. Fails on uncaught page errors.
 */
async function session(profile, url, fn) {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const pageErrors = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    await page.goto(url, { timeout: READY_TIMEOUT_MS });
    await page.waitForSelector("html[data-state]", { state: "attached", timeout: READY_TIMEOUT_MS });
    if ((await page.getAttribute("html", "data-state")) !== "ready") {
      assert.fail(`the fixture did not load the library: ${await page.getAttribute("html", "data-error")}`);
    }
    const result = await fn(page);
    assert.deepEqual(pageErrors, [], "uncaught errors in the page");
    return result;
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * Opens the store in the page (once, or `times` times in a row, closing it in between) and
 * resolves to what each open() said, with the store's count and whether it holds `k0`; or to
 * `{ error }` if open() rejected.
 */
function openStore(page, times = 1) {
  return page.evaluate(async ([name, times]) => {
    const said = [];
    for (let i = 0; i < times; i++) {
      let store;
      try {
        store = await window.idbTtl.TtlStore.open(name);
      } catch (e) {
        said.push({ error: `${e && e.name}: ${e && e.message}` });
        continue;
      }
      said.push({
        isNew: store.isNew,
        dataLoss: store.dataLoss,
        dataLossMessage: store.dataLossMessage,
        count: await store.count(),
        k0: (await store.get("k0")) !== undefined,
      });
      store.close();
    }
    return said;
  }, [DB, times]);
}

/** Opens the store in a dedicated worker (tests/page/fixtures/member-worker.mjs, through
 * member-client.mjs) and resolves to what its open() said, as openStore does in the page, or to
 * `{ error }`. */
function openStoreInWorker(page) {
  return page.evaluate(async (name) => {
    const { startMemberWorker } = await import("/tests/page/fixtures/member-client.mjs");
    const worker = await startMemberWorker();
    try {
      await worker.call("open", { name });
      const said = await worker.call("said");
      await worker.call("close");
      return said;
    } catch (e) {
      return { error: e.message };
    } finally {
      worker.terminate();
    }
  }, DB);
}

/**
 * Runs `fn({ dir, session })` with a fresh Chromium profile and one server (so one origin) for
 * all of its launches: `dir` is the origin's IndexedDB LevelDB directory in the profile,
 * `session(f)` runs `f(page)` in a launch of Chromium on it with the fixture loaded (see
 * `session`). Stops the server and removes the profile afterwards.
 */
async function withProfile(fn) {
  const profile = mkdtempSync(join(tmpdir(), "idb-ttl-data-loss-"));
  const server = startServer(ROOT);
  try {
    const root = await server.url;
    const url = new URL(FIXTURE, root).href;
    await fn({
      dir: join(profile, "Default", "IndexedDB", `http_127.0.0.1_${new URL(root).port}.indexeddb.leveldb`),
      session: (f) => session(profile, url, f),
    });
  } finally {
    await stopServer(server.child);
    rmSync(profile, { recursive: true, force: true });
  }
}

/** What the first open() after the corruption must say, from `where`. */
function assertWiped(wiped, where) {
  assert.equal(wiped.error, undefined, `open() ${where} after the corruption rejected: ${wiped.error}`);
  assert.equal(wiped.isNew, true, `open() ${where} after the corruption created the database`);
  assert.equal(wiped.dataLoss, "total", `dataLoss ${where} after the corruption (message: ${JSON.stringify(wiped.dataLossMessage)})`);
  assert.equal(typeof wiped.dataLossMessage, "string");
  assert.ok(wiped.dataLossMessage.length > 0, "dataLossMessage says why");
  assert.deepEqual([wiped.count, wiped.k0], [0, false], "the recreated database is empty");
}

/** Inverts GARBLED bytes in the middle of every LevelDB log of `dir` that holds data. */
function garbleLogs(dir) {
  const logs = readdirSync(dir).filter((f) => f.endsWith(".log") && statSync(join(dir, f)).size > 4 * GARBLED);
  assert.ok(logs.length > 0, `no LevelDB log with data in ${dir}: ${readdirSync(dir).join(", ")}`);
  for (const f of logs) {
    const bytes = readFileSync(join(dir, f));
    const from = Math.floor(bytes.length / 2);
    for (let i = from; i < from + GARBLED; i++) bytes[i] ^= 0xff;
    writeFileSync(join(dir, f), bytes);
  }
}

/** Writes ENTRIES entries to the store from the page. */
function fill(page) {
  return page.evaluate(async ([name, n]) => {
    const store = await window.idbTtl.TtlStore.open(name);
    for (let i = 0; i < n; i++) await store.set(`k${i}`, { i, text: "x".repeat(100) }, { ttl: "1 day" });
    store.close();
  }, [DB, ENTRIES]);
}

test("dataLoss: a database Chromium finds corrupt is recreated with dataLoss 'total' and its reason", {
  timeout: TEST_TIMEOUT_MS,
}, () => withProfile(async ({ dir, session }) => {
  // 1. Fresh profile: created, nothing lost; ENTRIES entries written.
  const first = await session(async (page) => {
    const [said] = await openStore(page);
    await fill(page);
    return { said, written: (await openStore(page))[0] };
  });
  assert.deepEqual(first.said, { isNew: true, dataLoss: "none", dataLossMessage: "", count: 0, k0: false },
    "the first open() on a fresh profile");
  assert.deepEqual(first.written, { isNew: false, dataLoss: "none", dataLossMessage: "", count: ENTRIES, k0: true },
    "the entries written, read back before the browser closed");

  // 2. Garble the middle of the write-ahead log.
  garbleLogs(dir);
  const [wiped, again] = await session((page) => openStore(page, 2));
  assertWiped(wiped, "in the page");
  console.log(`data-loss: Chromium's dataLossMessage: ${JSON.stringify(wiped.dataLossMessage)}`);
  assert.deepEqual(again, { isNew: false, dataLoss: "none", dataLossMessage: "", count: 0, k0: false },
    "open() again in the same page");

  // 3. Next launch: an ordinary database again.
  const later = await session(async (page) => {
    const [said] = await openStore(page);
    await page.evaluate(async (name) => {
      const store = await window.idbTtl.TtlStore.open(name);
      await store.set("k0", "after", { ttl: "1 day" });
      store.close();
    }, DB);
    return { said, written: (await openStore(page))[0] };
  });
  assert.deepEqual(later.said, { isNew: false, dataLoss: "none", dataLossMessage: "", count: 0, k0: false },
    "open() on the next launch");
  assert.deepEqual(later.written, { isNew: false, dataLoss: "none", dataLossMessage: "", count: 1, k0: true },
    "a write after it");
}));

test("dataLoss: a store first opened in a worker after the corruption says so too", {
  timeout: TEST_TIMEOUT_MS,
}, () => withProfile(async ({ dir, session }) => {
  // The same corruption as above, but the first open() after it is a dedicated worker's: the
  // upgrade event is the worker's own (dataLoss is read from it, not from the window).
  const written = await session(async (page) => {
    await fill(page);
    return (await openStore(page))[0];
  });
  assert.equal(written.count, ENTRIES, "the entries written before the corruption");
  garbleLogs(dir);
  const [wiped, again] = await session(async (page) => [await openStoreInWorker(page), (await openStore(page))[0]]);
  assertWiped(wiped, "in the worker");
  assert.deepEqual(again, { isNew: false, dataLoss: "none", dataLossMessage: "", count: 0, k0: false },
    "the page's open() after the worker's");
}));
