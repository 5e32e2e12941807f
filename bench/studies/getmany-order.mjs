#!/usr/bin/env node
// Question: Does asking for 1 000 keys in key order make one transaction of gets faster?
// Whether asking in key order makes 1 000 gets of one transaction faster (issue 40, deliver 4):
// 1 000 random keys of a store of N (default 100 000), asked in their random order or sorted
// first by indexedDB.cmp (the sort timed with them), for raw IndexedDB's layout and idb-ttl's
// ([e, k] keys). One headless Chromium session, interleaved (bench/lib/ab.mjs). Not a test and not
// the benchmark. IDB_BACKEND=sqlite for Chromium's SQLite backend.
//
//   node bench/studies/getmany-order.mjs [reps] [N]
import { ab } from "../lib/ab.mjs";
const N = Number(process.argv[3] || 100000);
const labels = ["raw", "raw-sorted", "pk", "pk-sorted"];
await ab(labels, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: Number(process.argv[2] || 11), extra: [N] }, async ([label, j, rep, N]) => {
  const req = (r) => new Promise((res, rej) => { r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const exp = (i) => 1.9e9 + (i % 997);
  let rnd = rep * 7919 + 1;
  const r = () => ((rnd = (rnd * 48271) % 2147483647) / 2147483647);
  let ids = Array.from({ length: 1000 }, () => Math.floor(r() * N));
  const rawL = label.startsWith("raw");
  const name = rawL ? `getmany-order-raw-${N}` : `getmany-order-pk-${N}`;
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    if (rawL) db.createObjectStore("s"); else db.createObjectStore("s", { keyPath: ["e", "k"] }).createIndex("k", ["k"], { unique: true });
  };
  const db = await req(open);
  if ((await req(db.transaction("s").objectStore("s").count())) < N) {
    for (let b = 0; b < N; b += 10000) {
      const tx = db.transaction("s", "readwrite"); const st = tx.objectStore("s");
      for (let i = b; i < Math.min(N, b + 10000); i++) rawL ? st.put({ v: { i, text: "x".repeat(150) }, e: exp(i) }, `k-${i}`) : st.put({ e: exp(i), k: `k-${i}`, v: { i, text: "x".repeat(150) } });
      await new Promise((r) => (tx.oncomplete = r));
    }
  }
  let ks = ids.map((i) => rawL ? `k-${i}` : [exp(i), `k-${i}`]);
  const t = performance.now();
  if (label.endsWith("sorted")) ks = ks.map((k, i) => [k, i]).sort((a, b) => indexedDB.cmp(a[0], b[0])).map(([k]) => k);
  const st = db.transaction("s").objectStore("s");
  const v = await Promise.all(ks.map((k) => req(st.get(k))));
  const d = performance.now() - t;
  db.close();
  if (v.some((x) => x === undefined)) throw new Error("miss " + label);
  return { getMany: d };
});
