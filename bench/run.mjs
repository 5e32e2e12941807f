#!/usr/bin/env node
// The speed benchmark: idb-ttl against raw IndexedDB, idb-keyval, localForage and Dexie in one
// headless Chromium session (persistent profile in a temp dir), contenders interleaved in a
// rotating order, a fresh database per run, warm-ups discarded, medians and spread. Prints the
// tables, writes bench/results/latest.json and latest.svg (or, with --name, <name>.json alone:
// scripts/bench.sh names its runs by date and backend, and bench/report.mjs draws the charts).
//
//   node bench/run.mjs [--reps N] [--reps-big N] [--budget-s S] [--out DIR] [--name NAME]
//   node bench/run.mjs --only incr [--sizes 1000,100000] [--reps N]
//     only the "1 000 awaited incr" row (issue 33), in stores of those sizes (default 1000),
//     each populated untimed; writes incr-latest.json instead of latest.json + latest.svg.
//
// Time budget (--budget-s, from BENCH_START_MS; default 14 minutes, which scripts/bench.sh raises
// to 25 so that a loaded machine still gets three 100 000-entry rounds).
// The 1 000-entry and reap-only cases always run (warm-up + --reps). The 100 000-entry rounds
// (main sequence + cold start + time series) run at least once and repeat up to --reps-big while
// the previous round's duration still fits in the remaining budget. localForage's 100 000-entry
// bulk write (tens of seconds each) is measured once at the end if the budget allows; otherwise
// its 100 000-entry store is populated directly (same records its setItem writes) and that cell
// says so.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { loadavg } from "node:os";
import { launch } from "./lib/browser.mjs";
import { startServer } from "./lib/server.mjs";
import { summary, fmt, table } from "./lib/stats.mjs";
import { renderSvg } from "./lib/chart.mjs";
import { packageSize } from "../scripts/size.mjs";
import { runMeta, load } from "./lib/meta.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const REPS = Number(arg("--reps", 5));
const REPS_BIG = Number(arg("--reps-big", 3));
const START = Number(process.env.BENCH_START_MS || Date.now()); // bench.sh passes its own start
const BUDGET_MS = Number(arg("--budget-s", 14 * 60)) * 1000;    // from START; 1 min margin to 15
const SKIP_TTL = arg("--skip-idb-ttl", null); // reason, e.g. the build failed
const LF_BULK_100K = arg("--lf-bulk-100k", "auto"); // auto | off
const OUT = resolve(arg("--out", join(here, "results")));
const ONLY = arg("--only", null);
const NAME = arg("--name", null);
const META = runMeta();
if (ONLY !== null && ONLY !== "incr") throw new Error(`--only ${ONLY}: the one row that runs alone is "incr"`);
const SIZES = String(arg("--sizes", "1000")).split(",").map(Number);
const deadline = START + BUDGET_MS;
const left = () => deadline - Date.now();
const t00 = Date.now();
const log = (...a) => console.log(`[${((Date.now() - START) / 1000).toFixed(0).padStart(4)}s]`, ...a);

// ---------------------------------------------------------------- sizes
function fileSizes(files) {
  let raw = 0, gz = 0;
  const per = [];
  for (const f of files) {
    const b = readFileSync(f);
    const g = gzipSync(b, { level: 9 }).length;
    raw += b.length; gz += g;
    per.push({ file: f.replace(repo + "/", ""), raw: b.length, gzip: g });
  }
  return { raw, gzip: gz, files: per };
}
const pkgDir = process.env.BENCH_PKG ? resolve(process.env.BENCH_PKG) : join(repo, "www", "pkg");
const sizes = {};
if (existsSync(join(pkgDir, "index.js")) && !SKIP_TTL) {
  // The same measure as the build's size budget (scripts/size.mjs): every module a page loads.
  const { parts, total } = packageSize(pkgDir);
  sizes["idb-ttl"] = { parts, total };
}
const nm = join(here, "node_modules");
for (const [name, f] of [["Dexie", "dexie/dist/dexie.min.js"], ["localForage", "localforage/dist/localforage.min.js"],
  ["idb-keyval", "idb-keyval/dist/index.js"]]) {
  if (existsSync(join(nm, f))) sizes[name] = { total: fileSizes([join(nm, f)]) };
}
const kB = (b) => (b / 1000).toFixed(1) + " kB";
console.log("\n== Sizes (gzip -9)");
if (sizes["idb-ttl"]) {
  const s = sizes["idb-ttl"];
  for (const p of s.parts) console.log(`idb-ttl ${p.part}: ${p.raw} B raw / ${p.gzip} B gzip`);
  console.log(`idb-ttl package (www/pkg): total ${kB(s.total.raw)} raw / ${kB(s.total.gzip)} gzip (target <= 100 kB gzip)`);
} else console.log(SKIP_TTL ? `idb-ttl: skipped (${SKIP_TTL}): no size` : "idb-ttl: www/pkg/index.js absent (run scripts/build.sh): no size");
for (const n of ["Dexie", "localForage", "idb-keyval"]) if (sizes[n]) console.log(`${n}: ${kB(sizes[n].total.raw)} raw / ${kB(sizes[n].total.gzip)} gzip (${sizes[n].total.files[0].file.replace(/^bench\/node_modules\//, "")})`);

