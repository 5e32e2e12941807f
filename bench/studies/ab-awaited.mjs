#!/usr/bin/env node
// Question: Is one idb-ttl build faster than another on awaited single set, overwrite and get?
// A/B of idb-ttl builds on awaited single calls, the path where a per-transaction cost shows
// most: 500 awaited set() of new keys, 500 awaited overwrites with a new expiry, 500 awaited
// get(). One headless Chromium session, builds interleaved, 1 warm-up + 7 repetitions, medians
// (min-max) in ms. Not a test and not the benchmark: a tool for per-call changes (issue 19: each
// step measured against the build before it in one run).
//
//   node bench/studies/ab-awaited.mjs www/pkg other/pkg      (package directories, relative to the repo)
//   node bench/studies/ab-awaited.mjs --store 100000 a/pkg b/pkg   (also 500 awaited gets of random keys
//                                    and a getMany of 1 000 from a store of that many entries,
//                                    written once per build)
import { ab } from "../lib/ab.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--store");
const STORE = at >= 0 ? Number(args.splice(at, 2)[1]) : 0;
await ab(args, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: 7, extra: [STORE] }, async ([pkg, j, rep, STORE]) => {
  const m = await import(`/${pkg}/index.js`);
  await m.default();
  const name = `ab-awaited-${j}-${rep}`;
  const s = await m.TtlStore.open(name, { autoReap: false });
  const value = (i) => ({ i, text: "x".repeat(150) });
  let t = performance.now();
  for (let i = 0; i < 500; i++) await s.set(`key-${i}`, value(i), { ttl: 3600 });
  const set = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < 500; i++) await s.set(`key-${i}`, value(i), { ttl: 7200 });
  const overwrite = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < 500; i++) await s.get(`key-${i}`);
  const get = performance.now() - t;
  s.close();
  await m.TtlStore.destroy(name);
  if (!STORE) return { set, overwrite, get };
  // The big store: written once per build (untimed), kept across repetitions.
  const big = await m.TtlStore.open(`ab-awaited-big-${j}`, { autoReap: false });
  if ((await big.count()) < STORE) {
    for (let i = 0; i < STORE; i += 10_000) {
      await big.setMany(Array.from({ length: Math.min(10_000, STORE - i) }, (_, k) => [`big-${i + k}`, value(i + k), { ttl: 3600 + ((i + k) % 1000) }]));
    }
  }
  t = performance.now();
  for (let i = 0; i < 500; i++) await big.get(`big-${(rep * 7919 + i * 104729) % STORE}`);
  const getBig = performance.now() - t;
  const keys = Array.from({ length: 1000 }, (_, i) => `big-${(rep * 7907 + i * 104723) % STORE}`);
  t = performance.now();
  await big.getMany(keys);
  const getManyBig = performance.now() - t;
  big.close();
  return { set, overwrite, get, [`get@${STORE}`]: getBig, [`getMany@${STORE}`]: getManyBig };
});
