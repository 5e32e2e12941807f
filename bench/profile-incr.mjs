#!/usr/bin/env node
// Where an awaited idb-ttl incr's time goes, against raw IndexedDB doing a get and a put in one
// readwrite transaction per increment (issue 33's bar: <= 1.3x). One headless Chromium session,
// a store of 1 000 entries. Three parts:
//   counts   per incr: transactions begun, IndexedDB requests by kind, timers, BroadcastChannel
//            posts, CustomEvents, and the wasm imports called, by name (a second module instance,
//            counted from its instantiation);
//   ladder   blocks of 100 awaited increments, each variant once per round, rounds in rotating
//            order; per variant the median over rounds of (variant / raw in the same round),
//            which a machine loaded by other work disturbs less than medians taken apart:
//              raw           raw's own layout (key path "k"): get + put
//              layout        on idb-ttl's database: by_key index get, put of the [e, k]-keyed record
//              layout+probe  the same after the watchdog's probe (a count of a key no record has)
//              incr          idb-ttl incr(key)
//              set           idb-ttl set(key, n) (a write without the read in JS, for scale)
//              update        idb-ttl update(key, n => (n ?? 0) + 1)
//   profile  a CPU profile of 2 000 awaited incr, self time by function.
// Not a test and not the benchmark: a tool for docs/benchmarks.md. Run after scripts/build.sh:
//   node bench/profile-incr.mjs [--rounds 15] [--block 100] [package dir, default www/pkg]
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { launch } from "./lib/browser.mjs";
import { startServer } from "./lib/server.mjs";
import { median } from "./lib/stats.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? Number(argv.splice(i, 2)[1]) : dflt; };
const ROUNDS = opt("--rounds", 15);
const BLOCK = opt("--block", 100);
const PKG = argv[0] || "www/pkg";

