// Page tests for storage failures: Debian's Chromium (driven by playwright-core) against a blank
// fixture page (tests/page/fixtures/blank.html) that loads the release build from www/pkg/.
// Run with `node --test tests/page/` after scripts/build.sh (scripts/test.sh does both).
//
// docs/API.md / README "Errors": storage failures reject with an Error whose `name` says the cause
// (QuotaExceededError, StoreClosedError, StorageError), never a silent undefined. These tests make
// the browser really fail: a quota set through the DevTools protocol, another tab deleting or
// upgrading the database, the browser clearing the site's data; and check two tabs sharing one
// database.
//
// Each test gets its own server (serving the repository root) on a free port and its own fresh
// --user-data-dir, and closes both in `finally`. Every wait is bounded: in-page waits go through
// the fixture's `outcome(fn, ms)`, which reports a timeout instead of hanging.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, TEST_TIMEOUT_MS, poll } from "./harness.mjs";
import { run, value, withBrowser } from "./tabs-harness.mjs";

/** `run`, asserting that it rejected with an `Error` named `name`; returns the message. */
async function rejection(page, body, name, arg, ms) {
  const out = await run(page, body, arg, ms);
  assert.equal(out.status, "rejected", `${body}\n  should reject with ${name}, ended as ${JSON.stringify(out)}`);
  assert.equal(out.name, name, `${body}\n  rejected with ${JSON.stringify(out)}`);
  assert.equal(out.isError, true, `${body}\n  rejected with a non-Error: ${JSON.stringify(out)}`);
  assert.equal(typeof out.message, "string");
  return out.message;
}

const rawCount = (page, name) => page.evaluate((n) => window.rawCount(n), name);

// ---------------------------------------------------------------------------------------------
// Quota
// ---------------------------------------------------------------------------------------------

/**
 * Sets a 200 kB quota on the served origin through the DevTools protocol. Chromium enforces it on
 * IndexedDB commits, but caches the space left for a while after a database's first write: it must
 * be set before the origin writes anything (seen on Chromium 156: set after a first write, a 5 MB
 * value was still accepted). Values must be incompressible (Chromium compresses large values; 3 MB
 * of "x" fit in 200 kB), hence the fixture's randomBytes.
 */
async function smallQuota(context, page, origin, quotaSize = 200 * 1024) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Storage.overrideQuotaForOrigin", { origin, quotaSize });
  const q = await cdp.send("Storage.getUsageAndQuota", { origin });
  assert.equal(q.overrideActive, true, "the quota override is active");
  assert.equal(q.quota, quotaSize);
  return {
    lift: () => cdp.send("Storage.overrideQuotaForOrigin", { origin }),
  };
}

function assertQuotaMessage(message) {
  assert.match(message, /quota/i, `says it is the quota: ${message}`);
  assert.match(message, /free space|delete entries/i, `says how to free space: ${message}`);
  assert.match(message, /navigator\.storage\.persist\(\)/, `names navigator.storage.persist(): ${message}`);
  // Chromium's QuotaExceededError on an aborted commit has an empty message; the library's text
  // must not show an empty cause ("...while writing: . Free space...").
  assert.doesNotMatch(message, /:\s*\./, `shows an empty browser cause: ${message}`);
}

test("quota: an oversized set rejects with QuotaExceededError, writes nothing and leaves earlier entries intact", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ context, origin, openTab }) => {
    const page = await openTab();
    const quota = await smallQuota(context, page, origin);

    await value(page, `
      window.store = await TtlStore.open("quota-set", { autoReap: false });
      await window.store.set("a", "small");
      await window.store.set("b", { n: 2 }, { ttl: 3600 });`);
    assert.equal(await rawCount(page, "quota-set"), 2);

    // A new key (the single-write path puts at once, beside the old-record lookup).
    const message = await rejection(page, `await store.set("big", randomBytes(1e6));`, "QuotaExceededError");
    assertQuotaMessage(message);
    assert.equal(await value(page, `return store.get("big");`), undefined, "get(big) after the refused set");
    assert.equal(await value(page, `return store.has("big");`), false);

    // An existing key whose expiry changes (the old record is deleted and a new one put, in one
    // transaction): the delete must roll back with the refused put.
    await rejection(page, `await store.set("b", randomBytes(1e6), { ttl: 7200 });`, "QuotaExceededError");
    // An existing key, same (no) expiry: overwritten in place.
    await rejection(page, `await store.set("a", randomBytes(1e6));`, "QuotaExceededError");
    // keepTtl reads the current expiry first.
    await rejection(page, `await store.set("b", randomBytes(1e6), { keepTtl: true });`, "QuotaExceededError");

    assert.deepEqual(await value(page, `return store.entries();`), [["a", "small"], ["b", { n: 2 }]]);
    const ttl = await value(page, `return store.ttl("b");`);
    assert.ok(ttl > 3590 && ttl <= 3600, `ttl("b") = ${ttl}, the original 3600 s expiry`);
    assert.equal(await value(page, `return store.expiresAt("a");`), null);
    assert.equal(await rawCount(page, "quota-set"), 2, "raw records: nothing partially written");

    // The store is still usable: a small write fits, and once space is there a big one works.
    await value(page, `await store.set("c", "still works");`);
    assert.equal(await value(page, `return store.get("c");`), "still works");
    await quota.lift();
    await value(page, `await store.set("big", randomBytes(1e6));`);
    assert.equal(await value(page, `return (await store.get("big")).length;`), 1e6);
    await value(page, `store.close();`);
  });
});

