#!/usr/bin/env node
// The cost of growth (issue 19): the benchmark's read and reap workloads at 100 000 and at
// 1 000 000 entries, for raw IndexedDB (with an expiry index), Dexie and idb-ttl, in one headless
// Chromium session through the benchmark page (bench/index.html, the same contenders, data set
// and steps as bench/run.mjs: a timed bulk write, 1 000 awaited gets, a getMany of 1 000, then a
// reap of the 1 % that expired and one of the 10 %). One sample per cell: a 1 000 000-entry round
// takes minutes per contender, so this prints the growth, not a spread (bench/run.mjs has the
// spread at 100 000). About 10 minutes on a 2-core machine; not a test.
//
//   node bench/scale.mjs [--sizes 100000,1000000] [--contenders raw,Dexie,idb-ttl]
//
// Needs scripts/build.sh (www/pkg) and the benchmark's contenders (scripts/bench.sh installs
// them in bench/node_modules).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./lib/browser.mjs";
import { startServer } from "./lib/server.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const SIZES = arg("--sizes", "100000,1000000").split(",").map(Number);
const CONTENDERS = arg("--contenders", "raw,Dexie,idb-ttl").split(",");
const t00 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - t00) / 1000).toFixed(0).padStart(4)}s]`, ...a);

const server = await startServer(repo, repo);
const browser = await launch();
const rows = []; // { n, c, bulk, get1000, getMany1000, reap1pct, reap10pct }
try {
  const page = await browser.context.newPage();
  page.setDefaultTimeout(0);
  page.on("pageerror", (e) => console.error("[page error]", e.message));
  await page.goto(server.url + "bench/index.html");
  await page.waitForFunction(() => window.bench?.ready);
  const info = await page.evaluate(() => window.bench.init());
  if (!info.idbTtl.ok) throw new Error(`idb-ttl did not load: ${info.idbTtl.note}`);
  log(`Chromium ${browser.version}; sizes ${SIZES.join(", ")}; contenders ${CONTENDERS.join(", ")}`);
  const call = (fn, ...args) => page.evaluate(([fn, args]) => window.bench[fn](...args), [fn, args]);
  let round = 0;
  for (const n of SIZES) {
    // A rotating order, so that no contender always runs first (or after the heaviest).
    const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length]);
    round++;
    for (const c of order) {
      const name = `scale-${c}-${n}`;
      const row = { n, c };
      try {
        row.bulk = (await call("begin", c, n, name, 20261124 + n)).bulk;
        Object.assign(row, await call("reads"));
        Object.assign(row, await call("reaps"));
      } catch (e) {
        row.error = String(e.message ?? e).split("\n")[0];
      } finally {
        await call("end").catch(() => {});
      }
      rows.push(row);
      log(JSON.stringify(row, (k, v) => (typeof v === "number" ? Math.round(v) : v)));
    }
  }
} finally {
  await browser.close();
  await server.stop?.();
}

// ---------------------------------------------------------------- table
const W = ["bulk", "get1000", "getMany1000", "reap1pct", "reap10pct"];
const label = { bulk: "bulk write (one setMany)", get1000: "1 000 awaited get", getMany1000: "getMany of 1 000",
  reap1pct: "reap the 1 % expired", reap10pct: "reap the 10 % expired" };
const cell = (n, c, w) => rows.find((r) => r.n === n && r.c === c)?.[w];
const ms = (v) => (v == null ? "n/a" : v >= 100 ? Math.round(v).toLocaleString("en-US").replace(/,/g, " ") : v.toFixed(1));
console.log(`\n== Growth: ms (one sample each), ratio to raw IndexedDB, and the ${SIZES[SIZES.length - 1]} / ${SIZES[0]} ratio`);
const [small, big] = [SIZES[0], SIZES[SIZES.length - 1]];
const head = ["workload", ...SIZES.flatMap((n) => CONTENDERS.map((c) => `${c} @${n.toLocaleString("en-US").replace(/,/g, " ")}`)),
  ...CONTENDERS.map((c) => `${c} growth`)];
console.log(`| ${head.join(" | ")} |`);
console.log(`|${head.map(() => "---").join("|")}|`);
for (const w of W) {
  const cells = SIZES.flatMap((n) => CONTENDERS.map((c) => {
    const v = cell(n, c, w), raw = cell(n, "raw", w);
    return c === "raw" || v == null || !raw ? ms(v) : `${ms(v)} (${(v / raw).toFixed(2)}x)`;
  }));
  const growth = CONTENDERS.map((c) => {
    const a = cell(small, c, w), b = cell(big, c, w);
    return a && b && small !== big ? `${(b / a).toFixed(1)}x` : "n/a";
  });
  console.log(`| ${label[w]} | ${cells.join(" | ")} | ${growth.join(" | ")} |`);
}
for (const r of rows.filter((r) => r.error)) console.log(`error: ${r.c} at ${r.n}: ${r.error}`);
console.log(JSON.stringify({ at: new Date().toISOString(), chromium: browser.version, rows }));
if (rows.some((r) => r.error)) process.exitCode = 1;