// ---------------------------------------------------------------- browser
const server = await startServer(repo, repo);
const browser = await launch();
const loadStart = loadavg()[0];
log(`Chromium ${browser.version}; server ${server.kind}; load average ${loadStart.toFixed(1)}; budget ${(left() / 1000).toFixed(0)} s left`);
// Ctrl-C / SIGTERM: close the browser and the server we started, then exit.
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.once(sig, async () => {
    console.error(`\n${sig}: stopping the browser and the server`);
    await Promise.race([Promise.allSettled([browser.close(), server.stop()]), new Promise((r) => setTimeout(r, 5000))]);
    process.exit(130);
  });
}
const page = await browser.context.newPage();
page.on("pageerror", (e) => console.error("[page error]", e.message));
page.on("console", (m) => { if (m.type() === "error" && !/Failed to load resource/.test(m.text())) console.error("[page]", m.text()); });
const URL_ = server.url + "bench/index.html";
async function fresh() {
  await page.goto(URL_);
  await page.waitForFunction(() => window.bench?.ready);
}
await fresh();
const info = await page.evaluate(() => window.bench.init());
const notes = [];
let contenders = ["raw", "idb-keyval", "localForage", "Dexie", "idb-ttl"];
if (SKIP_TTL) { info.idbTtl = { ok: false, note: `idb-ttl skipped: ${SKIP_TTL}` }; info.tsIdbTtl = false; }
if (!info.idbTtl.ok) { notes.push(info.idbTtl.note); contenders = contenders.filter((c) => c !== "idb-ttl"); log(info.idbTtl.note); }
if (info.idbTtl.ok && !info.tsIdbTtl) notes.push("idb-ttl time series skipped: TtlStore#timeSeries is not in this build");
const TS_CONTENDERS = ["raw", "Dexie", "idb-ttl"].filter((c) => contenders.includes(c) && (c !== "idb-ttl" || info.tsIdbTtl));
const call = (fn, ...args) => page.evaluate(([fn, args]) => window.bench[fn](...args), [fn, args]);
const rotate = (list, r) => list.map((_, i) => list[(i + r) % list.length]);

const samples = {}; // samples[workload][contender] = [ms]
const byRep = {};  // byRep[workload][rep][contender] = ms, for paired ratios
const add = (w, c, ms, rep) => {
  if (ms == null) return;
  ((samples[w] ??= {})[c] ??= []).push(ms);
  if (rep != null) ((byRep[w] ??= {})[rep] ??= {})[c] = ms;
};
const populatedNote = new Set();

const failures = [];
/** Runs one contender's step sequence; a failure is logged, noted and skipped, not fatal. */
async function guarded(what, c, fn) {
  try { return await fn(); } catch (e) {
    const msg = `${c}: ${what} failed: ${String(e?.message ?? e).split("\n")[0]}`;
    log("ERROR " + msg);
    failures.push(msg);
    try { await fresh(); } catch { /* next step reloads anyway */ }
    return null;
  }
}

