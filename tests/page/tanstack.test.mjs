// store.asyncStorage() under TanStack Query's own persisters, the real packages from npm (pinned in
// package.json; scripts/setup.sh installs them): @tanstack/query-core with
// experimental_createQueryPersister (@tanstack/query-persist-client-core) and
// createAsyncStoragePersister (@tanstack/query-async-storage-persister), bundled by esbuild into
// target/page-tests/tanstack.js and imported by the blank fixture page next to the package.
// Queries are persisted as structured clones, restored after a reload and in another tab, and
// an expired one leaves IndexedDB through the reaper (read with plain IndexedDB), with no
// persisterGc() scan. Chromium over playwright-core; the reload test also in Firefox and WebKit
// over WebDriver.

import { test, before } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { EVENT_TIMEOUT_MS, ROOT, TEST_TIMEOUT_MS, poll, startServer, stopServer } from "./harness.mjs";
import { value, withBrowser } from "./tabs-harness.mjs";
import { available, launch } from "./webdriver.mjs";

const BUNDLE = "target/page-tests/tanstack.js";

before(async () => {
  mkdirSync(join(ROOT, "target/page-tests"), { recursive: true });
  await build({
    stdin: {
      contents: `
        export { QueryClient, hashKey } from "@tanstack/query-core";
        export { experimental_createQueryPersister, persistQueryClientSave, persistQueryClientRestore } from "@tanstack/query-persist-client-core";
        export { createAsyncStoragePersister } from "@tanstack/query-async-storage-persister";`,
      resolveDir: ROOT,
      loader: "js",
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    define: { "process.env.NODE_ENV": '"production"' },
    outfile: join(ROOT, BUNDLE),
    logLevel: "warning",
  });
});

// In the page (the body of an async function with `store`, `TtlStore`, `arg`): TanStack as
// window.tq, and a query client whose queries persist through `store.asyncStorage(options)`.
const SETUP = `
  window.tq = await import("/${BUNDLE}");
  window.calls = 0;
  window.storage = store.asyncStorage(arg.storage);
  window.persister = tq.experimental_createQueryPersister({
    storage, maxAge: arg.maxAgeMs, serialize: (q) => q, deserialize: (q) => q, // structured clone, no JSON
  });
  window.client = new tq.QueryClient({ defaultOptions: { queries: { persister: persister.persisterFn, staleTime: Infinity } } });
  // A query that counts the fetches it really makes.
  window.fetchTodo = (id) => client.fetchQuery({
    queryKey: ["todo", id],
    queryFn: () => { calls += 1; return { id, due: new Date(Date.UTC(2030, 0, id)), tags: new Set(["a", "b"]) }; },
  });`;

/** Opens the store `name` in `tab` and sets up TanStack over it (window.tq, storage, persister, client). */
async function setUp(tab, name, { storage, maxAgeMs = 60_000, options = {} } = {}) {
  await value(tab, `store = window.store = await TtlStore.open(arg.name, arg.options); ${SETUP}`, { name, storage, maxAgeMs, options });
}

/** The records of the store's `entries` object store, read with plain IndexedDB: `{ k, e, v }`. */
const RAW = `
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(arg);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  try {
    return await new Promise((resolve, reject) => {
      const req = db.transaction("entries").objectStore("entries").getAll();
      req.onsuccess = () => resolve(req.result.map((r) => ({
        k: r.k, e: r.e, isObject: typeof r.v === "object", tagsIsSet: r.v?.state?.data?.tags instanceof Set,
        dueIsDate: r.v?.state?.data?.due instanceof Date,
      })));
      req.onerror = () => reject(req.error);
    });
  } finally { db.close(); }`;

test("queries persist as structured clones, restore after a reload, and expire out of IndexedDB without a scan", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const tab = await openTab();
    await setUp(tab, "tanstack-reload", { storage: { ttl: 60 } });
    const fetched = await value(tab, `const t = await fetchTodo(1); await fetchTodo(2); return { tags: [...t.tags], calls };`);
    assert.deepEqual(fetched, { tags: ["a", "b"], calls: 2 });
    // The persister writes after the fetch (notifyManager.schedule): wait for both records.
    const raw = await poll(() => value(tab, RAW, "tanstack-reload"), (r) => r.length === 2, EVENT_TIMEOUT_MS, "two persisted queries");
    for (const r of raw) {
      assert.match(r.k, /^tanstack-query-\["todo",[12]\]$/);
      assert.ok(r.isObject && r.tagsIsSet && r.dueIsDate, `stored as a structured clone, not JSON: ${JSON.stringify(r)}`);
      const left = r.e - Date.now();
      assert.ok(left > 50_000 && left <= 60_000, `the storage's ttl (60 s) is the record's expiry: ${left} ms left`);
    }

    await tab.reload();
    await tab.waitForSelector("html[data-state=ready]", { state: "attached" });
    await setUp(tab, "tanstack-reload", { storage: { ttl: 60 } });
    const restored = await value(tab, `const t = await fetchTodo(1); return { calls, due: t.due.toISOString(), tags: t.tags instanceof Set };`);
    assert.deepEqual(restored, { calls: 0, due: "2030-01-01T00:00:00.000Z", tags: true }, "restored from IndexedDB, not fetched");

    // An expired query: a storage whose ttl matches the persister's maxAge (1 s). The reaper
    // (every 200 ms) removes the records; persisterGc() is never called.
    await value(tab, `store.close();`);
    await setUp(tab, "tanstack-expiry", { storage: { ttl: 1, prefix: "q:" }, maxAgeMs: 1_000, options: { reapIntervalMs: 200 } });
    await value(tab, `window.reaped = []; store.addEventListener("expired", (e) => reaped.push(...e.detail.keys)); await fetchTodo(3); await fetchTodo(4);`);
    await poll(() => value(tab, RAW, "tanstack-expiry"), (r) => r.length === 2, EVENT_TIMEOUT_MS, "two persisted queries");
    assert.deepEqual(await value(tab, `return (await storage.entries()).map(([k]) => k).sort();`),
      ['tanstack-query-["todo",3]', 'tanstack-query-["todo",4]'], "entries() lists the prefix's keys without it");
    await poll(() => value(tab, `return reaped.sort();`), (k) => k.length === 2, EVENT_TIMEOUT_MS, "the reaper's expired events");
    assert.deepEqual(await value(tab, `return reaped.sort();`), ['q:tanstack-query-["todo",3]', 'q:tanstack-query-["todo",4]']);
    assert.equal(await value(tab, `return rawCount("tanstack-expiry");`), 0, "the reaper removed the expired queries from IndexedDB");
    assert.equal(await value(tab, `return storage.getItem('tanstack-query-["todo",3]');`), null, "getItem: null, never undefined");
    assert.equal(await value(tab, `await client.resetQueries(); client.clear(); await fetchTodo(3); return calls;`), 3, "fetched again");
  });
});

