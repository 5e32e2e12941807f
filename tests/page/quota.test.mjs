// Storage pressure in the browsers that let a test force a small quota (TOOLCHAIN.md, "Forcing a
// small quota"): Firefox through its fixedLimit pref (over WebDriver), Chromium through the
// DevTools protocol (playwright-core). Values are random bytes (incompressible: both engines
// compress what they store). Each test serves the repository root on a fresh port, so each gets
// a fresh origin (Firefox keeps a deleted database's usage counted within a session).
//
// - Firefox's trap: after a quota refusal, the next readwrite transaction on the connection is a
//   "cleanup" one in which every put throws InvalidStateError. The next set() must work anyway.
// - evictOnQuota: a write refused for space evicts the soonest-to-expire entries (never one
//   without expiry) and is retried; Firefox counts the deletes back at once, so every write fits.
//   Chromium counts them back only after its LevelDB compaction: there a write may still be
//   refused, and then the error says how much was evicted.

import { test } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, startServer, stopServer } from "./harness.mjs";
import { available, launch } from "./webdriver.mjs";
import { run, withBrowser } from "./tabs-harness.mjs";

const MIB = 1024 * 1024;
/** Firefox: an origin's quota is max(20% of the limit, 10 MiB): 51200 KiB gives 10 MiB. */
const FIREFOX_PREFS = { "dom.quotaManager.temporaryStorage.fixedLimit": 51200 };

async function withFirefox(fn) {
  const server = startServer(ROOT);
  let session;
  try {
    const url = await server.url;
    session = await launch("firefox", { prefs: FIREFOX_PREFS });
    await session.goto(`${url}tests/page/fixtures/blank.html`);
    await session.waitFor(() => document.documentElement.dataset.state !== "loading" && document.documentElement.dataset.state, EVENT_TIMEOUT_MS, "the fixture to load the library");
    assert.equal(await session.eval(() => document.documentElement.dataset.state), "ready");
    await fn(session);
  } finally {
    if (session) await session.quit();
    await stopServer(server.child);
  }
}

const skipFirefox = !available("firefox") && "firefox is not installed (scripts/setup.sh installs it)";

test("firefox: after a QuotaExceededError the next set() works (the cleanup transaction is not used for writes)", { timeout: TEST_TIMEOUT_MS * 2, skip: skipFirefox }, async () => {
  await withFirefox(async (session) => {
    const out = await session.eval(async (MIB) => {
      const store = await window.idbTtl.TtlStore.open("quota-cleanup", { autoReap: false });
      let refused = null, written = 0;
      for (let i = 0; i < 40 && !refused; i++) {
        try { await store.set(`big${i}`, window.randomBytes(MIB)); written++; } catch (e) { refused = { name: e.name, message: e.message }; }
      }
      let next;
      try { await store.set("small", "fits"); next = { ok: await store.get("small") }; } catch (e) { next = { name: e.name, message: e.message }; }
      let again;
      try { await store.set("small2", "fits too"); again = { ok: await store.get("small2") }; } catch (e) { again = { name: e.name, message: e.message }; }
      return { refused, written, next, again, count: await store.count() };
    }, MIB);
    assert.ok(out.refused, `a 10 MiB quota refused one of 40 1 MiB writes: ${JSON.stringify(out)}`);
    assert.equal(out.refused.name, "QuotaExceededError", JSON.stringify(out.refused));
    assert.ok(out.written >= 3, `some writes fitted first: ${out.written}`);
    assert.deepEqual(out.next, { ok: "fits" }, `the set() right after the refusal: ${JSON.stringify(out.next)}`);
    assert.deepEqual(out.again, { ok: "fits too" });
    assert.equal(out.count, out.written + 2, "the refused write left nothing");
  });
});

test("firefox: evictOnQuota evicts the soonest-to-expire entries, never one without expiry, and every write fits", { timeout: TEST_TIMEOUT_MS * 2, skip: skipFirefox }, async () => {
  await withFirefox(async (session) => {
    const out = await session.eval(async (MIB) => {
      const store = await window.idbTtl.TtlStore.open("quota-evict", { autoReap: false, evictOnQuota: true });
      const evicted = [];
      store.addEventListener("evicted", (e) => evicted.push({ keys: e.detail.keys, reason: e.detail.reason }));
      await store.set("keep", window.randomBytes(MIB));
      const failures = [];
      // k0 expires first, k1 next...: 20 MiB through a 10 MiB quota.
      for (let i = 0; i < 20; i++) {
        try { await store.set(`k${i}`, window.randomBytes(MIB), { ttl: 3600 + i * 60 }); } catch (e) { failures.push(`${e.name}: ${e.message}`); }
      }
      const keys = await store.keys();
      return { failures, evicted, keys, keep: (await store.get("keep")) !== undefined, stats: store.stats().evictedTotal };
    }, MIB);
    assert.deepEqual(out.failures, [], "every write fitted after eviction");
    assert.ok(out.evicted.length > 0, "something was evicted");
    assert.ok(out.evicted.every((e) => e.reason === "quota"), JSON.stringify(out.evicted));
    const gone = out.evicted.flatMap((e) => e.keys);
    assert.ok(!gone.includes("keep"), "an entry without expiry is never evicted");
    assert.ok(out.keep);
    // The soonest to expire went first: the evicted keys are k0, k1, ... in order.
    assert.deepEqual(gone, gone.map((_, i) => `k${i}`), `evicted in expiry order: ${gone}`);
    assert.ok(out.keys.includes("k19"), "the last write is there");
    assert.equal(out.stats, gone.length);
  });
});

test("chromium: evictOnQuota evicts soonest-to-expire first; a retry Chromium still refuses says what was evicted", { timeout: TEST_TIMEOUT_MS * 2 }, async () => {
  await withBrowser(async ({ context, origin, openTab }) => {
    const page = await openTab();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Storage.overrideQuotaForOrigin", { origin, quotaSize: 4 * MIB });
    const out = await run(page, `
      const store = await window.idbTtl.TtlStore.open("quota-evict", { autoReap: false, evictOnQuota: true });
      const evicted = [];
      store.addEventListener("evicted", (e) => evicted.push(...e.detail.keys));
      await store.set("keep", 1);
      const results = [];
      for (let i = 0; i < 12; i++) {
        try { await store.set("k" + i, window.randomBytes(${MIB / 2}), { ttl: 3600 + i * 60 }); results.push("ok"); }
        catch (e) { results.push(e.name + ": " + e.message); }
      }
      return { results, evicted, keep: await store.get("keep") };
    `, undefined, 60_000);
    assert.equal(out.status, "resolved", JSON.stringify(out));
    const { results, evicted, keep } = out.value;
    assert.equal(keep, 1, "an entry without expiry is never evicted");
    assert.ok(evicted.length > 0, `the 4 MiB quota made it evict: ${JSON.stringify(results)}`);
    assert.deepEqual(evicted, evicted.map((_, i) => `k${i}`), `evicted in expiry order: ${evicted}`);
    for (const r of results) {
      if (r !== "ok") assert.match(r, /^QuotaExceededError: .*evictOnQuota evicted \d+ entries and the browser still refused/, r);
    }
  });
});
