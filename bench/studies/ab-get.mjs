#!/usr/bin/env node
// Question: Is one idb-ttl build faster than another on reads alone (awaited gets on a new connection, again, and a getMany)?
// A/B of idb-ttl builds on reads alone: 500 awaited get() of random keys on a connection just
// opened (`get`: the keys' expiries unknown to it), the same 500 again (`get2`: known from the
// first reads) and one getMany() of 1 000 keys, from a store of `--store` entries (default 1 000) written once per build (untimed).
// One headless Chromium session, builds interleaved, 1 warm-up + `--reps` repetitions (default
// 15), medians (min-max) in ms. Not a test and not the benchmark: a tool for per-read changes
// (issue 32: each step measured against the build before it in one run). IDB_BACKEND=sqlite for
// Chromium's SQLite backend.
//
//   node bench/studies/ab-get.mjs [--store N] [--reps N] a/pkg b/pkg ...   (package directories)
import { ab } from "../lib/ab.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const at = args.indexOf(name); return at >= 0 ? Number(args.splice(at, 2)[1]) : dflt; };
const STORE = opt("--store", 1000);
const REPS = opt("--reps", 15);
await ab(args, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: REPS, extra: [STORE] }, async ([pkg, j, rep, STORE]) => {
  const m = await import(`/${pkg}/index.js`);
  await m.default();
  const s = await m.TtlStore.open(`ab-get-${j}`, { autoReap: false });
  if ((await s.count()) < STORE) {
    for (let i = 0; i < STORE; i += 10_000) {
      await s.setMany(Array.from({ length: Math.min(10_000, STORE - i) }, (_, k) => [`k-${i + k}`, { i: i + k, text: "x".repeat(150) }, { ttl: 3600 + ((i + k) % 1000) }]));
    }
  }
  let t = performance.now();
  for (let i = 0; i < 500; i++) await s.get(`k-${(rep * 7919 + i * 104729) % STORE}`);
  const get = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < 500; i++) await s.get(`k-${(rep * 7919 + i * 104729) % STORE}`);
  const get2 = performance.now() - t;
  const keys = Array.from({ length: 1000 }, (_, i) => `k-${(rep * 7907 + i * 104723) % STORE}`);
  t = performance.now();
  await s.getMany(keys);
  const getMany = performance.now() - t;
  s.close();
  return { get, get2, getMany };
});