test("two tabs share the persisted queries; prefixes keep two caches apart", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const a = await openTab();
    const b = await openTab();
    await setUp(a, "tanstack-tabs", { storage: { prefix: "app1:", ttl: "1 hour" } });
    await setUp(b, "tanstack-tabs", { storage: { prefix: "app1:", ttl: "1 hour" } });
    await value(a, `await fetchTodo(7); await fetchTodo(8);`);
    await poll(() => value(b, `return storage.entries();`), (e) => e.length === 2, EVENT_TIMEOUT_MS, "tab B sees tab A's two queries");
    // B restores them all through entries() (restoreQueries), then reads one without fetching.
    const restored = await value(b, `
      await persister.restoreQueries(client);
      const cached = client.getQueryData(["todo", 8]);
      const t = await fetchTodo(7);
      return { calls, cached: cached && cached.id, fetched: t.id, set: t.tags instanceof Set };`);
    assert.deepEqual(restored, { calls: 0, cached: 8, fetched: 7, set: true });

    // Another cache in the same store, under its own prefix, sees none of app1's keys.
    const other = await value(b, `
      const s = store.asyncStorage({ prefix: "app2:" });
      await s.setItem("k", { x: 1 });
      return { entries: await s.entries(), mine: await s.getItem("k"), theirs: await s.getItem('tanstack-query-["todo",7]'),
               keys: (await store.keys()).sort() };`);
    assert.deepEqual(other.entries, [["k", { x: 1 }]]);
    assert.deepEqual(other.mine, { x: 1 });
    assert.equal(other.theirs, null);
    assert.deepEqual(other.keys, ['app1:tanstack-query-["todo",7]', 'app1:tanstack-query-["todo",8]', "app2:k"]);

    // A cache of idle entries (an hour after the last read, never past a day), and bad options.
    const idle = await value(b, `
      const s = store.asyncStorage({ prefix: "idle:", idle: "1 hour", ttl: "1 day" });
      await s.setItem("k", 1);
      let refused;
      try { store.asyncStorage({ idle: "whenever" }); } catch (e) { refused = [e.name, e.message]; }
      return { detail: await store.ttl("idle:k", { detail: true }), value: await s.getItem("k"), refused };`);
    assert.equal(idle.detail.idle, 3600);
    assert.ok(idle.detail.ttl > 3590 && idle.detail.ttl <= 3600, `an hour left: ${idle.detail.ttl}`);
    assert.ok(idle.detail.cap > Date.now() / 1000 + 86_000, `capped a day from now: ${idle.detail.cap}`);
    assert.equal(idle.value, 1);
    assert.equal(idle.refused[0], "TypeError");
    assert.match(idle.refused[1], /idle "whenever"/);

    // A removal in B is seen in A.
    await value(b, `await storage.removeItem('tanstack-query-["todo",7]');`);
    assert.equal(await value(a, `return storage.getItem('tanstack-query-["todo",7]');`), null);
  });
});

