// The size of the built package (pkg/) as a browser loads it, per entry ("idb-ttl": index.js;
// "idb-ttl/lite": lite/index.js; the bindings, each alone, without its framework or the entry it
// imports: "idb-ttl/react": react/, "idb-ttl/vue": vue/, "idb-ttl/svelte": svelte/): every JS
// module the entry imports, raw and gzip -9, per part, the total checked against the entry's
// budget; then each entry as a user's bundler ships it (esbuild --bundle --minify --format=esm,
// gzip -9), which must bundle without a warning and without a module of any binding (nor its
// framework), and each binding's imports from outside its folder, which must be its framework and
// the entries alone (the Svelte store imports nothing). Run by scripts/build.sh; the benchmark
// imports `packageSize` to print the same figures.
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
export const BUDGET_GZIP_BYTES = 256_403;
/** The same for the lite entry (lite/: its index.js, glue, snippets and wasm). */
export const LITE_BUDGET_GZIP_BYTES = 141_254;
/** The same for the React hooks (react/: index.js, lite.js and the hooks they share). */
export const REACT_BUDGET_GZIP_BYTES = 1_957;
/** The same for the Vue composable (vue/: index.js, lite.js and the composable they share). */
export const VUE_BUDGET_GZIP_BYTES = 573;
/** The same for the Svelte store (svelte/: index.js, lite.js and the store they share). */
export const SVELTE_BUDGET_GZIP_BYTES = 513;

const BUDGETS = {
  default: BUDGET_GZIP_BYTES,
  lite: LITE_BUDGET_GZIP_BYTES,
  react: REACT_BUDGET_GZIP_BYTES,
  vue: VUE_BUDGET_GZIP_BYTES,
  svelte: SVELTE_BUDGET_GZIP_BYTES,
};
const ENTRY_FILES = { default: "index.js", lite: "lite/index.js" };
const NAMES = { default: "idb-ttl", lite: "idb-ttl/lite", react: "idb-ttl/react", vue: "idb-ttl/vue", svelte: "idb-ttl/svelte" };
/** The bindings: JavaScript over the public API, each a folder of its own that no entry imports. */
const BINDINGS = { react: "hooks (react/*.js)", vue: "composable (vue/*.js)", svelte: "store (svelte/*.js)" };

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
 * `{ parts: [{ part, files, raw, gzip }], total: { raw, gzip } }` for `entry` ("default", "lite",
 * "react", "vue" or "svelte") of the package in `dir`: the default entry is every module outside
 * lite/ and the bindings' folders, the lite entry every module in lite/, a binding every module in
 * its folder.
 */
export function packageSize(dir = join(ROOT, "pkg"), entry = "default") {
  const base = entry === "default" ? dir : join(dir, entry);
  const files = entry === "default" ? jsFiles(dir, ["lite", ...Object.keys(BINDINGS)].map((d) => join(dir, d))) : jsFiles(base);
  // A binding is one part; an entry's modules are its wasm, its glue and its own JS.
  const parts = entry in BINDINGS ? new Map([[BINDINGS[entry], files]]) : new Map([
    ["wasm (inlined, idb_ttl_wasm.js)", []],
    ["wasm-bindgen glue (idb_ttl.js)", []],
    ["own JS (index.js, snippets/)", []],
  ]);
  if (!(entry in BINDINGS)) {
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

/** What each binding may import from outside its folder: its framework, and the entries. */
const BINDING_IMPORTS = { react: ["react", "../index.js", "../lite/index.js"], vue: ["vue"], svelte: [] };

/** The imports of `binding`'s modules (index.js, lite.js) that lead outside its folder, sorted. */
async function bindingImports(dir, binding) {
  const folder = join(dir, binding);
  const outside = new Set();
  await build({
    entryPoints: ["index.js", "lite.js"].map((f) => join(folder, f)),
    bundle: true,
    write: false,
    format: "esm",
    outdir: join(folder, "out"),
    logLevel: "silent",
    plugins: [{
      name: "outside",
      setup: (b) => b.onResolve({ filter: /.*/ }, (a) => {
        if (a.kind === "entry-point") return undefined;
        const inside = a.path.startsWith("./") && !a.path.includes("..");
        if (inside) return undefined;
        outside.add(a.path);
        return { path: a.path, external: true };
      }),
    }],
  });
  return [...outside].sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || join(ROOT, "pkg");
  let failed = false;
  const row = (label, n) => `size ${label.padEnd(44)} ${String(n.raw).padStart(8)} B raw ${String(n.gzip).padStart(8)} B gzip -9`;
  for (const entry of ["default", "lite", ...Object.keys(BINDINGS)]) {
    const name = NAMES[entry];
    const { parts, total } = packageSize(dir, entry);
    for (const p of parts) if (p.files.length > 0) console.log(row(`${name}: ${p.part}`, p));
    console.log(`${row(`${name}: total`, total)} (budget ${BUDGETS[entry]})`);
    if (total.gzip > BUDGETS[entry]) {
      console.error(`size: ${name} is ${total.gzip} B gzip, over its budget of ${BUDGETS[entry]} B (scripts/size.mjs)`);
      failed = true;
    }
    if (entry in BINDINGS) {
      // Bundled, a binding is its framework and an entry (measured as those): what it imports from
      // outside its folder is checked instead. Each imports its framework and the entries alone.
      const outside = await bindingImports(dir, entry);
      console.log(`size ${`${name}: imports`.padEnd(44)} ${outside.join(", ") || "nothing"}`);
      const wrong = outside.filter((i) => !BINDING_IMPORTS[entry].includes(i));
      if (wrong.length) {
        const may = BINDING_IMPORTS[entry].length ? `only ${BINDING_IMPORTS[entry].join(", ")}` : "nothing";
        console.error(`size: ${name} imports ${wrong.join(", ")}; it may import ${may} from outside ${entry}/`);
        failed = true;
      }
      continue;
    }
    const bundled = await bundledSize(dir, entry);
    console.log(row(`${name}: bundled (esbuild --bundle --minify)`, bundled));
    if (bundled.warnings.length) {
      console.error(`size: esbuild warned while bundling ${name}:\n${bundled.warnings.join("")}`);
      failed = true;
    }
    // The bindings add nothing to an entry: no module of react/, vue/ or svelte/ (nor React, Vue
    // or Svelte) is in its bundle.
    const bindings = bundled.inputs.filter((f) => /(^|\/)(react|vue|svelte|@vue)\//.test(f));
    if (bindings.length) {
      console.error(`size: ${name}'s bundle holds ${bindings.join(", ")}: an entry must not import a binding or its framework`);
      failed = true;
    }
  }
  if (failed) process.exit(1);
}