test("quota: setMany with one oversized entry rejects with QuotaExceededError and writes none of its entries", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ context, origin, openTab }) => {
    const page = await openTab();
    await smallQuota(context, page, origin);

    await value(page, `
      window.store = await TtlStore.open("quota-setmany", { autoReap: false });
      await window.store.set("keep", "old value", { ttl: 600 });`);

    const message = await rejection(page, `
      await store.setMany([
        ["x", 1],
        ["keep", "new value", { ttl: 60 }],
        ["huge", randomBytes(1e6)],
        ["y", 2, { ttl: 60 }],
      ]);`, "QuotaExceededError");
    assertQuotaMessage(message);

    assert.deepEqual(await value(page, `return store.entries();`), [["keep", "old value"]], "none of the batch was written");
    const ttl = await value(page, `return store.ttl("keep");`);
    assert.ok(ttl > 590 && ttl <= 600, `ttl("keep") = ${ttl}, its expiry before the batch`);
    assert.deepEqual(await value(page, `return store.getMany(["x", "huge", "y"]);`), [undefined, undefined, undefined]);
    assert.equal(await rawCount(page, "quota-setmany"), 1, "raw records: nothing partially written");
    await value(page, `store.close();`);
  });
});

// ---------------------------------------------------------------------------------------------
// Another tab, the browser
// ---------------------------------------------------------------------------------------------

/** Every kind of call on a store closed under it rejects with StoreClosedError; returns get's message. */
async function assertClosed(page) {
  const message = await rejection(page, `await store.get("k");`, "StoreClosedError");
  for (const call of [
    `await store.set("k", "again");`,
    `await store.has("k");`,
    `await store.count();`,
    `await store.keys();`,
    `await store.setMany([["m", 1]]);`,
    `await store.delete("k");`,
    `await store.reap();`,
  ]) {
    await rejection(page, call, "StoreClosedError");
  }
  return message;
}

test("another tab deletes the database: destroy is not blocked, this tab's store rejects with StoreClosedError, and opening again works", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const name = "shared-delete";
    const a = await openTab();
    const b = await openTab();
    await value(a, `
      window.store = await TtlStore.open(arg);
      await window.store.set("k", "from tab A");`, name);

    // Tab B deletes it. A's connection must close on versionchange, or deleteDatabase is blocked.
    await value(b, `await TtlStore.destroy(arg);`, name);
    assert.equal(await rawCount(b, name), null, "the database is gone");

    const message = await assertClosed(a);
    assert.match(message, /another tab or worker/, `says another tab or worker did it: ${message}`);
    assert.match(message, /delet/, `says deleted: ${message}`);
    assert.ok(message.includes(`TtlStore.open("${name}")`), `says to open it again: ${message}`);

    // A opens it again: a new, empty database that works and is shared with B again.
    await value(a, `window.store = await TtlStore.open(arg);`, name);
    assert.equal(await value(a, `return store.get("k");`), undefined, "the deleted entry is gone");
    await value(a, `await store.set("k2", "after reopening");`);
    assert.equal(await value(a, `return store.get("k2");`), "after reopening");
    assert.equal(await value(b, `
      const s = await TtlStore.open(arg);
      try { return await s.get("k2"); } finally { s.close(); }`, name), "after reopening");
    await value(a, `store.close();`);
  });
});

