#!/usr/bin/env node
// Bytes per entry point, as a user's bundler ships them: each entry of the package (pkg/) and of
// the libraries a user would otherwise pick (bench/node_modules: Dexie, idb-keyval, localForage),
// imported whole (`export * from`) and bundled by esbuild --bundle --minify --format=esm, then
// gzip -9 and brotli 11. idb-ttl's wasm is inside its entry's JS (inlined), so its bundle is all a
// page loads. The React hooks are measured without React and without the entry they import (both
// external): what they add. Writes bench/results/<--name, default size-latest>.json.
//
//   node bench/size.mjs [--pkg DIR] [--name NAME]      (scripts/bench.sh --size)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";
import { runMeta } from "./lib/meta.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const PKG = resolve(arg("--pkg", process.env.BENCH_PKG || join(ROOT, "pkg")));
const NAME = arg("--name", "size-latest");
const META = runMeta();
const NM = join(HERE, "node_modules");
const version = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;

for (const f of ["index.js", "lite/index.js", "react/index.js"]) {
  if (!existsSync(join(PKG, f))) throw new Error(`size: ${join(PKG, f)} missing: run scripts/build.sh first`);
}
const ENTRIES = [
  { id: "idb-ttl", label: "idb-ttl", source: `export * from ${JSON.stringify(join(PKG, "index.js"))};`, version: version(PKG) },
  { id: "idb-ttl/lite", label: "idb-ttl/lite", source: `export * from ${JSON.stringify(join(PKG, "lite/index.js"))};`, version: version(PKG) },
  {
    id: "idb-ttl/react", label: "idb-ttl/react (the hooks alone)", version: version(PKG),
    source: `export * from ${JSON.stringify(join(PKG, "react/index.js"))};`, external: ["react", join(PKG, "index.js")],
  },
  { id: "dexie", label: "Dexie", source: `export * from "dexie"; export { default } from "dexie";`, version: version(join(NM, "dexie")) },
  { id: "idb-keyval", label: "idb-keyval", source: `export * from "idb-keyval";`, version: version(join(NM, "idb-keyval")) },
  { id: "localforage", label: "localForage", source: `export { default } from "localforage";`, version: version(join(NM, "localforage")) },
];

const rows = [];
for (const e of ENTRIES) {
  const external = e.external ?? [];
  const result = await build({
    stdin: { contents: e.source, resolveDir: HERE, sourcefile: `${e.id}.js` },
    bundle: true, minify: true, format: "esm", write: false, logLevel: "silent",
    plugins: external.length ? [{
      name: "external",
      setup(b) {
        b.onResolve({ filter: /.*/ }, (a) => {
          const p = a.path.startsWith(".") ? resolve(a.resolveDir, a.path) : a.path;
          return external.includes(p) ? { path: a.path, external: true } : undefined;
        });
      },
    }] : [],
  });
  const js = Buffer.from(result.outputFiles[0].contents);
  rows.push({
    id: e.id, label: e.label, version: e.version, raw: js.length,
    gzip: gzipSync(js, { level: 9 }).length,
    brotli: brotliCompressSync(js, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    warnings: result.warnings.length,
  });
}
const pad = (s, n) => String(s).padStart(n);
console.log("Bytes per entry point, bundled by esbuild --bundle --minify --format=esm (the whole entry)");
console.log(`| entry point | version | minified | gzip -9 | brotli 11 |\n|---|---|---:|---:|---:|`);
for (const r of rows) console.log(`| ${r.label} | ${r.version} | ${pad(r.raw, 8)} | ${pad(r.gzip, 8)} | ${pad(r.brotli, 8)} |`);
console.log(`commit ${META.commit}; ${META.machine}; esbuild ${(await import("esbuild")).version}`);
mkdirSync(join(HERE, "results"), { recursive: true });
writeFileSync(join(HERE, "results", `${NAME}.json`), JSON.stringify({ ...META, esbuild: (await import("esbuild")).version, entries: rows }, null, 2) + "\n");
console.log(`wrote bench/results/${NAME}.json`);
