// The size of the built package (pkg/) as a browser loads it: every JS module it imports, raw and
// gzip -9, per part, and the total checked against the budget. Run by scripts/build.sh; the
// benchmark imports `packageSize` to print the same figures.
//
//   node scripts/size.mjs [pkg-dir]      exits 1 when the total is over the budget

import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/**
 * Gzip -9 bytes the package may ship, all parts together. Bytes are deterministic, so this is
 * checked like a test: it only ever goes down (lower it when a change saves bytes; a change
 * that needs more must say so and why: a feature, or a design-card crate taking its work back,
 * may raise it by what it measurably costs).
 */
export const BUDGET_GZIP_BYTES = 227_962;

const ROOT = fileURLToPath(new URL("../", import.meta.url));

function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return jsFiles(p);
    return /\.m?js$/.test(name) ? [p] : [];
  });
}

/** `{ parts: [{ part, files, raw, gzip }], total: { raw, gzip } }` for the package in `dir`. */
export function packageSize(dir = join(ROOT, "pkg")) {
  const parts = new Map([
    ["wasm (inlined, idb_ttl_wasm.js)", []],
    ["wasm-bindgen glue (idb_ttl.js)", []],
    ["own JS (index.js, snippets/)", []],
  ]);
  const [wasm, glue, own] = parts.keys();
  for (const f of jsFiles(dir)) {
    const name = relative(dir, f);
    parts.get(name === "idb_ttl_wasm.js" ? wasm : name === "idb_ttl.js" ? glue : own).push(f);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || join(ROOT, "pkg");
  const { parts, total } = packageSize(dir);
  for (const p of parts) console.log(`size ${p.part.padEnd(34)} ${String(p.raw).padStart(8)} B raw ${String(p.gzip).padStart(8)} B gzip -9`);
  console.log(`size ${"total".padEnd(34)} ${String(total.raw).padStart(8)} B raw ${String(total.gzip).padStart(8)} B gzip -9 (budget ${BUDGET_GZIP_BYTES})`);
  if (total.gzip > BUDGET_GZIP_BYTES) {
    console.error(`size: the package is ${total.gzip} B gzip, over the budget of ${BUDGET_GZIP_BYTES} B (scripts/size.mjs)`);
    process.exit(1);
  }
}
