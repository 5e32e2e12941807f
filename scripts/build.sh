#!/usr/bin/env bash
# The release build (run scripts/setup.sh first; demo.sh and test.sh do):
#   pkg/      the npm package (every JS file minified by esbuild): wasm-pack's --target web glue
#             (idb_ttl.js + snippets/), the .wasm
#             inlined as base64 of its gzip in idb_ttl_wasm.js, and pkg-template/ (index.js, the
#             entry; index.d.ts; package.json fields; README; licences)
#   www/pkg/  a copy of pkg/ for the demo page, the page tests and the benchmark
# Optimised by the npm binaryen's wasm-opt (first on PATH via env.sh; never --no-opt here).
# Ends with scripts/size.mjs: the bytes a browser loads, per part, checked against the budget.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

for tool in wasm-pack wasm-bindgen wasm-opt esbuild; do
  command -v "$tool" >/dev/null || { echo "build: '$tool' not found: run scripts/setup.sh" >&2; exit 1; }
done

echo "== wasm-pack build --release --target web --out-dir pkg --no-pack --no-typescript"
rm -rf pkg
wasm-pack build --release --target web --out-dir pkg --no-pack --no-typescript </dev/null

node --input-type=module - "$ROOT" <<'EOF'
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { gzipAsync } from "@gfx/zopfli";
const root = process.argv[2];
const pkg = `${root}/pkg`;

// The .wasm travels inside a JS module (see pkg-template/index.js for why), gzipped, as base64.
// Zopfli writes a smaller gzip than zlib -9 (10 kB less here, measured by scripts/size.mjs) that
// any inflater, DecompressionStream included, reads; it takes a few seconds, at build time only.
const wasm = readFileSync(`${pkg}/idb_ttl_bg.wasm`);
const b64 = Buffer.from(await gzipAsync(wasm, { numiterations: 15 })).toString("base64");
writeFileSync(`${pkg}/idb_ttl_wasm.js`,
  `// idb_ttl_bg.wasm (${wasm.length} bytes), gzipped, base64. Written by scripts/build.sh.\nexport default "${b64}";\n`);
// The glue's fallback location of the .wasm would send bundlers (webpack, Parcel) looking for a
// file the package does not ship; index.js always passes the module in.
const gluePath = `${pkg}/idb_ttl.js`;
const glue = readFileSync(gluePath, "utf8");
const fallback = "module_or_path = new URL('idb_ttl_bg.wasm', import.meta.url);";
if (glue.split(fallback).length !== 2) throw new Error(`the wasm-bindgen glue no longer has: ${fallback}`);
writeFileSync(gluePath, glue.replace(fallback, 'throw new Error("idb-ttl: load the package through its entry, index.js");'));
for (const f of ["idb_ttl_bg.wasm", ".gitignore"]) {
  rmSync(`${pkg}/${f}`, { force: true });
}

// The template: entry, typings, README, licences; package.json gets the crate's version.
for (const f of readdirSync(`${root}/pkg-template`)) {
  if (f !== "package.json") cpSync(`${root}/pkg-template/${f}`, `${pkg}/${f}`);
}
for (const f of ["LICENSE-MIT", "LICENSE-APACHE"]) cpSync(`${root}/${f}`, `${pkg}/${f}`);
const version = /^version = "([^"]+)"/m.exec(readFileSync(`${root}/Cargo.toml`, "utf8"))[1];
const tpl = JSON.parse(readFileSync(`${root}/pkg-template/package.json`, "utf8"));
writeFileSync(`${pkg}/package.json`, JSON.stringify({ ...tpl, version }, null, 2) + "\n");
// Every file the package needs is listed in its "files" (npm pack ships only those).
for (const f of tpl.files) {
  if (!existsSync(`${pkg}/${f}`)) throw new Error(`pkg-template/package.json lists ${f}, which the build did not make`);
}
console.log(`pkg/: ${tpl.name}@${version}`);
EOF

# Every JS module shipped is minified (esbuild, ES module in and out, exports kept): a plain page
# loads them as they are, so their bytes count.
find pkg -name '*.js' ! -name idb_ttl_wasm.js -print0 | while IFS= read -r -d '' f; do
  esbuild "$f" --minify --format=esm --log-level=warning --outfile="$f" --allow-overwrite </dev/null
done

# The demo page, the page tests and the benchmark load the package exactly as shipped.
rm -rf www/pkg
cp -r pkg www/pkg

node scripts/size.mjs