async function mainRun(c, n, rep, opts) {
  return guarded(`n=${n} rep ${rep}`, c, () => mainRun_(c, n, rep, opts));
}
async function mainRun_(c, n, rep, { populate = false, cold = false, keep = true }) {
  const name = `bench-${c}-${n}-${rep}`;
  const out = {};
  const seed = 100 + rep;
  const b = await call("begin", c, n, name, seed, populate);
  out[`bulk@${n}`] = b.bulk;
  Object.entries(await call("reads")).forEach(([k, v]) => (out[`${k}@${n}`] = v));
  Object.entries(await call("split")).forEach(([k, v]) => (out[`${k}@${n}`] = v));
  Object.entries(await call("writes")).forEach(([k, v]) => (out[`${k}@${n}`] = v));
  Object.entries(await call("incrs")).forEach(([k, v]) => (out[`${k}@${n}`] = v));
  if (cold) {
    await call("closeCurrent");
    await fresh();
    await new Promise((r) => setTimeout(r, 2500)); // Chromium closes an unused backing store after ~2 s
    const r = await call("cold", c, n, name, seed, b.t0);
    out[`cold@${n}`] = r.cold;
    if (r.coldInit != null) out[`coldInit@${n}`] = r.coldInit;
  }
  const rp = await call("reaps");
  out[`reap1pct@${n}`] = rp.reap1pct;
  out[`reap10pct@${n}`] = rp.reap10pct;
  await call("end");
  log(`${c} n=${n} rep ${rep}${keep ? "" : " (warm-up)"}: ` + Object.entries(out).filter(([, v]) => v != null)
    .map(([k, v]) => `${k.split("@")[0]}=${fmt(v)}`).join(" "));
  if (keep) for (const [k, v] of Object.entries(out)) add(k, c, v, rep);
  if (populate && out[`bulk@${n}`] == null) populatedNote.add(`${c}@${n}`);
}

const reps = { small: REPS, big: 0, ts: 0, lfBulk100k: 0 };
let lfBulkLowerBound = null;
/** `--only incr`: a store of n entries populated untimed, then the incr step, warm-up + REPS. */
async function incrRun(c, n, rep) {
  return guarded(`incr n=${n} rep ${rep}`, c, async () => {
    await call("begin", c, n, `bench-incr-${c}-${n}-${rep}`, 500 + rep, true);
    const out = await call("incrs");
    await call("end");
    log(`${c} n=${n} rep ${rep}${rep ? "" : " (warm-up)"}: ` + Object.entries(out).map(([k, v]) => `${k}=${fmt(v)}`).join(" "));
    if (rep > 0) for (const [k, v] of Object.entries(out)) add(`${k}@${n}`, c, v, rep);
  });
}

