#!/usr/bin/env node
// Question: Is getMany right after a bulk write slower for the layout, the index or idb-ttl?
// getMany right after a bulk write (issue 40, deliver 4), as the benchmark's 100 000-entry rounds
// take it: per repetition a fresh database, N entries written (10 000 per transaction), then one
// transaction of 1 000 gets of random keys, four ways, interleaved in one headless Chromium
// session (bench/lib/ab.mjs: medians and paired ratios of each line to the one above it):
//   raw   raw IndexedDB, `{v, e}` keyed by the key (the benchmark's raw contender);
//   pk    idb-ttl's layout (`{e, k, v}` keyed by [e, k], a unique [k] index), asked by [e, k];
//   idx   the same layout asked through the [k] index (a key this connection never read);
//   ttl   idb-ttl's own setMany, then its getMany on the same connection.
// Not a test and not the benchmark. IDB_BACKEND=sqlite for Chromium's SQLite backend.
//
//   node bench/studies/getmany-fresh.mjs [reps] [N]   (default 5 and 100 000; the package in pkg/)
import { ab } from "../lib/ab.mjs";
const N = Number(process.argv[3] || 100000);
await ab(["raw", "pk", "idx", "ttl"], { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: Number(process.argv[2] || 5), extra: [N] }, async ([label, j, rep, N]) => {
  const req = (r) => new Promise((res, rej) => { r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const exp = (i) => 1.9e9 + (i % 997);
  let rnd = rep * 7919 + 1;
  const r = () => ((rnd = (rnd * 48271) % 2147483647) / 2147483647);
  const ids = Array.from({ length: 1000 }, () => Math.floor(r() * N));
  const name = `getmany-fresh-${label}-${rep}`;
  const val = (i) => ({ i, text: "x".repeat(150) });
  if (label === "ttl") {
    const m = await import("/pkg/index.js");
    const s = await m.TtlStore.open(name, { autoReap: false });
    for (let b = 0; b < N; b += 10000) await s.setMany(Array.from({ length: Math.min(10000, N - b) }, (_, k) => [`k-${b + k}`, val(b + k), { expiresAt: exp(b + k) }]));
    const t = performance.now();
    const v = await s.getMany(ids.map((i) => `k-${i}`));
    const d = performance.now() - t;
    s.close();
    await m.TtlStore.destroy(name);
    if (v.some((x) => x === undefined)) throw new Error("miss ttl");
    return { getMany: d };
  }
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    if (label === "raw") db.createObjectStore("s").createIndex("e", "e");
    else db.createObjectStore("s", { keyPath: ["e", "k"] }).createIndex("k", ["k"], { unique: true });
  };
  const db = await req(open);
  for (let b = 0; b < N; b += 10000) {
    const tx = db.transaction("s", "readwrite"); const st = tx.objectStore("s");
    for (let i = b; i < Math.min(N, b + 10000); i++) label === "raw" ? st.put({ v: val(i), e: exp(i) * 1000 }, `k-${i}`) : st.put({ e: exp(i), k: `k-${i}`, v: val(i) });
    await new Promise((ok) => (tx.oncomplete = ok));
  }
  const t = performance.now();
  const st = db.transaction("s").objectStore("s");
  const v = await Promise.all(ids.map((i) => req(label === "raw" ? st.get(`k-${i}`) : label === "pk" ? st.get([exp(i), `k-${i}`]) : st.index("k").get([`k-${i}`]))));
  const d = performance.now() - t;
  db.close();
  await req(indexedDB.deleteDatabase(name));
  if (v.some((x) => x === undefined)) throw new Error("miss " + label);
  return { getMany: d };
});
