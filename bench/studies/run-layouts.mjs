#!/usr/bin/env node
// Question: Which storage layout should idb-ttl use: [e, k] keys with a unique k index, or k keys with an e index?
// Storage-layout benchmark driver: one headless Chromium session, persistent profile in a temp dir.
// Usage: node bench/studies/run-layouts.mjs [--reps N] [--reps-big N] [--json out.json]
// Layouts interleaved (A,B then B,A on alternate repetitions), fresh DB per repetition,
// repetition 0 of every case is a warm-up and is discarded.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFileSync, mkdirSync } from "node:fs";
import { loadavg } from "node:os";
import { launch } from "../lib/browser.mjs";
import { startServer } from "../lib/server.mjs";
import { summary, fmt, table } from "../lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const REPS = Number(arg("--reps", 7));         // measured reps for 1 000 / 10 000 cases
const REPS_BIG = Number(arg("--reps-big", 4)); // measured reps for 100 000 cases
const WARMUP_BIG = Number(arg("--warmup-big", 1)); // warm-up rep for the 100 000 main sequence (0|1)
const WARMUP_REAP_BIG = Number(arg("--warmup-reap-big", 0)); // same for reap 1% of 100 000 (0|1)
const JSON_OUT = arg("--json", null);
const started = Date.now();
const log = (...a) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s]`, ...a);

const server = await startServer(resolve(here, ".."), repo); // bench/: the page and the data helpers it imports
const browser = await launch();
const loadStart = loadavg()[0];
log(`Chromium ${browser.version}, server ${server.kind} ${server.url}, load average ${loadStart.toFixed(1)}`);
const page = await browser.context.newPage();
page.on("console", (m) => { if (m.type() === "error") console.error("[page]", m.text()); });
page.on("pageerror", (e) => console.error("[page error]", e));
await page.goto(server.url + "studies/layouts.html");
await page.waitForFunction(() => window.layoutBench?.ready);

const samples = {}; // samples[case][layout] = [ms...]
const add = (c, l, ms) => (((samples[c] ??= {})[l] ??= []).push(ms));
// Interleaved, rotating order. A2 shares A's schema and reap code, so reap-only cases skip it.
const ORDERS = [["A", "A2", "B"], ["B", "A", "A2"], ["A2", "B", "A"]];
const order = (rep, withA2 = true) => ORDERS[(rep + 3) % 3].filter((l) => withA2 || l !== "A2");

async function mainCase(n, reps, warm = 1) {
  for (let rep = 1 - warm; rep <= reps; rep++) {
    for (const layout of order(rep)) {
      const r = await page.evaluate(([l, n, name, seed]) => window.layoutBench.mainSequence(l, n, name, seed),
        [layout, n, `layout-${layout}-${n}-${rep}`, 1000 + rep]);
      log(`n=${n} rep ${rep}${rep === 0 ? " (warm-up)" : ""} ${layout}:`,
        Object.entries(r).map(([k, v]) => `${k}=${fmt(v)}`).join(" "));
      if (rep === 0) continue;
      for (const [k, v] of Object.entries(r)) add(`${k}@${n}`, layout, v);
    }
  }
}
async function reapCase(n, frac, reps, warm = 1) {
  for (let rep = 1 - warm; rep <= reps; rep++) {
    for (const layout of order(rep, false)) {
      const r = await page.evaluate(([l, n, f, name, seed]) => window.layoutBench.reapOnly(l, n, f, name, seed),
        [layout, n, frac, `reap-${layout}-${n}-${rep}`, 2000 + rep]);
      log(`reap ${frac * 100}% of ${n} rep ${rep}${rep === 0 ? " (warm-up)" : ""} ${layout}: ${fmt(r.reap)} ms (${r.removed} removed)`);
      if (rep > 0) add(`reapOnly ${frac * 100}%@${n}`, layout, r.reap);
    }
  }
}

try {
  await mainCase(1000, REPS);
  await reapCase(10_000, 0.1, REPS);
  await mainCase(100_000, REPS_BIG, WARMUP_BIG);
  await reapCase(100_000, 0.01, REPS_BIG, WARMUP_REAP_BIG);
} finally {
  await page.close().catch(() => {});
  await browser.close();
  await server.stop();
}

const LABEL = {
  bulkSet: "bulk set n (one tx)", set1000: "1 000 awaited single sets (overwrite, new expiry)",
  get1000: "1 000 awaited single gets", getMany1000: "getMany 1 000 (one tx)", count: "count live",
  set1000new: "1 000 awaited single sets (new keys)", reap10pct: "reap 10% expired", "reapOnly 10%": "reap 10% expired (reap-only DB)",
  "reapOnly 1%": "reap 1% expired (reap-only DB)",
};
const rows = [];
const result = { chromium: browser.version, date: new Date().toISOString(), reps: REPS, repsBig: REPS_BIG, warmupBig: WARMUP_BIG, warmupReapBig: WARMUP_REAP_BIG, cases: {} };
for (const [c, byL] of Object.entries(samples)) {
  const [w, n] = c.split("@");
  const a = summary(byL.A), b = summary(byL.B), a2 = byL.A2 ? summary(byL.A2) : null;
  result.cases[c] = { A: a, A2: a2, B: b, ratioAB: a.median / b.median, ratioA2B: a2 ? a2.median / b.median : null };
  const cell = (s) => (s ? `${fmt(s.median)} (${fmt(s.min)}-${fmt(s.max)})` : "= A");
  rows.push([`${LABEL[w] ?? w} @ ${Number(n).toLocaleString("en")}`, cell(a), cell(a2), cell(b),
    (a.median / b.median).toFixed(2), a2 ? (a2.median / b.median).toFixed(2) : "", a.n]);
}
const md = table(["workload @ entries", "A ms", "A2 ms", "B ms", "A/B", "A2/B", "reps"], rows);
console.log("\n" + md + "\n");
const elapsed = (Date.now() - started) / 1000;
const loadEnd = loadavg()[0];
console.log(`Chromium ${browser.version}; medians (min-max) in ms; elapsed ${elapsed.toFixed(0)} s; ` +
  `1-min load average ${loadStart.toFixed(1)} at start, ${loadEnd.toFixed(1)} at end (2 cores)`);
result.loadAverage = { start: loadStart, end: loadEnd };
result.elapsedS = elapsed;
result.table = md;
if (JSON_OUT) { mkdirSync(dirname(resolve(JSON_OUT)), { recursive: true }); writeFileSync(JSON_OUT, JSON.stringify(result, null, 2)); }