test("another tab upgrades the database: its open is not blocked, this tab's store rejects with StoreClosedError", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const name = "shared-upgrade";
    const a = await openTab();
    const b = await openTab();
    await value(a, `
      window.store = await TtlStore.open(arg);
      await window.store.set("k", "from tab A");`, name);

    // Tab B: a newer app version opens the database at a higher version.
    const upgraded = await value(b, `
      return await new Promise((resolve, reject) => {
        let blocked = false;
        const req = indexedDB.open(arg, 100);
        req.onblocked = () => { blocked = true; };
        req.onupgradeneeded = () => {};
        req.onerror = () => reject(req.error);
        req.onsuccess = () => { const v = req.result.version; req.result.close(); resolve({ v, blocked }); };
      });`, name);
    assert.deepEqual(upgraded, { v: 100, blocked: false }, "B's upgrade was neither blocked nor failed");

    const message = await assertClosed(a);
    assert.match(message, /another tab or worker/, `says another tab or worker did it: ${message}`);
    assert.match(message, /upgrad/, `says upgraded: ${message}`);
    assert.ok(message.includes(`TtlStore.open("${name}")`), `says to open it again: ${message}`);

    // The database is now at a version this build does not know: opening it is a StorageError
    // that names the browser's VersionError, not a hang or a silent success.
    const reopen = await rejection(a, `await TtlStore.open(arg);`, "StorageError", name);
    assert.match(reopen, /VersionError/, `names the DOMException: ${reopen}`);
  });
});

test("the browser clears the site's data: the next call opens the database again, a \"reopened\" event says so, the reaper and other tabs carry on", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ context, origin, openTab }) => {
    const name = "cleared";
    const a = await openTab();
    const b = await openTab();
    for (const tab of [a, b]) {
      await value(tab, `
        window.store = await TtlStore.open(arg, { reapIntervalMs: 100 });
        window.reopened = [];
        window.expired = [];
        window.store.addEventListener("reopened", (e) => reopened.push(e.detail));
        window.store.addEventListener("expired", (e) => expired.push(...e.detail.keys));`, name);
    }
    await value(a, `await store.set("k", "v");`);

    // What "Clear site data" / DevTools do: IndexedDB deleted under open connections, which the
    // browser force-closes (their "close" event).
    const cdp = await context.newCDPSession(a);
    await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "indexeddb" });

    // Every call succeeds: before the close event, on the old connection (or a StoreClosedError
    // would fail this), after it on a new one; never a silent undefined while "k" is stored.
    // Calls every 50 ms until the "reopened" event, bounded by the event's deadline; each call is
    // one the store must answer.
    const seen = await value(a, `
      const values = [];
      const until = Date.now() + arg;
      while (reopened.length === 0 && Date.now() < until) {
        values.push(await store.get("k"));
        await new Promise((r) => setTimeout(r, 50));
      }
      return { values: [...new Set(values.map(String))], reopened, isNew: store.isNew };`, EVENT_TIMEOUT_MS - 5_000, EVENT_TIMEOUT_MS);
    // Each call answered with what was stored ("v", before the clear reached the connection) or
    // with nothing (after it): no other value, and at least one call made.
    assert.ok(seen.values.length > 0 && seen.values.every((v) => v === "v" || v === "undefined"),
      `the gets between the clear and the reopen returned "v" or undefined only: ${JSON.stringify(seen.values)}`);
    assert.deepEqual(seen.reopened, [{ isNew: true, dataLoss: "none" }], "one reopened event: the database was created again");
    assert.equal(seen.isNew, true);
    assert.equal(await value(a, `return store.get("k");`), undefined, "the cleared entry is gone");

    // The store works on: writes, reads, and the reaper (its timer never stopped) removes what
    // expires, announcing it.
    await value(a, `await store.set("short", 1, { ttl: 0.2 }); await store.set("k", "again");`);
    assert.equal(await value(a, `return store.get("k");`), "again");
    await poll(() => value(a, `return expired;`), (expired) => expired.includes("short"), EVENT_TIMEOUT_MS,
      "the reaper's expired event for an entry written after the reopen");

    // The other tab carries on: its next call opens its own connection, and it reads what A wrote.
    assert.equal(await value(b, `return store.get("k");`), "again");
    assert.deepEqual(await value(b, `return reopened;`), [{ isNew: false, dataLoss: "none" }], "B opened it again too, A having created it");

    // Closed by the app, or by another context's deletion: still a StoreClosedError.
    const message = await rejection(a, `store.close(); await store.get("k");`, "StoreClosedError");
    assert.match(message, /close\(\) was called/, message);
    await value(b, `store.close();`);
  });
});

/**
 * `count` clears of the site's IndexedDB data (DevTools' `Storage.clearDataForOrigin`) in one
 * Chromium tab, each under calls in flight: the page opens a store on database `${name}-${i}`
 * (`timeoutMs`) that records its "reopened" events in `reopened`, then runs `work` (a snippet
 * with `store` and `reopened` in scope, starting the calls); after `pauseMs(i)` the data is
 * cleared, and `check(tab, i)` asserts what the page saw and returns it with its `reopened`,
 * which must be one reopen that created the database again. Then the store is closed.
 */
