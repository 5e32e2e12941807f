#!/usr/bin/env node
// Question: Is one idb-ttl build faster than another at reaping 10 000 expired entries of 100 000?
// A/B of idb-ttl builds on reaping: a store of 100 000 entries of which 10 000 have expired, and
// one reap() that removes them (the benchmark's "reap 10 %" without its page clock: the 10 000
// are written last with a 2 s ttl and the reap waits until they have expired). One headless
// Chromium session, builds interleaved, 1 warm-up + 5 repetitions, medians (min-max) in ms; each
// repetition writes its store afresh (untimed). Not a test and not the benchmark: a tool for
// changes that might reach the reaper's path (issue 19).
//
//   node bench/studies/ab-reap.mjs www/pkg other/pkg      (package directories, relative to the repo)
import { ab } from "../lib/ab.mjs";

await ab(process.argv.slice(2), { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: 5 }, async ([pkg, j, rep]) => {
  const m = await import(`/${pkg}/index.js`);
  await m.default();
  const name = `ab-reap-${j}-${rep}`;
  const s = await m.TtlStore.open(name, { autoReap: false, maxRemovesPerRun: 1e9 });
  const value = (i) => ({ i, text: "x".repeat(150) });
  for (let i = 0; i < 90_000; i += 10_000) {
    await s.setMany(Array.from({ length: 10_000 }, (_, k) => [`live-${i + k}`, value(i + k), { ttl: 3600 + ((i + k) % 1000) }]));
  }
  const written = Date.now();
  await s.setMany(Array.from({ length: 10_000 }, (_, k) => [`gone-${k}`, value(k), { ttl: 2 }]));
  await new Promise((r) => setTimeout(r, Math.max(0, written + 3_100 - Date.now())));
  const t = performance.now();
  const report = await s.reap();
  const reap = performance.now() - t;
  if (report.removed !== 10_000) throw new Error(`reap removed ${report.removed}, expected 10000`);
  s.close();
  await m.TtlStore.destroy(name);
  return { "reap 10 000 of 100 000": reap };
});
