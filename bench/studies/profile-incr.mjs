#!/usr/bin/env node
// Question: Where does an awaited incr's time go, against raw IndexedDB's get and put?
// Where an awaited idb-ttl incr's time goes, against raw IndexedDB doing a get and a put in one
// readwrite transaction per increment (issue 33's bar: <= 1.3x). One headless Chromium session,
// a store of 1 000 entries. Three parts:
//   counts   per incr: transactions begun, IndexedDB requests by kind, timers, BroadcastChannel
//            posts, CustomEvents, and the wasm imports called, by name (a second module instance,
//            counted from its instantiation);
//   ladder   in the page, rounds of a block of 10 awaited increments per variant (rotating
//            order), every call timed; per variant the mean and median call, and the median over
//            rounds of (variant's block / raw's block in the same round), which a machine loaded
//            by other work disturbs less than times taken apart:
//              raw           raw's own layout (key path "k"): get + put
//              layout by pk  on idb-ttl's database: get by primary key [e, k] (as a hinted get), put
//              layout        the same, the record read through the by_key index (what incr does)
//              +probe        the same after the watchdog's probe (a count of a key no record has)
//              +commit()     the same with tx.commit() after the put (all of incr's requests)
//              incr          idb-ttl incr(key)
//              set           idb-ttl set(key, n) (a write without the read in JS, for scale)
//              update        idb-ttl update(key, n => (n ?? 0) + 1)
//   profile  a CPU profile of 2 000 awaited incr, self time by function.
// Not a test and not the benchmark: a tool for docs/contributing/benchmark-notebook.md. Run after scripts/build.sh:
//   node bench/studies/profile-incr.mjs [--rounds 200] [--block 10] [package dir, default www/pkg]
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadavg } from "node:os";
import { launch } from "../lib/browser.mjs";
import { startServer } from "../lib/server.mjs";
import { median } from "../lib/stats.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? Number(argv.splice(i, 2)[1]) : dflt; };
const ROUNDS = opt("--rounds", 200);
const BLOCK = opt("--block", 10);
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
    // Browser calls counted (C.on) and stamped (T.on) through wrappers that unwrap() takes away
    // again, so that the ladder and the profile run on the browser's own methods.
    const C = (window.__counts = { on: false, n: {}, imports: new Map() });
    const T = (window.__stamps = { on: false, t: {} });
    const bump = (k) => { if (C.on) C.n[k] = (C.n[k] ?? 0) + 1; };
    const stamp = (k) => { if (T.on) T.t[k] ??= performance.now(); };
    const originals = [];
    const wrap = (obj, name, label, after) => {
      const f = obj[name];
      originals.push([obj, name, f]);
      obj[name] = function (...a) {
        bump(label === "tx" ? `transaction(${a[1] ?? "readonly"})` : label);
        stamp(label);
        const r = f.apply(this, a);
        after?.(r);
        return r;
      };
    };
    window.__unwrap = () => { for (const [obj, name, f] of originals.reverse()) obj[name] = f; };
    wrap(IDBDatabase.prototype, "transaction", "tx", (tx) => { if (T.on) tx.addEventListener("complete", () => stamp("complete")); });
    const onSuccess = (r) => { if (T.on) r.addEventListener("success", () => stamp("success")); };
    for (const m of ["get", "getKey", "put", "add", "delete", "count", "openCursor", "getAll", "getAllKeys"]) {
      wrap(IDBObjectStore.prototype, m, `store.${m}`, m === "get" ? onSuccess : undefined);
      if (IDBIndex.prototype[m]) wrap(IDBIndex.prototype, m, `index.${m}`, m === "get" ? onSuccess : undefined);
    }
    wrap(IDBTransaction.prototype, "commit", "tx.commit");
    wrap(BroadcastChannel.prototype, "postMessage", "BroadcastChannel.postMessage");
    wrap(EventTarget.prototype, "dispatchEvent", "dispatchEvent");
    for (const t of ["setTimeout", "clearTimeout", "queueMicrotask"]) wrap(window, t, t);
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
    // The fixture page has loaded the package already (window.idbTtl, used for timing): "//"
    // makes another URL, so another module instance, whose wasm imports are counted from its
    // instantiation, on a database of its own.
    const counted = await import(`//${location.host}//${pkg}/index.js`);
    await counted.default();
    WebAssembly.instantiate = instantiate;
    await counted.TtlStore.destroy("profile-incr-counted");
    window.__counted = await counted.TtlStore.open("profile-incr-counted", { autoReap: false });
    const m = window.idbTtl;
    const name = "profile-incr";
    await m.TtlStore.destroy(name);
    const s = (window.__store = await m.TtlStore.open(name, { autoReap: false }));
    await s.setMany(Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, { ttl: 86400 }]));
    const req = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    const done = (tx) => new Promise((ok, ko) => { tx.oncomplete = () => ok(); tx.onerror = tx.onabort = () => ko(tx.error); });
    const db = await req(indexedDB.open(name));
    // raw IndexedDB's incr: the benchmark's raw contender, on a database of 1 000 records as the store's.
    const { default: raw } = await import("/bench/contenders/raw.js");
    await raw.destroy("profile-incr-raw");
    await raw.open("profile-incr-raw");
    await raw.setMany(Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, Date.now() + 86_400_000]));
    // byPk: the record read by its primary key [e, k] (e as an expiry hint would give it: the
    // counters here have none) instead of through by_key; commit: tx.commit() after the put.
    const layoutIncr = async (k, { probe = false, byPk = false, commit = false } = {}) => {
      const tx = db.transaction("entries", "readwrite");
      const st = tx.objectStore("entries");
      if (probe) st.count(-Infinity);
      const now = Date.now();
      let n;
      (byPk ? st.get([Infinity, k]) : st.index("by_key").get(k)).onsuccess = (ev) => {
        const r = ev.target.result;
        const live = r !== undefined && r.e > now;
        n = (live ? r.v : 0) + 1;
        st.put(live ? { ...r, v: n } : { k, e: Infinity, v: n });
        if (commit) tx.commit();
      };
      await done(tx);
      return n;
    };
    let setN = 0;
    window.__variants = {
      raw: (k) => raw.incr(k),
      "layout by pk": (k) => layoutIncr(k, { byPk: true }),
      layout: (k) => layoutIncr(k),
      "+probe": (k) => layoutIncr(k, { probe: true }),
      "+commit()": (k) => layoutIncr(k, { probe: true, commit: true }),
      incr: (k) => s.incr(k),
      set: (k) => s.set(k, ++setN),
      update: (k) => s.update(k, (n) => (n ?? 0) + 1),
    };
  }, PKG);

  // ---- counts: 100 increments, after 10 uncounted
  const counts = await page.evaluate(async () => {
    const C = window.__counts, s = window.__counted;
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

  // ---- stages: where one awaited increment's time goes (raw, raw with all of incr's requests,
  // incr), averaged over 500 calls each, the wrappers stamping the first time each is called.
  const stages = await page.evaluate(async () => {
    const T = window.__stamps, V = window.__variants, out = {};
    for (const v of ["raw", "+commit()", "incr"]) {
      const sum = {};
      const add = (k, a, b) => { if (a != null && b != null) sum[k] = (sum[k] ?? 0) + (b - a); };
      for (let i = 0; i < 50; i++) await V[v](`staged-${v}`);
      for (let i = 0; i < 500; i++) {
        T.t = {};
        T.on = true;
        const t0 = performance.now();
        await V[v](`staged-${v}`);
        const t1 = performance.now();
        T.on = false;
        const t = T.t, get = t["index.get"] ?? t["store.get"];
        add("call -> transaction()", t0, t.tx);
        add("transaction() -> get()", t.tx, get);
        add("get() -> its success event", get, t.success);
        add("success -> put()", t.success, t["store.put"]);
        add("put() -> commit()", t["store.put"], t["tx.commit"]);
        add("put() or commit() -> complete", t["tx.commit"] ?? t["store.put"], t.complete);
        add("complete -> the caller resumes", t.complete, t1);
        add("whole call", t0, t1);
      }
      out[v] = Object.fromEntries(Object.entries(sum).map(([k, x]) => [k, (x * 1000) / 500]));
    }
    window.__unwrap();
    return out;
  });
  console.log("\n== stages of one awaited increment, us (mean of 500; performance.now() is coarse here, means only)");
  const stageNames = [...new Set(Object.values(stages).flatMap((o) => Object.keys(o)))];
  console.log(["stage".padEnd(32), ...Object.keys(stages).map((v) => v.padStart(10))].join(" "));
  for (const k of stageNames) console.log([k.padEnd(32), ...Object.values(stages).map((o) => (o[k] == null ? "-" : o[k].toFixed(0)).padStart(10))].join(" "));

  // ---- ladder
  const ladder = await page.evaluate(async ([rounds, block]) => {
    const V = window.__variants, names = Object.keys(V);
    const calls = Object.fromEntries(names.map((n) => [n, []]));
    const blocks = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round <= rounds; round++) {
      for (let i = 0; i < names.length; i++) {
        const v = names[(i + round) % names.length];
        const k = `ctr-${v}-${round}`;
        let sum = 0;
        for (let j = 1; j <= block; j++) {
          const t = performance.now();
          const n = await V[v](k);
          const dt = performance.now() - t;
          if (v !== "set" && n !== j) throw new Error(`${v}: ${n}, expected ${j}`);
          sum += dt;
          if (round > 0) calls[v].push(dt);
        }
        if (round > 0) blocks[v].push(sum);
      }
    }
    return { names, calls, blocks };
  }, [ROUNDS, BLOCK]);
  console.log(`\n== ${ROUNDS} rounds (+1 warm-up) of ${BLOCK} awaited increments per variant (${ROUNDS * BLOCK} calls each), us per call: ` +
    "mean, median; ratio to raw: of the means, and the median (min-max) over rounds of the paired block ratio");
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rawMean = mean(ladder.calls.raw), rawMedian = median(ladder.calls.raw);
  for (const v of ladder.names) {
    const c = ladder.calls[v];
    const r = ladder.blocks[v].map((x, i) => x / ladder.blocks.raw[i]);
    console.log(`${v.padEnd(13)} mean ${(mean(c) * 1000).toFixed(0).padStart(5)} us (${(mean(c) / rawMean).toFixed(2)}x raw)  ` +
      `median ${(median(c) * 1000).toFixed(0).padStart(5)} us (${(median(c) / rawMedian).toFixed(2)}x)  ` +
      `paired blocks ${median(r).toFixed(2)}x (${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)})`);
  }

  // ---- profile: raw and incr, 2 000 calls each; the main thread's time per call by kind
  const cdp = await browser.context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
  for (const v of ["raw", "incr"]) {
    await cdp.send("Profiler.start");
    const took = await page.evaluate(async (v) => {
      const f = window.__variants[v];
      const t = performance.now();
      for (let i = 0; i < 2000; i++) await f(`profiled-${v}`);
      return performance.now() - t;
    }, v);
    const { profile } = await cdp.send("Profiler.stop");
    const self = new Map(), kinds = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const kindOf = (f, name) => f.functionName === "(idle)" ? "idle (waiting for the browser)" :
      /^wasm-function|^\$/.test(f.functionName) || f.url.startsWith("wasm://") ? "wasm" :
      /idb_ttl\.js|snippets|index\.js/.test(f.url) ? "idb-ttl JS (glue, snippets)" :
      f.url === "" && !/^\(/.test(f.functionName) ? "native (IndexedDB calls, events)" : name;
    profile.samples.forEach((id, i) => {
      const f = byId.get(id).callFrame;
      const name = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}`.trim();
      const dt = profile.timeDeltas[i] ?? 0;
      self.set(name, (self.get(name) ?? 0) + dt);
      const k = kindOf(f, name);
      kinds.set(k, (kinds.get(k) ?? 0) + dt);
    });
    const per = (us) => `${(us / 2000).toFixed(0).padStart(5)} us`;
    console.log(`\n== 2 000 awaited ${v}: ${took.toFixed(0)} ms (${((took * 1000) / 2000).toFixed(0)} us each); the profile's time per call by kind`);
    for (const [k, us] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`${per(us)}  ${k}`);
    console.log("top functions by self time, per call:");
    for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log(`${per(us)}  ${name}`);
  }
  await page.evaluate(() => window.__store.close());
  console.log(`\nChromium ${browser.version}; 1-min load average ${load0.toFixed(1)} -> ${loadavg()[0].toFixed(1)} on 2 cores`);
} finally {
  await browser.close();
  await server.stop();
}