async function clearsUnder({ count, name, timeoutMs, work, pauseMs }, check) {
  await withBrowser(async ({ context, origin, openTab }) => {
    const a = await openTab();
    const cdp = await context.newCDPSession(a);
    for (let i = 0; i < count; i++) {
      await value(a, `
        store = window.store = await TtlStore.open(arg, { timeoutMs: ${timeoutMs} });
        window.reopened = [];
        store.addEventListener("reopened", (e) => reopened.push(e.detail));
        ${work}`, `${name}-${i}`);
      await new Promise((r) => setTimeout(r, pauseMs(i)));
      await cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "indexeddb" });
      const seen = await check(a, i);
      assert.deepEqual(seen.reopened, [{ isNew: true, dataLoss: "none" }], `clear ${i + 1}: reopened once`);
      await value(a, "store.close();");
    }
  });
}

// Reads back to back while the site's data is cleared, so that some are in flight when it
// happens: Chromium closes the connection under them, and some of its transactions then never
// answer nor abort (before the fix: 7 of 15 clears ended in a read given up after timeoutMs, or
// the reopening aborted). Each such read is read again on a new connection, and a write in flight
// fails at once with a StorageError, never waiting out timeoutMs.
test("the browser clears the site's data under reads and a write in flight: each read answers (read again on a new connection), the write settles at once", { timeout: TEST_TIMEOUT_MS }, async () => {
  await clearsUnder({
    count: 6,
    name: "clear-under-reads",
    timeoutMs: 20000,
    pauseMs: (i) => 20 + 10 * i,
    work: `
        await store.set("k", "v");
        window.loop = (async () => {
          const values = [];
          const failed = [];
          const until = Date.now() + 10000;
          while (reopened.length === 0 && Date.now() < until) {
            const t = performance.now();
            try { values.push(String(await store.get("k"))); } catch (e) { failed.push(\`\${e.name}: \${e.message} (after \${Math.round(performance.now() - t)} ms)\`); }
            await new Promise((r) => setTimeout(r, 2));
          }
          return { values: [...new Set(values)], failed, reopened };
        })();
        window.write = (async () => {
          const t = performance.now();
          for (;;) {
            try { await store.set("w", 1); } catch (e) { return { name: e.name, ms: performance.now() - t }; }
            if (reopened.length > 0) return { name: "none", ms: performance.now() - t };
          }
        })();`,
  }, async (a, i) => {
    const seen = await value(a, "return await loop;", undefined, 15_000);
    assert.deepEqual(seen.failed, [], `clear ${i + 1}: every read answered`);
    assert.ok(seen.values.length > 0 && seen.values.every((v) => v === "v" || v === "undefined"), `clear ${i + 1}: "v" or undefined only: ${JSON.stringify(seen.values)}`);
    const write = await value(a, "return await write;", undefined, 15_000);
    assert.ok(["none", "StorageError", "StoreClosedError"].includes(write.name), `clear ${i + 1}: the write settled as ${JSON.stringify(write)}`);
    assert.ok(write.ms < 10_000, `clear ${i + 1}: the writes settled in ${write.ms} ms, not after timeoutMs`);
    return seen;
  });
});

// Writes of several requests each, in flight when the site's data is cleared: a transaction that
// has answered once (incr's and update's read, setMany's first puts, deleteMany's lookups) and
// then loses its connection. None is watched by a deadline once it answered, so each must end on
// its own: done, or a typed error; none may hang.
test("the browser clears the site's data under writes of several requests: each settles, done or a typed error", { timeout: TEST_TIMEOUT_MS }, async () => {
  await clearsUnder({
    count: 4,
    name: "clear-under-writes",
    timeoutMs: 60000,
    pauseMs: (i) => 100 + 100 * i,
    work: `
        await store.set("n", 0);
        window.pending = new Set();
        const settle = (what, call) => {
          const t = performance.now();
          const p = call.then(() => "done", (e) => e.name);
          pending.add(what);
          return p.then((end) => { pending.delete(what); return { what, end, ms: Math.round(performance.now() - t) }; });
        };
        window.loop = (async () => {
          const ends = [];
          const until = Date.now() + 8000;
          for (let round = 0; reopened.length === 0 && Date.now() < until; round++) {
            const big = Array.from({ length: 3000 }, (_, j) => ["b" + j, { j, pad: "x".repeat(200) }, { ttl: 3600 }]);
            ends.push(...await Promise.all([
              settle("incr " + round, store.incr("n")),
              settle("update " + round, store.update("n", (v) => (v ?? 0) + 1)),
              settle("setMany " + round, store.setMany(big)),
              settle("deleteMany " + round, store.deleteMany(big.slice(0, 500).map(([k]) => k))),
              settle("take " + round, store.take("b1")),
            ]));
          }
          return { ends, reopened };
        })();`,
  }, async (a, i) => {
    const seen = await value(a, `return await Promise.race([loop, new Promise((r) => setTimeout(() => r({ hung: [...pending] }), 20000))]);`, undefined, 30_000);
    assert.equal(seen.hung, undefined, `clear ${i + 1}: calls never settled: ${JSON.stringify(seen.hung)}`);
    assert.ok(seen.ends.length > 0, `clear ${i + 1}: some writes were made`);
    const odd = seen.ends.filter((e) => !["done", "StorageError", "StoreClosedError"].includes(e.end) || e.ms >= 10_000);
    assert.deepEqual(odd, [], `clear ${i + 1}: every write done or refused with a typed error, well inside timeoutMs`);
    return seen;
  });
});