try {
  if (ONLY === "incr") {
    for (const n of SIZES) for (let rep = 0; rep <= REPS; rep++) for (const c of rotate(contenders, rep)) await incrRun(c, n, rep);
    reps.big = 0;
    throw "only";
  }
  // ---- 1 000 entries: warm-up + REPS
  for (let rep = 0; rep <= REPS; rep++) {
    for (const c of rotate(contenders, rep)) await mainRun(c, 1000, rep, { keep: rep > 0 });
  }
  // ---- reap 10% of 10 000 (reap-only DB): warm-up + REPS
  for (let rep = 0; rep <= REPS; rep++) {
    for (const c of rotate(contenders, rep)) {
      const r = await guarded(`reap-only 10% of 10000 rep ${rep}`, c, () => call("reapOnly", c, 10_000, `bench-reap-${c}-${rep}`, 300 + rep));
      if (!r) continue;
      log(`${c} reap 10% of 10000 rep ${rep}${rep ? "" : " (warm-up)"}: ${fmt(r.reap)} ms`);
      if (rep > 0) add("reap10pct@10000", c, r.reap);
    }
  }
  // ---- 100 000 entries (+ cold start) and time series, rounds while the budget allows
  let lastRound = 0;
  for (let rep = 1; rep <= REPS_BIG; rep++) {
    if (rep > 1 && left() < lastRound * 1.15) { log(`budget: stopping 100 000-entry rounds after ${rep - 1}`); break; }
    const t = Date.now();
    for (const c of rotate(contenders, rep)) {
      await mainRun(c, 100_000, rep, { populate: c === "localForage", cold: true });
    }
    reps.big = rep;
    for (const c of rotate(TS_CONTENDERS, rep)) {
      const r = await guarded(`time series rep ${rep}`, c, () => call("timeSeries", c, 100_000, 1000, `bench-ts-${c}-${rep}`));
      if (!r) continue;
      if (r.skipped) { log(`time series: ${r.skipped}`); if (!notes.includes(r.skipped)) notes.push(r.skipped); continue; }
      log(`${c} time series 100000 rep ${rep}: append=${fmt(r.tsAppend)} expire=${fmt(r.tsExpire)} (removed ${r.removed})`);
      add("tsAppend@100000", c, r.tsAppend);
      add("tsExpire@100000", c, r.tsExpire);
    }
    reps.ts = rep;
    lastRound = Date.now() - t;
    log(`100 000-entry round ${rep} took ${(lastRound / 1000).toFixed(0)} s; ${(left() / 1000).toFixed(0)} s of budget left`);
  }
  // ---- localForage bulk write of 100 000 (concurrent setItem), once, if it fits
  const lf1k = samples["bulk@1000"]?.localForage;
  if (lf1k && contenders.includes("localForage") && LF_BULK_100K !== "off") {
    const est = (lf1k.reduce((a, b) => a + b, 0) / lf1k.length) * 100 * 1.5 + 15_000;
    if (left() > Math.min(est, 60_000) + 20_000) {
      const name = "bench-lf-bulk-100k";
      // Hard limit: what is left of the budget minus a reporting margin. On timeout the page is
      // reloaded (abandoning the writes) and the cell reports a lower bound.
      const limit = left() - 20_000;
      const t = Date.now();
      const b = await guarded("bulk write of 100 000", "localForage", () => {
        let timer;
        const work = call("begin", "localForage", 100_000, name, 999, false).then(async (r) => { await call("end"); return r; });
        work.catch(() => {}); // after a timeout the page reload makes it reject: expected
        const stop = new Promise((_, ko) => { timer = setTimeout(() => ko(new Error("timeout")), limit); });
        return Promise.race([work, stop]).finally(() => clearTimeout(timer));
      });
      if (b) add("bulk@100000", "localForage", b.bulk);
      else {
        failures.pop();
        lfBulkLowerBound = Date.now() - t;
        notes.push(`localForage bulk write of 100 000 stopped after ${(lfBulkLowerBound / 1000).toFixed(0)} s (budget): it takes longer than that`);
        log(notes[notes.length - 1]);
      }
      if (b) {
        reps.lfBulk100k = 1;
        populatedNote.delete("localForage@100000");
        log(`localForage bulk write of 100 000 (1 run): ${fmt(b.bulk)} ms`);
      }
    } else {
      log(`budget: localForage 100 000-entry bulk write skipped (estimated ${(est / 1000).toFixed(0)} s, ${(left() / 1000).toFixed(0)} s left)`);
    }
  }
} catch (e) {
  if (e === "only") log(`--only ${ONLY}: done`); else {
  log("ERROR (benchmark stopped early, reporting what was measured): " + (e?.stack ?? e));
  failures.push("stopped early: " + String(e?.message ?? e).split("\n")[0]);
  }
} finally {
  await page.close().catch(() => {});
  await browser.close();
  await server.stop();
}
const loadEnd = loadavg()[0];

