#!/usr/bin/env node
// Question: Is one idb-ttl build faster than another at opening a new database and reopening one for its first get?
// A/B of idb-ttl builds on opening: TtlStore.open of a new database (the upgrade that makes its
// stores), and open of an existing one followed by its first get (a page's cold path once the
// module is loaded). One headless Chromium session, builds interleaved, 1 warm-up + 15
// repetitions, medians (min-max) in ms. Not a test and not the benchmark: a tool for changes to
// the open path (issue 19: the database opened by glue.js instead of indexed_db_futures).
//
//   node bench/studies/ab-open.mjs www/pkg other/pkg      (package directories, relative to the repo)
import { ab } from "../lib/ab.mjs";

await ab(process.argv.slice(2), { path: "tests/page/fixtures/blank.html", ready: () => document.documentElement.dataset.state, reps: 15 }, async ([pkg, j, rep]) => {
  const m = await import(`/${pkg}/index.js`);
  await m.default();
  const name = `ab-open-${j}-${rep}`;
  let t = performance.now();
  const s = await m.TtlStore.open(name, { autoReap: false });
  const create = performance.now() - t;
  await s.set("k", { text: "x".repeat(150) }, { ttl: 3600 });
  s.close();
  t = performance.now();
  const again = await m.TtlStore.open(name, { autoReap: false });
  await again.get("k");
  const reopen = performance.now() - t;
  again.close();
  await m.TtlStore.destroy(name);
  return { create, "reopen+get": reopen };
});
