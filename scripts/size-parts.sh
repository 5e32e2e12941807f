#!/usr/bin/env bash
# Where the wasm's bytes go, by part: idb-ttl's own code, jiff, serde, the bindings (wasm-bindgen,
# js-sys, web-sys, indexed_db_futures...), Rust's formatting, the rest of core/alloc, data.
# Not part of the tests; for docs/contributing/benchmark-notebook.md "Where the time and bytes go" and size work.
#
#   scripts/size-parts.sh      (after scripts/setup.sh; installs twiggy if it is missing)
#
# It builds the release wasm as scripts/build.sh does, but keeps the function names through
# wasm-opt (-g) so that twiggy can attribute each function; the shipped build strips them. The
# bytes are the optimized module's, uncompressed: gzip squeezes the parts unevenly, so the total
# gzip is printed beside them.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
command -v twiggy >/dev/null || cargo install twiggy --version 0.8.0 </dev/null
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
cargo build --release --target wasm32-unknown-unknown --quiet </dev/null
wasm-bindgen --target web --out-dir "$OUT" --keep-debug target/wasm32-unknown-unknown/release/idb_ttl.wasm
# The flags of Cargo.toml's wasm-opt, with -g (names kept) instead of stripping.
wasm-opt -g -Oz --converge --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-reference-types --enable-multivalue --enable-mutable-globals "$OUT/idb_ttl_bg.wasm" -o "$OUT/named.wasm"
wasm-opt -Oz --strip-debug --strip-producers --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-reference-types --enable-multivalue --enable-mutable-globals "$OUT/named.wasm" -o "$OUT/stripped.wasm"
twiggy top -n 1000000 --format csv "$OUT/named.wasm" > "$OUT/top.csv"
node --input-type=module - "$OUT" <<'JS'
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const out = process.argv[2];
const rows = readFileSync(`${out}/top.csv`, "utf8").trim().split("\n").slice(1).map((line) => {
  const m = /^(".*"|[^,]*),(\d+),/.exec(line);
  return { name: m[1].replace(/^"|"$/g, "").replace(/""/g, '"'), bytes: Number(m[2]) };
});
const part = (n) => {
  if (n.includes("function names") || n.includes("producers")) return null; // names: not shipped
  if (n.startsWith("data")) return "data (message texts, tables)";
  if (/__wbg_|__wbindgen/.test(n)) return "imports (wasm-bindgen shims)";
  if (n.includes("jiff")) return "jiff";
  if (n.includes("serde")) return "serde, serde-wasm-bindgen";
  if (n.includes("idb_ttl::")) return n.includes("::js::promise") ? "idb-ttl: async methods (promise state machines)" : "idb-ttl: the rest of its own code";
  if (/wasm_bindgen|js_sys|web_sys|indexed_db_futures|gloo|talc/.test(n)) return "bindings and runtime (wasm-bindgen, js-sys, web-sys, indexed_db_futures, gloo, talc)";
  if (/flt2dec|core.*fmt|fmt::|Display|Debug|_fmt_inner/.test(n)) return "Rust formatting (core::fmt)";
  if (/\bcore\b|core\[|alloc|hashbrown|std/.test(n)) return "Rust core, alloc";
  return "other (unnamed: tables, types, glue)";
};
const parts = new Map();
for (const r of rows) {
  const p = part(r.name);
  if (p) parts.set(p, (parts.get(p) ?? 0) + r.bytes);
}
const total = [...parts.values()].reduce((a, b) => a + b, 0);
const stripped = readFileSync(`${out}/stripped.wasm`);
console.log(`wasm by part (optimized, uncompressed; ${total} B named, ${stripped.length} B stripped, ${gzipSync(stripped, { level: 9 }).length} B gzip -9):`);
for (const [p, b] of [...parts].sort((a, b) => b[1] - a[1])) {
  console.log(`${String(b).padStart(8)} B ${((100 * b) / total).toFixed(1).padStart(5)}%  ${p}`);
}
JS