// ---------------------------------------------------------------- report
const WORKLOADS = [
  ["bulk@1000", "bulk write 1 000 (one tx / setMany / bulkPut)"],
  ["bulk@100000", "bulk write 100 000"],
  ["setNew1000@1000", "1 000 awaited single writes, new keys (store 1 000)"],
  ["setNew1000@100000", "1 000 awaited single writes, new keys (store 100 000)"],
  ["setOverwrite1000@1000", "1 000 awaited single writes, overwrite + new expiry (1 000)"],
  ["setOverwrite1000@100000", "1 000 awaited single writes, overwrite + new expiry (100 000)"],
  ["incr1000@1000", "1 000 awaited incr of one key (store 1 000)"],
  ["incr1000@100000", "1 000 awaited incr of one key (store 100 000)"],
  ["get1000@1000", "1 000 awaited random gets (store 1 000)"],
  ["get1000@100000", "1 000 awaited random gets (store 100 000)"],
  ["getMany1000@1000", "getMany of 1 000 random keys (store 1 000)"],
  ["getMany1000@100000", "getMany of 1 000 random keys (store 100 000)"],
  ["reap10pct@10000", "reap 10% of 10 000 (1 000 removed)"],
  ["reap1pct@100000", "reap 1% of 100 000 (1 000 removed)"],
  ["reap10pct@100000", "reap 10% of ~100 000 (10 000 removed, after the 1% pass)"],
  ["reap1pct@1000", "reap 1% of 1 000 (10 removed)"],
  ["reap10pct@1000", "reap 10% of 1 000 (100 removed)"],
  ["tsAppend@100000", "time series: append 100 000 events (batches of 1 000)"],
  ["tsExpire@100000", "time series: expire + remove the oldest half"],
  ["cold@100000", "cold start: open + first get, store of ~100 000"],
  ["splitOneTx@1000", "split 1: raw, one tx, 1 000 gets by primary key (store 1 000)"],
  ["splitTxPk@1000", "split 2: raw, tx per get, by primary key (store 1 000)"],
  ["splitTxIndex@1000", "split 3: raw, tx per get, through by_key (store 1 000)"],
  ["splitIdbTtl@1000", "split 4: idb-ttl get, same keys (store 1 000)"],
  ["splitIdleGet@1000", "split 5: idb-ttl get of idle entries, each read extending its entry (store 1 000)"],
  ["splitEncSetMany@1000", "split 6: encrypted store, setMany of the 1 000 keys (its own database)"],
  ["splitEncGet@1000", "split 7: encrypted store, the same 1 000 awaited gets"],
  ["splitOneTx@100000", "split 1: raw, one tx, 1 000 gets by primary key (100 000)"],
  ["splitTxPk@100000", "split 2: raw, tx per get, by primary key (100 000)"],
  ["splitTxIndex@100000", "split 3: raw, tx per get, through by_key (100 000)"],
  ["splitIdbTtl@100000", "split 4: idb-ttl get, same keys (100 000)"],
  ["splitIdleGet@100000", "split 5: idb-ttl get of idle entries, each read extending its entry (100 000)"],
  ["splitEncSetMany@100000", "split 6: encrypted store, setMany of the 1 000 keys (its own database)"],
  ["splitEncGet@100000", "split 7: encrypted store, the same 1 000 awaited gets"],
  ["splitIncrRawIndex@1000", "split incr 1: raw on idb-ttl's database, tx per incr: by_key get + put (store 1 000)"],
  ["splitIncrRawProbe@1000", "split incr 2: the same with the watchdog's probe (a count) first (store 1 000)"],
  ["splitIncrUpdate@1000", "split incr 3: idb-ttl update(key, n => (n ?? 0) + 1) (store 1 000)"],
  ["splitIncrRawIndex@100000", "split incr 1: raw on idb-ttl's database, tx per incr: by_key get + put (100 000)"],
  ["splitIncrRawProbe@100000", "split incr 2: the same with the watchdog's probe (a count) first (100 000)"],
  ["splitIncrUpdate@100000", "split incr 3: idb-ttl update(key, n => (n ?? 0) + 1) (100 000)"],
  ["coldInit@100000", "cold start: idb-ttl wasm fetch + compile + init (extra)"],
];
const cols = contenders;
const result = {
  chromium: browser.version, ...META, backend: process.env.IDB_BACKEND || "leveldb", loadAtEnd: load(),
  loadAverage: { start: loadStart, end: loadEnd }, reps, contenders: cols, notes, sizes, workloads: {},
};
const msRows = [], ratioRows = [];
for (const [w, label] of WORKLOADS) {
  const byC = samples[w];
  if (!byC) continue;
  const base = byC.raw ? summary(byC.raw).median : null;
  const entry = (result.workloads[w] = { label, contenders: {} });
  const msRow = [label], rRow = [label];
  for (const c of cols) {
    if (!byC[c]) {
      const lf = c === "localForage" && w === "bulk@100000" && lfBulkLowerBound;
      const why = lf ? `> ${fmt(lfBulkLowerBound)} (stopped)` :
        populatedNote.has(`${c}@${w.split("@")[1]}`) && w.startsWith("bulk") ? "not timed*" : "-";
      msRow.push(why); rRow.push(why); continue;
    }
    const s = summary(byC[c]);
    const ratio = base ? s.median / base : null;
    entry.contenders[c] = { ...s, ratioToRaw: ratio };
    msRow.push(`${fmt(s.median)} (${fmt(s.min)}-${fmt(s.max)})${s.n === 1 ? " 1 run" : ""}`);
    rRow.push(ratio == null ? "" : ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2));
  }
  msRows.push(msRow); ratioRows.push(rRow);
}
// The split rows are idb-ttl's alone: a table of their own, with the differences.
const isSplit = (row) => row[0].startsWith("split");
const splitRows = msRows.filter(isSplit).map((row) => [row[0], row[cols.indexOf("idb-ttl") + 1]]);
for (let i = msRows.length - 1; i >= 0; i--) if (isSplit(msRows[i])) { msRows.splice(i, 1); ratioRows.splice(i, 1); }
const splitLines = [];
for (const n of [1000, 100000]) {
  const m = (w) => result.workloads[`${w}@${n}`]?.contenders["idb-ttl"]?.median;
  const [one, pk, ix, ttl, idle] = ["splitOneTx", "splitTxPk", "splitTxIndex", "splitIdbTtl", "splitIdleGet"].map(m);
  if ([one, pk, ix, ttl].some((x) => x == null)) continue;
  const per = (x) => `${fmt(x)} us`; // ms for 1 000 gets = us per get
  splitLines.push(`store ${n}: per get, request round trip ${per(one)}; + transaction ${per(pk - one)}; ` +
    `index step (unhinted get) ${per(ix - pk)}; idb-ttl over raw by primary key (wasm boundary, conversion, promises) ${per(ttl - pk)} ` +
    `(idb-ttl / raw by primary key ${(ttl / pk).toFixed(2)}x)` +
    (idle == null ? "" : `; a get of an idle entry that extends it ${per(idle - ttl)} more (${(idle / ttl).toFixed(2)}x a plain get)`) +
    (m("splitEncGet") == null ? "" : `; an encrypted get ${per(m("splitEncGet") - ttl)} more (${(m("splitEncGet") / ttl).toFixed(2)}x)`));
}
for (const n of [1000, 100000]) {
  const m = (w, c = "idb-ttl") => result.workloads[`${w}@${n}`]?.contenders[c]?.median;
  const [raw, idx, probe, ttl, upd] = [m("incr1000", "raw"), m("splitIncrRawIndex"), m("splitIncrRawProbe"), m("incr1000"), m("splitIncrUpdate")];
  if ([raw, idx, probe, ttl].some((x) => x == null)) continue;
  const x = (v) => `${fmt(v)} us (${(v / raw).toFixed(2)}x raw)`; // ms for 1 000 increments = us per increment
  // Ratios of medians taken apart: under load a step can come out below the one before it.
  splitLines.push(`store ${n}: per incr, raw IndexedDB (get + put by primary key) ${fmt(raw)} us; on idb-ttl's database, ` +
    `by_key get + put ${x(idx)}; + the watchdog's probe ${x(probe)}; idb-ttl incr ${x(ttl)}` +
    (upd == null ? "" : `; idb-ttl update(key, n => (n ?? 0) + 1) ${x(upd)}`));
}
result.split = { rows: splitRows, lines: splitLines };
const msTable = table(["workload", ...cols], msRows);
const ratioTable = table(["ratio to raw IndexedDB (median/median)", ...cols], ratioRows);
console.log("\n== Median ms (min-max)\n" + msTable);
console.log("\n== Ratio to raw IndexedDB with an expiry index (lower is faster)\n" + ratioTable);
// incr (issue 33): also each contender's median over repetitions of (its time / raw's in the same
// repetition), which load from other work on the machine disturbs less than medians taken apart.
const pairedRows = [];
for (const w of ["incr1000@1000", "incr1000@100000"]) {
  if (!byRep[w]) continue;
  const row = [result.workloads[w].label];
  for (const c of cols) {
    const rs = Object.values(byRep[w]).filter((r) => r[c] != null && r.raw != null).map((r) => r[c] / r.raw);
    row.push(rs.length ? `${summary(rs).median.toFixed(2)} (${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)})` : "-");
    if (rs.length && result.workloads[w].contenders[c]) result.workloads[w].contenders[c].pairedRatioToRaw = summary(rs);
  }
  pairedRows.push(row);
}
if (pairedRows.length) console.log("\n== incr: paired ratio to raw, median (min-max) over repetitions of (contender / raw in the same repetition)\n" + table(["workload", ...cols], pairedRows));
if (splitRows.length) {
  console.log("\n== Where an awaited idb-ttl get's or incr's time goes (medians, ms for 1 000 calls)\n" + table(["step", "idb-ttl's database"], splitRows));
  for (const l of splitLines) console.log(l);
}
const repsLine = `reps: 1 000-entry and reap-only cases ${reps.small} (+1 warm-up each); 100 000-entry rounds ${reps.big} ` +
  `(no separate warm-up: the session is warm by then); time series ${reps.ts}; localForage 100 000 bulk ${reps.lfBulk100k}`;
