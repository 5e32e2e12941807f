// The size of the built package (pkg/) as a browser loads it, per entry ("idb-ttl": index.js;
// "idb-ttl/lite": lite/index.js; "idb-ttl/react": react/, the hooks alone, without React or the
// entry they import): every JS module the entry imports, raw and gzip -9, per part, the total
// checked against the entry's budget; then each entry as a user's bundler ships it
// (esbuild --bundle --minify --format=esm, gzip -9), which must bundle without a warning. Run by
// scripts/build.sh; the benchmark imports `packageSize` to print the same figures.
//
//   node scripts/size.mjs [pkg-dir]      exits 1 when an entry is over its budget or esbuild warns

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, formatMessages } from "esbuild";

/**
 * Gzip -9 bytes each entry may ship, all its parts together. Bytes are deterministic, so this is
 * checked like a test: it only ever goes down (lower it when a change saves bytes; a change
 * that needs more must say so and why: a feature, or a design-card crate taking its work back,
 * may raise it by what it measurably costs).
 */
export const BUDGET_GZIP_BYTES = 255_909;
/** The same for the lite entry (lite/: its index.js, glue, snippets and wasm). */
export const LITE_BUDGET_GZIP_BYTES = 142_305;
/** The same for the React hooks (react/: index.js, lite.js and the hooks they share). */
export const REACT_BUDGET_GZIP_BYTES = 1_957;

const BUDGETS = { default: BUDGET_GZIP_BYTES, lite: LITE_BUDGET_GZIP_BYTES, react: REACT_BUDGET_GZIP_BYTES };
const ENTRY_FILES = { default: "index.js", lite: "lite/index.js" };
const NAMES = { default: "idb-ttl", lite: "idb-ttl/lite", react: "idb-ttl/react" };

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function jsFiles(dir, skip = []) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (skip.includes(p)) return [];
    if (statSync(p).isDirectory()) return jsFiles(p, skip);
    return /\.m?js$/.test(name) ? [p] : [];
  });
}

/**
 * `{ parts: [{ part, files, raw, gzip }], total: { raw, gzip } }` for `entry` ("default", "lite"
 * or "react") of the package in `dir`: the default entry is every module outside lite/ and
 * react/, the lite entry every module in lite/, the hooks every module in react/.
 */
export function packageSize(dir = join(ROOT, "pkg"), entry = "default") {
  const base = entry === "default" ? dir : join(dir, entry);
  const files = entry === "default" ? jsFiles(dir, [join(dir, "lite"), join(dir, "react")]) : jsFiles(base);
  // The hooks are one part; an entry's modules are its wasm, its glue and its own JS.
  const parts = entry === "react" ? new Map([["hooks (react/*.js)", files]]) : new Map([
    ["wasm (inlined, idb_ttl_wasm.js)", []],
    ["wasm-bindgen glue (idb_ttl.js)", []],
    ["own JS (index.js, snippets/)", []],
  ]);
  if (entry !== "react") {
    const [wasm, glue, own] = parts.keys();
    for (const f of files) {
      const name = relative(base, f);
      parts.get(name === "idb_ttl_wasm.js" ? wasm : name === "idb_ttl.js" ? glue : own).push(f);
    }
  }
  const out = [...parts].map(([part, files]) => ({
    part,
    files: files.map((f) => relative(dir, f)),
    raw: files.reduce((n, f) => n + statSync(f).size, 0),
    gzip: files.reduce((n, f) => n + gzipSync(readFileSync(f), { level: 9 }).length, 0),
  }));
  const total = { raw: out.reduce((n, p) => n + p.raw, 0), gzip: out.reduce((n, p) => n + p.gzip, 0) };
  return { parts: out, total };
}

/** `{ raw, gzip, warnings, inputs }`: `entry` of the package in `dir` bundled by esbuild --bundle --minify --format=esm. */
export async function bundledSize(dir = join(ROOT, "pkg"), entry = "default") {
  const result = await build({
    entryPoints: [join(dir, ENTRY_FILES[entry])],
    bundle: true,
    minify: true,
    format: "esm",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const [js] = result.outputFiles;
  const warnings = await formatMessages(result.warnings, { kind: "warning" });
  const inputs = Object.keys(result.metafile.inputs);
  return { raw: js.contents.length, gzip: gzipSync(js.contents, { level: 9 }).length, warnings, inputs };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || join(ROOT, "pkg");
  let failed = false;
  const row = (label, n) => `size ${label.padEnd(44)} ${String(n.raw).padStart(8)} B raw ${String(n.gzip).padStart(8)} B gzip -9`;
  for (const entry of ["default", "lite", "react"]) {
    const name = NAMES[entry];
    const { parts, total } = packageSize(dir, entry);
    for (const p of parts) if (p.files.length > 0) console.log(row(`${name}: ${p.part}`, p));
    console.log(`${row(`${name}: total`, total)} (budget ${BUDGETS[entry]})`);
    if (total.gzip > BUDGETS[entry]) {
      console.error(`size: ${name} is ${total.gzip} B gzip, over its budget of ${BUDGETS[entry]} B (scripts/size.mjs)`);
      failed = true;
    }
    if (entry === "react") continue; // bundled, it is React and an entry: measured as those
    const bundled = await bundledSize(dir, entry);
    console.log(row(`${name}: bundled (esbuild --bundle --minify)`, bundled));
    if (bundled.warnings.length) {
      console.error(`size: esbuild warned while bundling ${name}:\n${bundled.warnings.join("")}`);
      failed = true;
    }
    // The hooks add nothing to an entry: no module of react/ (nor React) is in its bundle.
    const hooks = bundled.inputs.filter((f) => /(^|\/)react\//.test(f));
    if (hooks.length) {
      console.error(`size: ${name}'s bundle holds ${hooks.join(", ")}: an entry must not import the hooks`);
      failed = true;
    }
  }
  if (failed) process.exit(1);
}
