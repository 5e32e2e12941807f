#!/usr/bin/env node
// Question: Is one idb-ttl build faster than another on setMany of 1 000 keys (fresh, unseen, seen)?
// A/B of idb-ttl builds on setMany of 1 000 keys, three ways: new keys into a fresh database
// ("fresh"), the same keys again with new expiries from a new connection that never saw them
// ("unseen", a page refreshing its cache after a reload), and once more from that connection
// ("seen", by the expiry hints). One headless Chromium session, builds interleaved, 1 warm-up +
// 7 repetitions, medians (min-max). Not a test and not the benchmark: a tool for write-path
// changes (docs/contributing/benchmark-notebook.md, "Where the time and bytes go").
//
//   node bench/studies/ab-writes.mjs www/pkg other/pkg      (package directories, relative to the repo)
import { ab } from "../lib/ab.mjs";

await ab(process.argv.slice(2), { path: "bench/index.html", ready: () => window.bench?.ready, reps: 7 }, async ([pkg, j, rep]) => {
  const m = await import(`../${pkg}/index.js`);
  await m.default();
  const name = `ab-${j}-${rep}`;
  const rows = (ttl) => Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, { ttl }]);
  let s = await m.TtlStore.open(name, { autoReap: false });
  let t = performance.now(); await s.setMany(rows(3600)); const fresh = performance.now() - t;
  s.close();
  s = await m.TtlStore.open(name, { autoReap: false });
  t = performance.now(); await s.setMany(rows(7200)); const unseen = performance.now() - t;
  t = performance.now(); await s.setMany(rows(9000)); const seen = performance.now() - t;
  s.close();
  await m.TtlStore.destroy(name);
  return { fresh, unseen, seen };
});
