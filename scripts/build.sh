#!/usr/bin/env bash
# Release builds of the wasm module (run scripts/setup.sh first; demo.sh and test.sh do):
#   www/pkg/  --target web      for the demo page, the page tests and the benchmark
#                               (`import init, { TtlStore } from "./pkg/idb_ttl.js"`)
#   pkg/      --target bundler  the npm package, with pkg-template/ merged in
# Both are optimised by the npm binaryen's wasm-opt (first on PATH via env.sh; never --no-opt here).
# Prints the size of each .wasm and JS glue file, raw and gzip -9.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

for tool in wasm-pack wasm-bindgen wasm-opt; do
  command -v "$tool" >/dev/null || { echo "build: '$tool' not found: run scripts/setup.sh" >&2; exit 1; }
done

echo "== wasm-pack build --release --target web --out-dir www/pkg"
wasm-pack build --release --target web --out-dir www/pkg </dev/null
echo "== wasm-pack build --release --target bundler --out-dir pkg"
wasm-pack build --release --target bundler --out-dir pkg </dev/null

# Merge pkg-template/ into pkg/: the template's package.json fields override wasm-pack's (which
# keeps name-independent ones: version, repository...), its README.md replaces the crate's.
#
# sideEffects: not `false`. The bundler output's entry file idb_ttl.js does
# `import * as wasm from "./idb_ttl_bg.wasm"; __wbg_set_wasm(wasm); wasm.__wbindgen_start()` and
# re-exports from idb_ttl_bg.js; with `"sideEffects": false` a bundler may skip evaluating the entry
# file when only re-exported names are used, the wasm instance is never handed to the glue, and the
# first call fails. So the template keeps wasm-pack's own list (["./idb_ttl.js", "./snippets/*"]):
# every other file is declared free of side effects, which is what tree-shaking needs.
node --input-type=module - "$ROOT" <<'EOF'
import { readFileSync, writeFileSync, copyFileSync, existsSync } from "node:fs";
const root = process.argv[2];
const built = JSON.parse(readFileSync(`${root}/pkg/package.json`, "utf8"));
const tpl = JSON.parse(readFileSync(`${root}/pkg-template/package.json`, "utf8"));
copyFileSync(`${root}/pkg-template/README.md`, `${root}/pkg/README.md`);
const merged = { ...built, ...tpl, version: built.version };
// Ship every file wasm-pack listed, the template's list, and the snippets of inline JS modules.
const files = new Set([...(tpl.files || []), ...(built.files || [])]);
if (existsSync(`${root}/pkg/snippets`)) files.add("snippets/");
merged.files = [...files].filter((f) => f.endsWith("/") || existsSync(`${root}/pkg/${f}`));
// Keep wasm-pack's sideEffects list if it names files the template does not (see build.sh).
if (Array.isArray(built.sideEffects)) {
  merged.sideEffects = [...new Set([...(Array.isArray(tpl.sideEffects) ? tpl.sideEffects : []), ...built.sideEffects])];
}
writeFileSync(`${root}/pkg/package.json`, JSON.stringify(merged, null, 2) + "\n");
EOF
echo "pkg/package.json merged with pkg-template/ ($(node -p 'require("./pkg/package.json").name + "@" + require("./pkg/package.json").version'))"

# Sizes: one line per file, bytes raw and after gzip -9.
size_line() {
  local f="$1"
  [ -f "$f" ] || return 0
  printf 'size %-28s %9d B raw %9d B gzip -9\n' "$f" "$(wc -c <"$f")" "$(gzip -9 -c "$f" | wc -c)"
}
for f in www/pkg/idb_ttl_bg.wasm www/pkg/idb_ttl.js pkg/idb_ttl_bg.wasm pkg/idb_ttl.js pkg/idb_ttl_bg.js; do
  size_line "$f"
done
# What a page downloads (demo/--target web): the .wasm plus its JS glue.
printf 'size %-28s %9d B raw %9d B gzip -9\n' "www/pkg total (wasm + js)" \
  "$(cat www/pkg/idb_ttl_bg.wasm www/pkg/idb_ttl.js | wc -c)" \
  "$(( $(gzip -9 -c www/pkg/idb_ttl_bg.wasm | wc -c) + $(gzip -9 -c www/pkg/idb_ttl.js | wc -c) ))"
