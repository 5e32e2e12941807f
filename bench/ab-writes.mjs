#!/usr/bin/env node
// A/B of idb-ttl builds on setMany of 1 000 keys, three ways: new keys into a fresh database
// ("fresh"), the same keys again with new expiries from a new connection that never saw them
// ("unseen", a page refreshing its cache after a reload), and once more from that connection
// ("seen", by the expiry hints). One headless Chromium session, builds interleaved, 1 warm-up +
// 7 repetitions, medians (min-max). Not a test and not the benchmark: a tool for write-path
// changes (docs/benchmarks.md, "Where the time and bytes go").
//
//   node bench/ab-writes.mjs www/pkg other/pkg      (package directories, relative to the repo)
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./lib/browser.mjs";
import { startServer } from "./lib/server.mjs";
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const pkgs = process.argv.slice(2); // paths relative to repo root, e.g. www/pkg ab-old/pkg
const server = await startServer(repo, repo);
const browser = await launch();
const res = {};
try {
  const page = await browser.context.newPage();
  await page.goto(server.url + "bench/index.html");
  await page.waitForFunction(() => window.bench?.ready);
  for (let rep = 0; rep < 8; rep++) {
    for (const [j, pkg] of pkgs.entries()) {
      const r = await page.evaluate(async ([pkg, j, rep]) => {
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
      }, [pkg, j, rep]);
      if (rep === 0) continue;
      for (const [k, v] of Object.entries(r)) ((res[pkg] ??= {})[k] ??= []).push(v);
    }
  }
} finally { await browser.close(); await server.stop(); }
const med = (a) => { const b = [...a].sort((x, y) => x - y); return b[b.length >> 1]; };
for (const [pkg, r] of Object.entries(res)) console.log(pkg, Object.entries(r).map(([k, v]) => `${k}=${med(v).toFixed(1)} (${Math.min(...v).toFixed(0)}-${Math.max(...v).toFixed(0)})`).join(" "));
