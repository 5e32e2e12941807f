#!/usr/bin/env node
// Question: How does idb-ttl compare with raw IndexedDB on the benchmark's read sequence alone?
// The benchmark's read sequence alone (issue 40, deliver 4), raw IndexedDB against idb-ttl,
// interleaved in one headless Chromium session: a fresh database, a bulk write of 1 000 entries,
// 1 000 awaited gets of random keys, then one getMany of 1 000 random keys; medians and the
// paired ratio (bench/lib/ab.mjs). Not a test and not the benchmark. IDB_BACKEND=sqlite for
// Chromium's SQLite backend.
//
//   node bench/studies/getmany-seq.mjs [reps]          (the package in pkg/, built by scripts/build.sh)
import { ab } from "../lib/ab.mjs";
const labels = ["raw", "ttl"];
await ab(labels, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: Number(process.argv[2] || 15) }, async ([label, j, rep]) => {
  const N = 1000;
  const req = (r) => new Promise((res, rej) => { r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const now = Date.now();
  const val = (i) => ({ id: i, name: `user-${i}`, text: "x".repeat(100), n: i * 3 });
  const ents = Array.from({ length: N }, (_, i) => [`key-${i}`, val(i), Math.floor(now / 1000) + 3600 + i]);
  let rnd = rep * 7919 + 1;
  const r = () => ((rnd = (rnd * 48271) % 2147483647) / 2147483647);
  const gk = Array.from({ length: 1000 }, () => `key-${Math.floor(r() * N)}`);
  const mk = Array.from({ length: 1000 }, () => `key-${Math.floor(r() * N)}`);
  const name = `getmany-seq-${label}-${rep}`;
  let get, many, bulk;
  if (label === "ttl") {
    const m = await import(`/pkg/index.js`);
    const s = await m.TtlStore.open(name, { autoReap: false, maxRemovesPerRun: 1e9 });
    let t = performance.now();
    await s.setMany(ents.map(([k, v, e]) => [k, v, { expiresAt: e }]));
    bulk = performance.now() - t;
    t = performance.now();
    for (const k of gk) if ((await s.get(k)) === undefined) throw new Error("miss");
    get = performance.now() - t;
    t = performance.now();
    const vs = await s.getMany(mk);
    many = performance.now() - t;
    if (vs.some((v) => v === undefined)) throw new Error("miss");
    s.close();
    await m.TtlStore.destroy(name);
  } else {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => { open.result.createObjectStore("s").createIndex("e", "e"); };
    const db = await req(open);
    let t = performance.now();
    const tx = db.transaction("s", "readwrite"); const st = tx.objectStore("s");
    for (const [k, v, e] of ents) st.put({ v, e: e * 1000 }, k);
    await new Promise((r) => (tx.oncomplete = r));
    bulk = performance.now() - t;
    t = performance.now();
    for (const k of gk) { const x = await req(db.transaction("s").objectStore("s").get(k)); if (!x || x.e <= Date.now()) throw new Error("miss"); }
    get = performance.now() - t;
    t = performance.now();
    const s2 = db.transaction("s").objectStore("s");
    const vs = await Promise.all(mk.map((k) => req(s2.get(k))));
    many = performance.now() - t;
    if (vs.some((v) => v === undefined)) throw new Error("miss");
    db.close();
    await req(indexedDB.deleteDatabase(name));
  }
  return { bulk, get, many };
});