console.log("\n" + repsLine);
if (populatedNote.size) console.log("* populated directly with the records the library writes, bulk write not timed (budget): " + [...populatedNote].join(", "));
for (const n of notes) console.log("note: " + n);
for (const f of failures) console.log("FAILED (left out of the medians): " + f);
result.failures = failures;

// ---- targets (issue 10's table; the medians of this run)
const med = (w, c) => result.workloads[w]?.contenders[c]?.median;
const targets = [];
if (contenders.includes("idb-ttl")) {
  const r = (w) => med(w, "idb-ttl") / med(w, "raw");
  const t = (what, value, ok, goal) => targets.push({ what, value, goal, met: ok });
  const vsRaw = (w, goal) => { if (med(w, "idb-ttl") != null) t(`${w} vs raw`, r(w), r(w) <= goal, `<= ${goal}x`); };
  const vsDexie = (w) => {
    const d = med(w, "Dexie"), m = med(w, "idb-ttl");
    if (d != null && m != null) t(`${w} vs Dexie`, m / d, m < d, "< 1x Dexie");
  };
  for (const w of ["get1000@1000", "get1000@100000"]) { vsRaw(w, 1.15); vsDexie(w); }
  for (const w of ["setOverwrite1000@1000", "setOverwrite1000@100000", "setNew1000@1000", "setNew1000@100000"]) vsDexie(w);
  for (const w of ["getMany1000@1000", "getMany1000@100000"]) vsRaw(w, 1.15);
  for (const w of ["bulk@1000", "bulk@100000"]) vsRaw(w, 1.3);
  for (const w of ["incr1000@1000", "incr1000@100000"]) vsRaw(w, 1.3); // issue 33
  const m = med("tsAppend@100000", "idb-ttl");
  if (m != null) for (const c of ["raw", "Dexie"]) if (med("tsAppend@100000", c) != null) {
    const x = med("tsAppend@100000", c) / m;
    t(`tsAppend@100000 vs ${c} (times faster)`, x, x >= 5, ">= 5x faster");
  }
  vsRaw("reap10pct@100000", 0.3);
  vsRaw("cold@100000", 1.1);
  if (sizes["idb-ttl"]) t("package, every module a page loads, gzip (kB)", sizes["idb-ttl"].total.gzip / 1000, sizes["idb-ttl"].total.gzip <= 100_000, "<= 100 kB");
}
result.targets = targets;
if (targets.length) {
  console.log("\n== Targets (issue 10; incr: issue 33)");
  console.log(table(["target", "value", "goal", "met"], targets.map((x) => [x.what, x.value < 0.1 ? x.value.toPrecision(2) : x.value.toFixed(2), x.goal, x.met ? "yes" : "NO"])));
}
if (!info.tsIdbTtl) console.log("time-series target: not measurable yet (no TtlStore#timeSeries)");

const elapsed = (Date.now() - START) / 1000;
result.elapsedS = elapsed;
result.benchElapsedS = (Date.now() - t00) / 1000;
result.tables = { ms: msTable, ratio: ratioTable, reps: repsLine };
mkdirSync(OUT, { recursive: true });
result.only = ONLY;
const outName = NAME ? `${NAME}.json` : ONLY ? `${ONLY}-latest.json` : "latest.json";
writeFileSync(join(OUT, outName), JSON.stringify(result, null, 2) + "\n");
if (!ONLY && !NAME) writeFileSync(join(OUT, "latest.svg"), renderSvg(result));
console.log(`\nChromium ${browser.version}; 1-min load average ${loadStart.toFixed(1)} -> ${loadEnd.toFixed(1)} on 2 cores`);
console.log(`commit ${result.commit}; ${result.machine}; load average (1, 5, 15 min) ${result.loadAtStart} at the start, ${result.loadAtEnd} at the end`);
console.log(`wrote ${join(OUT, outName).replace(repo + "/", "")}${ONLY || NAME ? "" : " and latest.svg"}`);
console.log(`elapsed: ${elapsed.toFixed(0)} s total (benchmark ${result.benchElapsedS.toFixed(0)} s)`);
