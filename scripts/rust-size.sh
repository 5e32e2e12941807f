#!/usr/bin/env bash
# What idb-ttl adds to a Rust web app (docs/rust.md, "What it weighs"): examples/rust-minimal built
# twice, with idb-ttl (feature `store`: open, set, get, watch) and without it (the same app with no
# storage), each as a Rust app ships it: cargo build --release for wasm32, wasm-bindgen --target
# web, then the npm binaryen's wasm-opt with the flags of scripts/build.sh's (Cargo.toml's
# package.metadata.wasm-pack). Prints the .wasm and the glue, raw and gzip -9, and the difference.
# Run scripts/setup.sh first. Its own target dir: target/rust-minimal.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT/examples/rust-minimal"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

out="$ROOT/target/rust-minimal/out"
export CARGO_TARGET_DIR="$ROOT/target/rust-minimal"
opt=(-Oz --converge --low-memory-unused --strip-debug --strip-producers --strip-target-features
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types
  --enable-multivalue --enable-mutable-globals)
gz() { gzip -9 -c "$1" | wc -c; }
declare -A wasm_raw wasm_gz js_raw js_gz
for variant in without with; do
  features=()
  [ "$variant" = with ] && features=(--features store)
  cargo build --quiet --locked --release --target wasm32-unknown-unknown "${features[@]}" </dev/null
  rm -rf "$out/$variant"
  wasm-bindgen --target web --out-dir "$out/$variant" --no-typescript "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/rust_minimal.wasm"
  wasm-opt "${opt[@]}" "$out/$variant/rust_minimal_bg.wasm" -o "$out/$variant/rust_minimal_bg.wasm"
  wasm_raw[$variant]=$(wc -c < "$out/$variant/rust_minimal_bg.wasm")
  wasm_gz[$variant]=$(gz "$out/$variant/rust_minimal_bg.wasm")
  js_raw[$variant]=$(wc -c < "$out/$variant/rust_minimal.js")
  js_gz[$variant]=$(gz "$out/$variant/rust_minimal.js")
  printf 'rust-size %-8s wasm %7d B raw %7d B gzip   glue %6d B raw %6d B gzip\n' "$variant" \
    "${wasm_raw[$variant]}" "${wasm_gz[$variant]}" "${js_raw[$variant]}" "${js_gz[$variant]}"
done
printf 'rust-size added   wasm %7d B raw %7d B gzip   glue %6d B raw %6d B gzip\n' \
  $((wasm_raw[with] - wasm_raw[without])) $((wasm_gz[with] - wasm_gz[without])) \
  $((js_raw[with] - js_raw[without])) $((js_gz[with] - js_gz[without]))
# None of the JavaScript class surface: the app's glue exports no TtlStore class.
if grep -q "class TtlStore" "$out/with/rust_minimal.js"; then
  echo "rust-size: the app's glue has the JavaScript TtlStore class: the js feature leaked in" >&2
  exit 1
fi
echo "rust-size: no JavaScript class surface in the app (no TtlStore class in its glue)"
