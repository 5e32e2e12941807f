#!/usr/bin/env node
// Question: Where does an awaited get's time go, stage by stage, against raw IndexedDB's read?
// Where an awaited get's time goes, by stage, against raw IndexedDB doing the same read: 1 000
// awaited gets of 10 000 entries, three rounds, in one headless Chromium session. The IndexedDB
// methods and the microtask queue are wrapped with timestamps, so each get is cut into
//   entry    call -> first microtask of the wasm executor (the method, the Promise, the spawn)
//   toTx     that microtask -> transaction() called (the verb, key, hint, the builder)
//   tx       the native transaction() call
//   afterTx  transaction() -> objectStore() (indexed_db_futures' transaction listeners)
//   get      the native get() call
//   wait     get() returned -> its success event (the browser's round trip; work done here
//            overlaps it)
//   answer   success event -> the executor's next microtask (indexed_db_futures' request
//            listener: the result read, the channel, the wake)
//   poll     that microtask (the driver's poll: the record converted, the promise resolved)
//   user     -> the caller's await resumes
// plus, for scale, the whole get and the same read by raw IndexedDB (a transaction per get by
// primary key on a second connection), and the number of wasm imports called per get. Not a test
// and not the benchmark (wall-clock here is perturbed by the wrappers and performance.now()'s
// coarse clock; averages over 1 000 gets): a tool for docs/contributing/benchmark-notebook.md. Run after
// scripts/build.sh:  node bench/studies/split-get.mjs [package dir, default www/pkg]
import { launch } from "../lib/browser.mjs";
import { startServer } from "../lib/server.mjs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const server = await startServer(repo, repo);
const browser = await launch();
try {
  const page = await browser.context.newPage();
  await page.goto(server.url + "tests/page/fixtures/blank.html");
  await page.waitForFunction(() => document.documentElement.dataset.state);
  const { rounds, names } = await page.evaluate(async (pkg) => {
    const T = {};
    const now = () => performance.now();
    const wrap = (proto, name, before, after) => {
      const f = proto[name];
      proto[name] = function (...a) { before?.(); const r = f.apply(this, a); after?.(r); return r; };
    };
    wrap(IDBDatabase.prototype, "transaction", () => { T.tx0 = now(); }, () => { T.tx1 = now(); });
    wrap(IDBTransaction.prototype, "objectStore", () => { T.os0 = now(); });
    wrap(IDBObjectStore.prototype, "get", () => { T.get0 = now(); }, (r) => {
      T.get1 = now();
      r.addEventListener("success", () => { T.success = now(); });
    });
    const onsuccess = Object.getOwnPropertyDescriptor(IDBRequest.prototype, "onsuccess");
    Object.defineProperty(IDBRequest.prototype, "onsuccess", {
      configurable: true, get: onsuccess.get,
      set(f) { onsuccess.set.call(this, f && function (e) { const r = f.call(this, e); T.listened = now(); return r; }); },
    });
    const queue = window.queueMicrotask;
    window.queueMicrotask = (f) => queue(() => { const t = now(); T.micro0 ??= t; T.micro = t; f(); T.microEnd = now(); });
    // The wasm imports, counted.
    let imports = 0;
    const byName = new Map();
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = (m, imp) => {
      for (const mod of Object.values(imp)) {
        for (const [n, f] of Object.entries(mod)) {
          if (typeof f !== "function") continue;
          const name = n.startsWith("__wbindgen_generic_") ? n.replace(/_0+(?=[0-9a-f]+$)/, "_") : n.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "");
          mod[n] = function (...a) { imports++; byName.set(name, (byName.get(name) ?? 0) + 1); return f.apply(this, a); };
        }
      }
      return instantiate(m, imp);
    };

    // The fixture page has loaded the package already: "//" makes other URLs, so another module
    // instance, whose wasm imports are counted from instantiation.
    const m = await import(`//${location.host}//${pkg}/index.js`);
    await m.default();
    const s = await m.TtlStore.open("split-get", { autoReap: false });
    await s.clear();
    await s.setMany(Array.from({ length: 10000 }, (_, i) => [`k-${i}`, { i, text: "x".repeat(150) }, { ttl: 3600 + (i % 1000) }]));
    const req = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    const db = await req(indexedDB.open("split-get"));
    const keys = Array.from({ length: 1000 }, (_, i) => `k-${(i * 7919) % 10000}`);
    const byKey = db.transaction("entries").objectStore("entries").index("by_key");
    const pks = [];
    for (const k of keys) pks.push(await req(byKey.getKey(k)));
    const out = [];
    for (let round = 0; round < 3; round++) {
      let t = now();
      for (const pk of pks) if ((await req(db.transaction("entries").objectStore("entries").get(pk))) === undefined) throw new Error("raw: missing");
      const raw = now() - t;
      const sum = {};
      const add = (k, v) => { sum[k] = (sum[k] ?? 0) + v; };
      const calls = imports;
      byName.clear();
      t = now();
      for (const k of keys) {
        T.micro0 = undefined;
        const t0 = now();
        if ((await s.get(k)) === undefined) throw new Error("idb-ttl: missing");
        const t1 = now();
        add("entry", T.micro0 - t0); add("toTx", T.tx0 - T.micro0); add("tx", T.tx1 - T.tx0); add("afterTx", T.os0 - T.tx1);
        add("get", T.get1 - T.get0); add("wait", T.success - T.get1); add("answer", T.micro - T.success);
        add("poll", T.microEnd - T.micro); add("user", t1 - T.microEnd);
      }
      out.push({ raw, idbTtl: now() - t, imports: (imports - calls) / keys.length, ...sum });
    }
    // The last round's imports by name, per get.
    out.names = [...byName].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n}=${+(c / keys.length).toFixed(2)}`).join(" ");
    s.close();
    db.close();
    return { rounds: out, names: out.names };
  }, process.argv[2] || "www/pkg");
  console.log("us per get (1 000 gets of 10 000 entries), three rounds:");
  for (const r of rounds) console.log(Object.entries(r).map(([k, v]) => `${k}=${k === "imports" ? v.toFixed(1) : v.toFixed(1)}`).join(" "));
  console.log(`wasm imports per get, by name (last round): ${names}`);
} finally {
  await browser.close();
  await server.stop();
}
