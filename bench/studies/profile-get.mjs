#!/usr/bin/env node
// Question: Which functions do awaited gets and overwrites spend their CPU time in (a CPU profile)?
// Where an awaited idb-ttl call spends its time: a CPU profile (Chrome DevTools protocol) of
// awaited gets and overwrites on a store of 1 000 entries, self time by function, in one headless
// Chromium session. Not a test and not the benchmark: a tool for "where the time goes" in
// docs/contributing/benchmark-notebook.md. Run after scripts/build.sh:  node bench/studies/profile-get.mjs [--calls 2000]
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "../lib/browser.mjs";
import { startServer } from "../lib/server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const CALLS = Number(arg("--calls", 2000));

const server = await startServer(repo, repo);
const browser = await launch();
try {
  const page = await browser.context.newPage();
  await page.goto(server.url + "bench/index.html");
  await page.waitForFunction(() => window.bench?.ready);
  await page.evaluate(async () => {
    const m = await import("../www/pkg/index.js");
    await m.default();
    window.__store = await m.TtlStore.open("profile-get", { autoReap: false });
    await window.__store.clear();
    await window.__store.setMany(Array.from({ length: 1000 }, (_, i) => [`key-${i}`, { i, text: "x".repeat(150) }, { ttl: 86400 }]));
  });
  const cdp = await browser.context.newCDPSession(page);
  for (const what of ["get", "set"]) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
    await cdp.send("Profiler.start");
    const ms = await page.evaluate(async ([what, calls]) => {
      const s = window.__store;
      const t = performance.now();
      for (let i = 0; i < calls; i++) {
        const k = `key-${(i * 7919) % 1000}`;
        if (what === "get") await s.get(k); else await s.set(k, { i }, { ttl: 3600 + i });
      }
      return performance.now() - t;
    }, [what, CALLS]);
    const { profile } = await cdp.send("Profiler.stop");
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas;
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const f = n.callFrame;
      const name = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}`.trim();
      self.set(name, (self.get(name) ?? 0) + (dt[i] ?? 0));
    });
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    console.log(`\n== ${CALLS} awaited ${what}s: ${ms.toFixed(0)} ms (${((ms * 1000) / CALLS).toFixed(0)} us each); profile self time, top 25`);
    for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
      console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
    }
  }
  await page.evaluate(async () => { window.__store.close(); });
} finally {
  await browser.close();
  await server.stop();
}
