#!/usr/bin/env node
// Writes the tables of docs/benchmarks.md and its charts (docs/benchmarks/*.svg) from the newest
// result of each kind in bench/results/ (by the date each run recorded): the speed benchmark on
// each backend (<date>-speed-leveldb.json, -speed-sqlite.json, from bench/run.mjs), time to first
// get (<date>-startup.json, bench/startup.mjs), bytes per entry point (<date>-size.json,
// bench/size.mjs) and the last whole run of scripts/bench.sh (<date>-bench-sh.json). Each table
// goes between its markers in the page, `<!-- bench.sh:NAME begin -->` and `<!-- bench.sh:NAME
// end -->`; the prose around them is the page's own. Every figure written here is a figure a
// result file holds; nothing is typed in by hand.
//
//   node bench/report.mjs [--check]     (scripts/bench.sh runs it; --report alone: only this)
//     --check: write nothing, exit 1 when the page's tables differ from what the results give
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
// --results, --page, --charts: elsewhere than the repository's (to try a change to this script).
const RESULTS = arg("--results", join(HERE, "results"));
const PAGE = arg("--page", join(ROOT, "docs", "benchmarks.md"));
const CHARTS = arg("--charts", join(ROOT, "docs", "benchmarks"));
const CHECK = process.argv.includes("--check");

/** The newest result whose file name is <date>-<kind>[-N].json, by the date it recorded. */
function newest(kind) {
  const re = new RegExp(`^\\d{4}-\\d{2}-\\d{2}-${kind}(-\\d+)?\\.json$`);
  const all = readdirSync(RESULTS).filter((f) => re.test(f)).map((f) => {
    const r = JSON.parse(readFileSync(join(RESULTS, f), "utf8"));
    return { file: f, r };
  }).filter((x) => x.r.commit); // written by scripts/bench.sh, which records the commit
  all.sort((a, b) => String(a.r.date).localeCompare(String(b.r.date)));
  return all.at(-1) ?? null;
}

