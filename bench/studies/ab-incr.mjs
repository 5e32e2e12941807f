#!/usr/bin/env node
// Question: Is one idb-ttl build faster than another on awaited incr, against raw IndexedDB in the same repetition?
// A/B of idb-ttl builds on awaited incr (issue 33): per build and repetition, a store of 1 000
// entries, then 300 awaited raw IndexedDB increments (a get and a put in one readwrite
// transaction, on a database of raw's layout: the same for every build, the repetition's
// yardstick) and 300 awaited incr of one key. One headless Chromium session, builds interleaved,
// 1 warm-up + --reps repetitions (default 20); medians (min-max) in ms (incr/raw in %), and each build's paired
// ratio to the build before it. Not a test and not the benchmark: a tool for per-call changes.
//
//   node bench/studies/ab-incr.mjs [--reps N] www/pkg other/pkg   (package directories, relative to the repo)
import { ab } from "../lib/ab.mjs";

const args = process.argv.slice(2);
const at = args.indexOf("--reps");
const REPS = at >= 0 ? Number(args.splice(at, 2)[1]) : 20;
await ab(args, { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: REPS }, async ([pkg, j, rep]) => {
  const m = await import(`/${pkg}/index.js`);
  await m.default();
  const name = `ab-incr-${j}-${rep}`;
  await m.TtlStore.destroy(name);
  const s = await m.TtlStore.open(name, { autoReap: false });
  await s.setMany(Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, { ttl: 86400 }]));
  // raw IndexedDB's incr: the benchmark's raw contender (a get and a put in one readwrite transaction).
  const { default: raw } = await import("/bench/contenders/raw.js");
  await raw.destroy(`${name}-raw`);
  await raw.open(`${name}-raw`);
  let t = performance.now();
  for (let i = 1; i <= 300; i++) if ((await raw.incr("counter")) !== i) throw new Error("raw incr");
  const rawMs = performance.now() - t;
  t = performance.now();
  for (let i = 1; i <= 300; i++) if ((await s.incr("counter")) !== i) throw new Error("incr");
  const incr = performance.now() - t;
  s.close();
  await m.TtlStore.destroy(name);
  await raw.destroy(`${name}-raw`);
  return { raw: rawMs, incr, "incr/raw %": (100 * incr) / rawMs };
});
