#!/usr/bin/env bash
# The size floor under idb-ttl (issue 10): how many bytes the dependencies it must use cost before
# any of its own code. Builds bench/studies/size-floor twice: "deps" (wasm-bindgen, js-sys, web-sys, serde,
# serde-wasm-bindgen, gloo-timers, indexed_db_futures, talc; each used once) and "deps-jiff" (its
# `jiff` feature: the same plus jiff parsing dates and durations as src/core/expiry.rs does), with
# idb-ttl's release profile and wasm-opt flags and its Cargo.lock's versions, and prints wasm +
# wasm-bindgen glue, gzip -9, the figure scripts/size.mjs's budget is set in. Not part of the tests.
#
#   scripts/size-floor.sh      (after scripts/setup.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
export CARGO_TARGET_DIR="$ROOT/target/size-floor"
dir="$ROOT/bench/studies/size-floor"
cp "$ROOT/Cargo.lock" "$dir/Cargo.lock"
trap 'rm -rf "$dir/pkg" "$dir/Cargo.lock"' EXIT
for v in deps deps-jiff; do
  features=()
  [ "$v" = deps-jiff ] && features=(-- --features jiff)
  (cd "$dir" && wasm-pack build --release --target web --no-pack --no-typescript "${features[@]}" </dev/null >/dev/null 2>&1)
  node --input-type=module - "$v" "$dir/pkg/size_floor_bg.wasm" "$dir/pkg/size_floor.js" <<'JS'
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
const [v, wasm, glue] = process.argv.slice(2);
const gz = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
const [w, g] = [gz(wasm), gz(glue)];
console.log(`size floor ${v.padEnd(9)} wasm ${String(readFileSync(wasm).length).padStart(7)} B raw, ${w} B gzip -9; glue ${g} B gzip -9; total ${w + g} B gzip -9`);
JS
done