const server = await startServer(repo, repo);
const browser = await launch();
const load0 = loadavg()[0];
try {
  const page = await browser.context.newPage();
  page.on("pageerror", (e) => console.error("[page error]", e.message));
  await page.goto(server.url + "tests/page/fixtures/blank.html");
  await page.waitForFunction(() => document.documentElement.dataset.state);
  await page.evaluate(async (pkg) => {
    const C = (window.__counts = { on: false, n: {}, imports: new Map() });
    const bump = (k) => { if (C.on) C.n[k] = (C.n[k] ?? 0) + 1; };
    const wrap = (proto, name, label) => {
      const f = proto[name];
      proto[name] = function (...a) { bump(label === "tx" ? `transaction(${a[1] ?? "readonly"})` : label); return f.apply(this, a); };
    };
    wrap(IDBDatabase.prototype, "transaction", "tx");
    for (const m of ["get", "getKey", "put", "add", "delete", "count", "openCursor", "getAll", "getAllKeys"]) {
      wrap(IDBObjectStore.prototype, m, `store.${m}`);
      if (IDBIndex.prototype[m]) wrap(IDBIndex.prototype, m, `index.${m}`);
    }
    wrap(IDBTransaction.prototype, "commit", "tx.commit");
    wrap(BroadcastChannel.prototype, "postMessage", "BroadcastChannel.postMessage");
    wrap(EventTarget.prototype, "dispatchEvent", "dispatchEvent");
    for (const t of ["setTimeout", "clearTimeout", "queueMicrotask"]) {
      const f = window[t];
      window[t] = function (...a) { bump(t); return f.apply(this, a); };
    }
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = (m, imp) => {
      for (const mod of Object.values(imp)) {
        for (const [n, f] of Object.entries(mod)) {
          if (typeof f !== "function") continue;
          const name = n.startsWith("__wbindgen_") ? n.replace(/_[0-9a-f]{16}$/, "") : n.replace(/^__wbg_/, "").replace(/_[0-9a-f]{16}$/, "");
          mod[n] = function (...a) { if (C.on) C.imports.set(name, (C.imports.get(name) ?? 0) + 1); return f.apply(this, a); };
        }
      }
      return instantiate(m, imp);
    };
    // The fixture page has loaded the package already: "//" makes another URL, so another module
    // instance, whose wasm imports are counted from instantiation.
    const m = await import(`//${location.host}//${pkg}/index.js`);
    await m.default();
    const name = "profile-incr";
    await m.TtlStore.destroy(name);
    const s = (window.__store = await m.TtlStore.open(name, { autoReap: false }));
    await s.setMany(Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, { ttl: 86400 }]));
    const req = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    const done = (tx) => new Promise((ok, ko) => { tx.oncomplete = () => ok(); tx.onerror = tx.onabort = () => ko(tx.error); });
    const db = await req(indexedDB.open(name));
    await new Promise((ok) => { const r = indexedDB.deleteDatabase("profile-incr-raw"); r.onsuccess = r.onerror = () => ok(); });
    const rawOpen = indexedDB.open("profile-incr-raw", 1);
    rawOpen.onupgradeneeded = () => rawOpen.result.createObjectStore("kv", { keyPath: "k" }).createIndex("by_exp", "e");
    const rawDb = await req(rawOpen);
    {
      const tx = rawDb.transaction("kv", "readwrite");
      for (let i = 0; i < 1000; i++) tx.objectStore("kv").put({ k: `key-${i}`, e: Date.now() + 86_400_000, v: { i, text: "x".repeat(150) } });
      await done(tx);
    }
    const rawIncr = async (k) => {
      const tx = rawDb.transaction("kv", "readwrite");
      const st = tx.objectStore("kv");
      const now = Date.now();
      let n;
      st.get(k).onsuccess = (ev) => {
        const r = ev.target.result;
        const live = r !== undefined && r.e > now;
        n = (live ? r.v : 0) + 1;
        st.put({ k, e: live ? r.e : Infinity, v: n });
      };
      await done(tx);
      return n;
    };
    const layoutIncr = async (k, probe) => {
      const tx = db.transaction("entries", "readwrite");
      const st = tx.objectStore("entries");
      if (probe) st.count(-Infinity);
      const now = Date.now();
      let n;
      st.index("by_key").get(k).onsuccess = (ev) => {
        const r = ev.target.result;
        const live = r !== undefined && r.e > now;
        n = (live ? r.v : 0) + 1;
        st.put(live ? { ...r, v: n } : { k, e: Infinity, v: n });
      };
      await done(tx);
      return n;
    };
    let setN = 0;
    window.__variants = {
      raw: (k) => rawIncr(k),
      layout: (k) => layoutIncr(k, false),
      "layout+probe": (k) => layoutIncr(k, true),
      incr: (k) => s.incr(k),
      set: (k) => s.set(k, ++setN),
      update: (k) => s.update(k, (n) => (n ?? 0) + 1),
    };
  }, PKG);

  // ---- counts: 100 increments, after 10 uncounted
  const counts = await page.evaluate(async () => {
    const C = window.__counts, s = window.__store;
    for (let i = 0; i < 10; i++) await s.incr("counted");
    C.on = true;
    for (let i = 0; i < 100; i++) await s.incr("counted");
    C.on = false;
    const per = (x) => +(x / 100).toFixed(2);
    return {
      calls: Object.entries(C.n).map(([k, v]) => `${k}=${per(v)}`).join(" "),
      imports: [...C.imports.values()].reduce((a, b) => a + b, 0) / 100,
      byName: [...C.imports].sort((a, b) => b[1] - a[1]).map(([n, c]) => `${n}=${per(c)}`).join(" "),
    };
  });
  console.log("== per awaited incr (100 calls on one key, after 10)");
  console.log(`browser calls: ${counts.calls}`);
  console.log(`wasm imports: ${counts.imports.toFixed(1)}: ${counts.byName}`);

  // ---- ladder
  const names = await page.evaluate(() => Object.keys(window.__variants));
  const ms = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round <= ROUNDS; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    for (const v of order) {
      const t = await page.evaluate(async ([v, round, block]) => {
        const f = window.__variants[v];
        const k = `ctr-${v}-${round}`;
        const t0 = performance.now();
        for (let j = 1; j <= block; j++) {
          const n = await f(k);
          if (v !== "set" && n !== j) throw new Error(`${v}: ${n}, expected ${j}`);
        }
        return performance.now() - t0;
      }, [v, round, BLOCK]);
      if (round > 0) ms[v].push(t);
    }
  }
  console.log(`\n== ${ROUNDS} rounds (+1 warm-up) of ${BLOCK} awaited increments per variant, us per call: median (min-max); ratio to raw: median of per-round ratios (min-max)`);
  for (const v of names) {
    const us = ms[v].map((x) => (x * 1000) / BLOCK);
    const r = ms[v].map((x, i) => x / ms.raw[i]);
    console.log(`${v.padEnd(13)} ${median(us).toFixed(0).padStart(5)} us (${Math.min(...us).toFixed(0)}-${Math.max(...us).toFixed(0)})   ${median(r).toFixed(2)}x raw (${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)})`);
  }

  // ---- profile
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
  await cdp.send("Profiler.start");
  const took = await page.evaluate(async () => {
    const s = window.__store;
    const t = performance.now();
    for (let i = 0; i < 2000; i++) await s.incr("profiled");
    return performance.now() - t;
  });
  const { profile } = await cdp.send("Profiler.stop");
  const self = new Map();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const name = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}`.trim();
    self.set(name, (self.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`\n== 2 000 awaited incr: ${took.toFixed(0)} ms (${((took * 1000) / 2000).toFixed(0)} us each); profile self time, top 20`);
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
  await page.evaluate(() => window.__store.close());
  console.log(`\nChromium ${browser.version}; 1-min load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)} on 2 cores`);
} finally {
  await browser.close();
  await server.stop();
}