// ---------------------------------------------------------------------------------------------
// Two tabs, one database
// ---------------------------------------------------------------------------------------------

test("two tabs share one database: a write in one tab is read in the other", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const name = "shared-rw";
    const a = await openTab();
    const b = await openTab();
    for (const tab of [a, b]) await value(tab, `window.store = await TtlStore.open(arg, { autoReap: false });`, name);

    await value(a, `await store.set("fromA", { n: 1, at: new Date(Date.UTC(2030, 0, 1)) }, { ttl: 600 });`);
    assert.deepEqual(await value(b, `
      const v = await store.get("fromA");
      return { n: v.n, isDate: v.at instanceof Date, iso: v.at.toISOString() };`),
    { n: 1, isDate: true, iso: "2030-01-01T00:00:00.000Z" });
    const ttl = await value(b, `return store.ttl("fromA");`);
    assert.ok(ttl > 590 && ttl <= 600, `B sees A's expiry: ttl = ${ttl}`);

    await value(b, `await store.setMany([["fromB", "hello"], ["fromA", "overwritten by B"]]);`);
    assert.deepEqual(await value(a, `return store.entries();`), [["fromA", "overwritten by B"], ["fromB", "hello"]]);
    assert.equal(await value(a, `return store.ttl("fromA");`), null, "B's plain set replaced the expiry");

    assert.equal(await value(b, `return store.delete("fromB");`), true);
    assert.equal(await value(a, `return store.has("fromB");`), false);
    for (const tab of [a, b]) await value(tab, `store.close();`);
  });
});

test("two tabs: the other tab's reap() physically removes an expired entry, seen from this tab", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const name = "shared-reap";
    const a = await openTab();
    const b = await openTab();
    // Neither tab reaps on its own: only B's explicit reap() may remove anything.
    for (const tab of [a, b]) await value(tab, `window.store = await TtlStore.open(arg, { autoReap: false });`, name);
    await value(b, `
      window.expired = [];
      store.addEventListener("expired", (e) => window.expired.push(...e.detail.keys));`);

    await value(a, `
      await store.set("stays", "long-lived", { ttl: 3600 });
      await store.set("short", "x", { ttl: 0.3 });`);
    assert.equal(await value(b, `return store.get("short");`), "x", "B reads A's entry while it is live");

    await value(a, `await new Promise((r) => setTimeout(r, 500));`);
    // Lazy expiry hides it in both tabs, but the record is still stored.
    assert.equal(await value(a, `return store.get("short");`), undefined);
    assert.equal(await value(b, `return store.has("short");`), false);
    assert.equal(await value(a, `return store.count();`), 1);
    assert.equal(await rawCount(a, name), 2, "the expired record is still stored before any reap");

    const report = await value(b, `const r = await store.reap(); return { removed: r.removed, remaining: r.remaining };`);
    assert.deepEqual(report, { removed: 1, remaining: 0 });
    assert.deepEqual(await b.evaluate(() => window.expired), ["short"], `B's "expired" event`);

    assert.equal(await rawCount(a, name), 1, "A's raw count dropped after B's reap()");
    assert.deepEqual(await value(a, `return store.entries();`), [["stays", "long-lived"]]);
    const again = await value(a, `const r = await store.reap(); return { removed: r.removed, remaining: r.remaining };`);
    assert.deepEqual(again, { removed: 0, remaining: 0 }, "nothing left for A to reap");
    for (const tab of [a, b]) await value(tab, `store.close();`);
  });
});