test("createAsyncStoragePersister: the whole client saved and restored after a reload", { timeout: TEST_TIMEOUT_MS }, async () => {
  await withBrowser(async ({ openTab }) => {
    const tab = await openTab();
    const setUpClient = `
      window.clientPersister = tq.createAsyncStoragePersister({ storage, throttleTime: 0, serialize: (c) => c, deserialize: (c) => c });`;
    await setUp(tab, "tanstack-client", { storage: { ttl: "1 day" } });
    await value(tab, `${setUpClient}
      client.setQueryData(["user"], { name: "Ada", since: new Date(Date.UTC(2020, 0, 1)) });
      await tq.persistQueryClientSave({ queryClient: client, persister: clientPersister });`);
    const saved = await poll(() => value(tab, `return store.keys();`), (k) => k.includes("REACT_QUERY_OFFLINE_CACHE"), EVENT_TIMEOUT_MS, "the client saved");
    assert.ok(saved.includes("REACT_QUERY_OFFLINE_CACHE"));
    await tab.reload();
    await tab.waitForSelector("html[data-state=ready]", { state: "attached" });
    await setUp(tab, "tanstack-client", { storage: { ttl: "1 day" } });
    const user = await value(tab, `${setUpClient}
      await tq.persistQueryClientRestore({ queryClient: client, persister: clientPersister, maxAge: 86_400_000 });
      const u = client.getQueryData(["user"]);
      return { name: u.name, since: u.since instanceof Date && u.since.toISOString() };`);
    assert.deepEqual(user, { name: "Ada", since: "2020-01-01T00:00:00.000Z" });
  });
});

for (const engine of ["firefox", "webkit"]) {
  test(`${engine}: a persisted query is restored after a reload, and getItem answers null when missing`, {
    timeout: TEST_TIMEOUT_MS * 2, skip: !available(engine) && `${engine} is not installed`,
  }, async () => {
    const server = startServer(ROOT);
    let session;
    try {
      const url = await server.url;
      session = await launch(engine);
      const ready = () => session.waitFor(() => document.documentElement.dataset.state, EVENT_TIMEOUT_MS, "the fixture to load the library");
      // Runs SETUP (with `arg`), then `body`, in the page; resolves to what body returns.
      const run = (body) => session.eval(`async (setup, body, bundle) => {
          const store = window.store = await window.idbTtl.TtlStore.open("tanstack-engines", {});
          const arg = { storage: { ttl: 60 }, maxAgeMs: 60_000 };
          const TtlStore = window.idbTtl.TtlStore;
          return await (new Function("store", "TtlStore", "arg", "return (async () => { " + setup + body + " })();"))(store, TtlStore, arg);
        }`, SETUP, body, BUNDLE);
      await session.goto(url + "tests/page/fixtures/blank.html");
      assert.equal(await ready(), "ready");
      assert.equal(await run(`await fetchTodo(5); return calls;`), 1);
      await session.waitFor(() => window.store.keys().then((k) => k.length === 1), EVENT_TIMEOUT_MS, "the query to be persisted");
      await session.reload();
      assert.equal(await ready(), "ready");
      const restored = await run(`const t = await fetchTodo(5);
        // (Firefox runs WebDriver scripts in a sandbox, where the page's Set is another realm's.)
        return { calls, set: Object.prototype.toString.call(t.tags) === "[object Set]", missing: await storage.getItem("nope") };`);
      assert.deepEqual(restored, { calls: 0, set: true, missing: null });
      await session.eval(() => window.store.close());
    } finally {
      if (session) await session.quit();
      await stopServer(server.child);
    }
  });
}
