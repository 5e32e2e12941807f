#!/usr/bin/env node
// A/B of idb-ttl builds on opening: TtlStore.open of a new database (the upgrade that makes its
// stores), and open of an existing one followed by its first get (a page's cold path once the
// module is loaded). One headless Chromium session, builds interleaved, 1 warm-up + 15
// repetitions, medians (min-max) in ms. Not a test and not the benchmark: a tool for changes to
// the open path (issue 19: the database opened by glue.js instead of indexed_db_futures).
//
//   node bench/ab-open.mjs www/pkg other/pkg      (package directories, relative to the repo)
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./lib/browser.mjs";
import { startServer } from "./lib/server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const pkgs = process.argv.slice(2);
const server = await startServer(repo, repo);
const browser = await launch();
const res = {};
try {
  const page = await browser.context.newPage();
  await page.goto(server.url + "tests/page/fixtures/blank.html");
  await page.waitForFunction(() => document.documentElement.dataset.state);
  for (let rep = 0; rep < 16; rep++) {
    for (const [j, pkg] of pkgs.entries()) {
      const r = await page.evaluate(async ([pkg, j, rep]) => {
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
      }, [pkg, j, rep]);
      if (rep === 0) continue;
      for (const [k, v] of Object.entries(r)) ((res[pkg] ??= {})[k] ??= []).push(v);
    }
  }
} finally { await browser.close(); await server.stop(); }
const med = (a) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
for (const [pkg, r] of Object.entries(res)) console.log(pkg, Object.entries(r).map(([k, v]) => `${k}=${med(v).toFixed(1)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`).join(" "));
