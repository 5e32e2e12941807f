#!/usr/bin/env node
// Question: Where is getMany's floor: how much of its time is the [e, k] layout, the index, or idb-ttl itself?
// Where getMany's floor is (issue 40, deliver 4): one getMany of 1 000 random keys from a store of
// 1 000, five ways, interleaved in one headless Chromium session (bench/lib/ab.mjs: medians and
// paired ratios of each line to the one before it):
//   raw       raw IndexedDB, records keyed by the key itself (the benchmark's raw contender);
//   pk        idb-ttl's layout ({e, k, v} keyed by [e, k], a unique [k] index), asked by [e, k];
//   idx       the same layout asked through the [k] index;
//   ttl-hot   idb-ttl's getMany on a connection that read the keys once (hints known: by [e, k]);
//   ttl-cold  idb-ttl's getMany on a connection just opened (no hints: through the index).
// Not a test and not the benchmark. IDB_BACKEND=sqlite for Chromium's SQLite backend.
//
//   node bench/studies/getmany-floor.mjs [reps]        (the package in pkg/, built by scripts/build.sh)
import { ab } from "../lib/ab.mjs";
const labels = ["raw", "pk", "idx", "ttl-hot", "ttl-cold"];
await ab(labels, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: Number(process.argv[2] || 15) }, async ([label, j, rep]) => {
  const N = 1000;
  const keys = Array.from({ length: 1000 }, (_, i) => `k-${(rep * 7907 + i * 104723) % N}`);
  const exp = (i) => 1.9e9 + (i % 1000);
  const req = (r) => new Promise((res, rej) => { r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  if (label.startsWith("ttl")) {
    const m = await import(`/pkg/index.js`);
    const s = await m.TtlStore.open(`getmany-floor-ttl`, { autoReap: false });
    if ((await s.count()) < N) await s.setMany(Array.from({ length: N }, (_, i) => [`k-${i}`, { i, text: "x".repeat(150) }, { ttl: 3600 + (i % 1000) }]));
    if (label === "ttl-cold") { s.close(); } else { await s.getMany(keys); const t = performance.now(); const v = await s.getMany(keys); const d = performance.now() - t; s.close(); if (v.some((x) => x === undefined)) throw new Error("miss"); return { getMany: d }; }
    const s2 = await m.TtlStore.open(`getmany-floor-ttl`, { autoReap: false });
    const t = performance.now(); const v = await s2.getMany(keys); const d = performance.now() - t; s2.close();
    if (v.some((x) => x === undefined)) throw new Error("miss");
    return { getMany: d };
  }
  const name = label === "raw" ? "getmany-floor-raw" : "getmany-floor-layout";
  const open = indexedDB.open(name, 1);
  open.onupgradeneeded = () => {
    const db = open.result;
    if (label === "raw") db.createObjectStore("s");
    else db.createObjectStore("s", { keyPath: ["e", "k"] }).createIndex("k", ["k"], { unique: true });
  };
  const db = await req(open);
  let tx = db.transaction("s", "readonly");
  if ((await req(tx.objectStore("s").count())) < N) {
    tx = db.transaction("s", "readwrite"); const st = tx.objectStore("s");
    for (let i = 0; i < N; i++) label === "raw" ? st.put({ v: { i, text: "x".repeat(150) }, e: exp(i) }, `k-${i}`) : st.put({ e: exp(i), k: `k-${i}`, v: { i, text: "x".repeat(150) } });
    await new Promise((r) => (tx.oncomplete = r));
  }
  const t = performance.now();
  tx = db.transaction("s", "readonly"); const st = tx.objectStore("s");
  const rs = keys.map((k) => {
    const i = Number(k.slice(2));
    return req(label === "raw" ? st.get(k) : label === "pk" ? st.get([exp(i), k]) : st.index("k").get([k]));
  });
  const v = await Promise.all(rs);
  const d = performance.now() - t;
  db.close();
  if (v.some((x) => x === undefined)) throw new Error("miss " + label);
  return { getMany: d };
});