const nf = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
const ms = (x) => (x >= 1000 ? nf(x) : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ratio = (x) => (x >= 10 ? x.toFixed(0) : x < 0.1 ? x.toPrecision(2) : x.toFixed(2)) + "x";
const day = (iso) => String(iso).slice(0, 10);
const esc = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const link = (f) => `[\`bench/results/${f}\`](../bench/results/${f})`;
const txt = (f) => f.replace(/\.json$/, ".txt");

const COLORS = {
  raw: "#6b7280", "raw IndexedDB": "#6b7280", "idb-keyval": "#f59e0b", localForage: "#ef4444", Dexie: "#3b82f6",
  "Dexie 4": "#3b82f6", "idb-ttl": "#10b981", "idb-ttl/lite": "#6ee7b7", "idb-ttl/react (the hooks alone)": "#a7f3d0",
  "gzip -9": "#3b82f6", "brotli 11": "#10b981",
};

/**
 * A horizontal bar chart. groups: [{ label, bars: [{ name, value, lo?, hi?, text }] }]. log: a
 * log scale from lo to hi (with a line at 1), else linear from 0 to the largest value.
 */
function chart({ title, subtitle, groups, log, unit, legend }) {
  const bar = 12, gap = 2, groupGap = 14, left = 300, plotW = 480, top = 80;
  const values = groups.flatMap((g) => g.bars.flatMap((b) => [b.value, b.hi ?? b.value]));
  const maxV = Math.max(...values);
  let x;
  let ticks;
  if (log) {
    const lo = 10 ** Math.floor(Math.log10(Math.min(...groups.flatMap((g) => g.bars.map((b) => b.lo ?? b.value))))),
      hi = 10 ** Math.ceil(Math.log10(maxV));
    x = (v) => left + ((Math.log10(Math.min(hi, Math.max(lo, v))) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotW;
    ticks = [];
    for (let d = lo; d <= hi * 1.0001; d *= 10) ticks.push(d, ...(d * 3 < hi ? [d * 3] : []));
    ticks = ticks.filter((t) => t <= hi * 1.0001).map((t) => Number(t.toPrecision(3)));
    x.base = x(lo);
  } else {
    const step = 10 ** Math.floor(Math.log10(maxV)) * (maxV / 10 ** Math.floor(Math.log10(maxV)) > 5 ? 2 : maxV / 10 ** Math.floor(Math.log10(maxV)) > 2 ? 1 : 0.5);
    const hi = Math.ceil(maxV / step) * step;
    x = (v) => left + (v / hi) * plotW;
    ticks = [];
    for (let t = 0; t <= hi + 1e-9; t += step) ticks.push(t);
    x.base = x(0);
  }
  const parts = [];
  let y = top;
  for (const g of groups) {
    const h = g.bars.length * (bar + gap);
    parts.push(`<text x="${left - 8}" y="${y + h / 2 + 4}" text-anchor="end" font-size="11">${esc(g.label)}</text>`);
    for (const b of g.bars) {
      const x2 = x(b.value);
      parts.push(`<rect x="${x.base}" y="${y}" width="${Math.max(1, x2 - x.base).toFixed(1)}" height="${bar}" fill="${COLORS[b.name] ?? "#999"}"><title>${esc(b.name)}: ${esc(b.text)}</title></rect>`);
      if (b.lo != null && b.hi != null) {
        const ym = y + bar / 2;
        parts.push(`<line x1="${x(b.lo).toFixed(1)}" x2="${x(b.hi).toFixed(1)}" y1="${ym}" y2="${ym}" stroke="#111" stroke-width="1"/>`);
      }
      parts.push(`<text x="${(Math.max(x2, b.hi != null ? x(b.hi) : x2) + 3).toFixed(1)}" y="${y + bar - 2}" font-size="9">${esc(b.text)}</text>`);
      y += bar + gap;
    }
    y += groupGap;
  }
  const height = y + 8;
  const grid = ticks.map((t) => {
    const one = log && t === 1;
    return `<line x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${top - 6}" y2="${height - 12}" stroke="${one ? "#111" : "#ddd"}" stroke-width="${one ? 1.2 : 1}"/>` +
      `<text x="${x(t).toFixed(1)}" y="${top - 10}" text-anchor="middle" font-size="10">${log ? `${t}${unit}` : `${nf(t)}${unit}`}</text>`;
  });
  const leg = legend.map((n, i) => `<rect x="${10 + i * 130}" y="40" width="10" height="10" fill="${COLORS[n] ?? "#999"}"/><text x="${24 + i * 130}" y="49" font-size="11">${esc(n)}</text>`);
  const width = left + plotW + 90;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="10" y="16" font-size="13" font-weight="bold">${esc(title)}</text>
<text x="10" y="31" font-size="10">${esc(subtitle)}</text>
${leg.join("\n")}
${grid.join("\n")}
${parts.join("\n")}
</svg>
`;
}

const blocks = {}; // name -> markdown
const svgs = {};   // file -> svg

// ---------------------------------------------------------------- speed, per backend
const SPEED_ROWS = [
  ["get1000", "1 000 awaited gets"],
  ["getMany1000", "getMany of 1 000 keys"],
  ["bulk", "bulk write of every entry"],
  ["setNew1000", "1 000 awaited writes, new keys"],
  ["setOverwrite1000", "1 000 awaited overwrites, new expiry"],
  ["incr1000", "1 000 awaited incr of one key"],
  ["reap1pct", "reap the 1 % that expired", [100000]],
  ["reap10pct", "reap the 10 % that expired"],
];
const SIZES = [1000, 100000];
const NAMES = { raw: "raw IndexedDB" };
const BACKEND = { leveldb: "LevelDB (Chrome's default)", sqlite: "SQLite (Chrome's newer backend)" };
for (const b of ["leveldb", "sqlite"]) {
  const hit = newest(`speed-${b}`);
  if (!hit) { blocks[`speed-${b}`] = `No result yet: \`bash scripts/bench.sh --backend ${b}\`.`; continue; }
  const { file, r } = hit;
  const cs = r.contenders;
  const rows = [];
  const msRows = [];
  const groups = [];
  for (const [w, label, sizes = SIZES] of SPEED_ROWS) {
    for (const n of sizes) {
      const wl = r.workloads[`${w}@${n}`];
      if (!wl || !wl.contenders.raw) continue;
      const base = wl.contenders.raw.median;
      const rowLabel = `${label}, ${nf(n)} entries`;
      rows.push(`| ${rowLabel} | ${cs.map((c) => (wl.contenders[c] ? ratio(wl.contenders[c].median / base) : "not timed")).join(" | ")} |`);
      msRows.push(`| ${rowLabel} | ${cs.map((c) => {
        const s = wl.contenders[c];
        return !s ? "not timed" : s.n === 1 ? `${ms(s.median)} (1 run)` : `${ms(s.median)} (${ms(s.min)}-${ms(s.max)})`;
      }).join(" | ")} |`);
      groups.push({
        label: rowLabel,
        bars: cs.filter((c) => wl.contenders[c]).map((c) => {
          const s = wl.contenders[c];
          return { name: NAMES[c] ?? c, value: s.median / base, lo: s.min / base, hi: s.max / base, text: `${ratio(s.median / base)} (${ms(s.median)} ms)` };
        }),
      });
    }
  }
  const head = `| workload | ${cs.map((c) => NAMES[c] ?? c).join(" | ")} |\n|---|${cs.map(() => "---:").join("|")}|`;
  const svgFile = `speed-${b}.svg`;
  svgs[svgFile] = chart({
    title: `Time relative to raw IndexedDB, Chromium's ${BACKEND[b]} backend (log scale, lower is faster)`,
    subtitle: `Chromium ${r.chromium}, ${day(r.date)}, commit ${r.commit}; median of each contender's runs, the line its fastest to slowest run; ${file}`,
    groups, log: true, unit: "x", legend: cs.map((c) => NAMES[c] ?? c),
  });
  const lf = r.notes?.length || r.failures?.length ? `\nNotes from the run: ${[...(r.notes ?? []), ...(r.failures ?? []).map((f) => `failed, left out: ${f}`)].join("; ")}.\n` : "";
  blocks[`speed-${b}`] = `Measured ${day(r.date)} on commit \`${r.commit}\`, Chromium ${r.chromium}, ${r.machine}; load average ` +
    `(1, 5, 15 min) ${r.loadAtStart} at the start, ${r.loadAtEnd} at the end. Runs per cell: ${r.reps.small} at 1 000 entries ` +
    `(after a discarded warm-up run), ${r.reps.big} at 100 000. Remake: \`bash scripts/bench.sh --backend ${b}\` ` +
    `(this table and the chart); full output ${link(txt(file))}.\n${lf}\n` +
    `Time relative to raw IndexedDB (median / raw's median; lower is faster):\n\n${head}\n${rows.join("\n")}\n\n` +
    `![Speed relative to raw IndexedDB on ${BACKEND[b]}](benchmarks/${svgFile})\n\n` +
    `<details><summary>Milliseconds: median (fastest-slowest run)</summary>\n\n${head}\n${msRows.join("\n")}\n\n</details>`;
}

// ---------------------------------------------------------------- time to first get
{
  const hit = newest("startup");
  if (!hit) blocks.startup = "No result yet: `bash scripts/bench.sh --startup`.";
  else {
    const { file, r } = hit;
    const ids = Object.keys(r.bytes);
    const label = (id) => r.labels?.[id] ?? id;
    const PROFILES = [["desktop-cold", "desktop, cold"], ["desktop-warm", "desktop, second visit"], ["mobile-cold", "phone profile, cold"]];
    const head = `| profile | ${ids.map(label).join(" | ")} |\n|---|${ids.map(() => "---:").join("|")}|`;
    const rows = [];
    const groups = [];
    for (const [p, pl] of PROFILES) {
      if (!r.samples[p]) continue;
      const dex = r.medians[p].dexie;
      rows.push(`| ${pl} | ${ids.map((id) => {
        const xs = r.samples[p][id];
        return `${ms(r.medians[p][id])} (${ms(Math.min(...xs))}-${ms(Math.max(...xs))}) ${ratio(r.medians[p][id] / dex)}`;
      }).join(" | ")} |`);
      groups.push({
        label: pl,
        bars: ids.map((id) => {
          const xs = r.samples[p][id];
          return { name: label(id), value: r.medians[p][id], lo: Math.min(...xs), hi: Math.max(...xs), text: `${ms(r.medians[p][id])} ms` };
        }),
      });
    }
    rows.push(`| the app's bundle, gzip -9 (brotli 11) | ${ids.map((id) => `${nf(r.bytes[id].gzip)} B${r.bytes[id].brotli ? ` (${nf(r.bytes[id].brotli)})` : ""}`).join(" | ")} |`);
    svgs["startup.svg"] = chart({
      title: "Time to first get: from navigation to the first awaited get's value (log scale, lower is sooner)",
      subtitle: `Chromium ${r.chromium}, ${day(r.date)}, commit ${r.commit}; median of ${r.reps} loads, the line the fastest to slowest; ${file}`,
      groups, log: true, unit: " ms", legend: ids.map(label),
    });
    blocks.startup = `Measured ${day(r.date)} on commit \`${r.commit}\`, Chromium ${r.chromium}, ${r.machine}; load average ` +
      `(1, 5, 15 min) ${r.loadAtStart} at the start, ${r.loadAtEnd} at the end. Median of ${r.reps} loads per library and ` +
      `profile (fastest-slowest), libraries interleaved, and the ratio to Dexie's median. Remake: ` +
      `\`bash scripts/bench.sh --startup\` (this table and the chart); full output, with where each library's time goes ` +
      `stage by stage, ${link(txt(file))}.\n\n${head}\n${rows.join("\n")}\n\n![Time to first get](benchmarks/startup.svg)`;
  }
}

// ---------------------------------------------------------------- bytes per entry point
{
  const hit = newest("size");
  if (!hit) blocks.size = "No result yet: `bash scripts/bench.sh --size`.";
  else {
    const { file, r } = hit;
    const rows = r.entries.map((e) => `| ${e.label} | ${e.version} | ${nf(e.raw)} | ${nf(e.gzip)} | ${nf(e.brotli)} |`);
    svgs["size.svg"] = chart({
      title: "Bytes per entry point, bundled and minified by esbuild, then compressed (kB)",
      subtitle: `${day(r.date)}, commit ${r.commit}, esbuild ${r.esbuild}; ${file}`,
      groups: r.entries.map((e) => ({
        label: e.label,
        bars: [
          { name: "gzip -9", value: e.gzip / 1000, text: `${(e.gzip / 1000).toFixed(1)} kB` },
          { name: "brotli 11", value: e.brotli / 1000, text: `${(e.brotli / 1000).toFixed(1)} kB` },
        ],
      })),
      log: false, unit: "", legend: ["gzip -9", "brotli 11"],
    });
    blocks.size = `Measured ${day(r.date)} on commit \`${r.commit}\`, esbuild ${r.esbuild}: each entry imported whole ` +
      "(`export * from`), bundled with `--bundle --minify --format=esm`, in bytes. Sizes do not vary between runs. " +
      `Remake: \`bash scripts/bench.sh --size\` (this table and the chart); output ${link(txt(file))}.\n\n` +
      `| entry point | version | minified | gzip -9 | brotli 11 |\n|---|---|---:|---:|---:|\n${rows.join("\n")}\n\n` +
      "![Bytes per entry point](benchmarks/size.svg)";
  }
}

// ---------------------------------------------------------------- the whole command
{
  const hit = newest("bench-sh");
  const loads = ["speed-leveldb", "speed-sqlite", "startup"].map(newest).filter(Boolean)
    .flatMap(({ r }) => [r.loadAtStart, r.loadAtEnd]).map((l) => Number(String(l).split(",")[0]));
  const lo = Math.min(...loads), hi = Math.max(...loads);
  const load = !loads.length ? "" : hi > 1.5
    ? ` Other work ran on the machine beside these measurements (the 1-minute load average was between ${lo.toFixed(1)} and ` +
      `${hi.toFixed(1)} at the starts and ends of the runs above, on 2 cores): absolute times are longer and more spread ` +
      "than on an idle machine, and the ratios within a session hold better than the times."
    : ` The machine was otherwise idle (the 1-minute load average between ${lo.toFixed(1)} and ${hi.toFixed(1)} at the starts and ends of the runs above).`;
  blocks.run = (!hit ? "No whole run recorded yet." :
    `The last whole run, \`bash scripts/bench.sh\` (build, speed on both backends, time to first get, bytes, ` +
    `this page), took **${nf(hit.r.elapsedS)} s (${(hit.r.elapsedS / 60).toFixed(0)} minutes)** on ${day(hit.r.date)}, commit ` +
    `\`${hit.r.commit}\`${hit.r.build ? "" : " (no build)"}; load average (1, 5, 15 min) at its end ` +
    `${String(hit.r.load).trim().split(/[\s,]+/).join(", ")}.`) + load;
}

// ---------------------------------------------------------------- write
let page = readFileSync(PAGE, "utf8");
let changed = false;
for (const [name, body] of Object.entries(blocks)) {
  const begin = `<!-- bench.sh:${name} begin -->`, end = `<!-- bench.sh:${name} end -->`;
  const i = page.indexOf(begin), j = page.indexOf(end);
  if (i < 0 || j < i) { console.error(`report: docs/benchmarks.md has no ${begin} ... ${end}: ${name} not written`); continue; }
  const next = page.slice(0, i + begin.length) + "\n" + body + "\n" + page.slice(j);
  if (next !== page) changed = true;
  page = next;
}
if (CHECK) {
  if (changed) { console.error("report: docs/benchmarks.md's tables differ from bench/results/ (run scripts/bench.sh --report)"); process.exit(1); }
  console.log("report: docs/benchmarks.md's tables match bench/results/");
} else {
  writeFileSync(PAGE, page);
  mkdirSync(CHARTS, { recursive: true });
  for (const [f, svg] of Object.entries(svgs)) writeFileSync(join(CHARTS, f), svg);
  console.log(`report: wrote docs/benchmarks.md's tables (${Object.keys(blocks).join(", ")}) and docs/benchmarks/${Object.keys(svgs).join(", docs/benchmarks/")}`);
}
