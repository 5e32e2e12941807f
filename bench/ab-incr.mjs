#!/usr/bin/env node
// A/B of idb-ttl builds on awaited incr (issue 33): per build and repetition, a store of 1 000
// entries, then 300 awaited raw IndexedDB increments (a get and a put in one readwrite
// transaction, on a database of raw's layout: the same for every build, the repetition's
// yardstick) and 300 awaited incr of one key. One headless Chromium session, builds interleaved,
// 1 warm-up + --reps repetitions (default 20); medians (min-max) in ms (incr/raw in %), and each build's paired
// ratio to the build before it. Not a test and not the benchmark: a tool for per-call changes.
//
//   node bench/ab-incr.mjs [--reps N] www/pkg other/pkg   (package directories, relative to the repo)
import { ab } from "./lib/ab.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--reps");
const REPS = at >= 0 ? Number(args.splice(at, 2)[1]) : 20;
await ab(args, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: REPS }, async ([pkg, j, rep]) => {
  const m = await import(`/${pkg}/index.js`);
  await m.default();
  const req = (r) => new Promise((ok, ko) => { r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
  const done = (tx) => new Promise((ok, ko) => { tx.oncomplete = () => ok(); tx.onerror = tx.onabort = () => ko(tx.error); });
  const name = `ab-incr-${j}-${rep}`;
  await m.TtlStore.destroy(name);
  const s = await m.TtlStore.open(name, { autoReap: false });
  await s.setMany(Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, { ttl: 86400 }]));
  await new Promise((ok) => { const r = indexedDB.deleteDatabase(`${name}-raw`); r.onsuccess = r.onerror = () => ok(); });
  const open = indexedDB.open(`${name}-raw`, 1);
  open.onupgradeneeded = () => open.result.createObjectStore("kv", { keyPath: "k" }).createIndex("by_exp", "e");
  const db = await req(open);
  const rawIncr = async (k) => {
    const tx = db.transaction("kv", "readwrite");
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
  let t = performance.now();
  for (let i = 1; i <= 300; i++) if ((await rawIncr("counter")) !== i) throw new Error("raw incr");
  const raw = performance.now() - t;
  t = performance.now();
  for (let i = 1; i <= 300; i++) if ((await s.incr("counter")) !== i) throw new Error("incr");
  const incr = performance.now() - t;
  db.close();
  s.close();
  await m.TtlStore.destroy(name);
  await new Promise((ok) => { const r = indexedDB.deleteDatabase(`${name}-raw`); r.onsuccess = r.onerror = () => ok(); });
  return { raw, incr, "incr/raw %": (100 * incr) / raw };
});
