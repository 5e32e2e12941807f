#!/usr/bin/env bash
# The docs check, run by scripts/test.sh after the typings check (CONTRIBUTING.md, "The docs"):
#   bash scripts/docs.sh          the API reference (TypeDoc, any warning fails, every export
#                                 documented) built into a temporary directory must equal the
#                                 committed docs/reference/; every ts/js/tsx/jsx block of README.md
#                                 and docs/*.md compiles under tsc --strict against the package's
#                                 typings; every relative link and #fragment of the Markdown resolves
#                                 and the Rust documentation builds without a warning: the
#                                 contributors' (cargo doc with private items, both entries'
#                                 features) and the users' page (cargo doc, no private items)
#   bash scripts/docs.sh build    writes the API reference into docs/reference/ (commit it)
# Needs the root npm dev dependencies and the wasm target (scripts/setup.sh); builds nothing else
# (cargo doc reads the crate and its dependencies' metadata, in target/rustdoc/).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

node scripts/docs-check.mjs typings

# TypeDoc reads the typings as made above (the lite entry's are made, not written), so its
# options are in typedoc.json with the entry points there.
reference() {
  typedoc --options typedoc.json --out "$1" --logLevel Warn
}

case "${1:-check}" in
  build)
    rm -rf docs/reference
    reference docs/reference
    echo "reference: docs/reference/ written ($(find docs/reference -name '*.md' | wc -l) pages)"
    ;;
  check)
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' EXIT
    reference "$tmp/reference"
    if ! diff -r -q docs/reference "$tmp/reference" >/dev/null 2>&1; then
      diff -r -u docs/reference "$tmp/reference" | head -40 || true
      echo "docs: docs/reference/ is not what the typings make: run 'bash scripts/docs.sh build' and commit it" >&2
      exit 1
    fi
    echo "reference: TypeDoc, no warning, $(find "$tmp/reference" -name '*.md' | wc -l) pages, equal to docs/reference/"
    node scripts/docs-check.mjs blocks
    node scripts/docs-check.mjs links
    # Its own target directory: the browser lanes running beside this use target/'s dev profile.
    # One for every pass: RUSTDOCFLAGS is not in the dependencies' fingerprints, so the four
    # passes share one check build of them (a second directory built them again: 75 s of CPU).
    for features in --features=full,js --features=js; do
      RUSTDOCFLAGS="-D warnings --cfg idb_ttl_internals" CARGO_TARGET_DIR="$ROOT/target/rustdoc" \
        cargo doc --quiet --no-deps --document-private-items --target wasm32-unknown-unknown --no-default-features "$features" </dev/null
    done
    echo "rustdoc: cargo doc --document-private-items, default and lite features, no warning"
    # The users' page (what docs.rs shows): the Rust API without private items, as a Rust app
    # builds it (no JavaScript bindings), then with the default features.
    for features in --features=full --features=full,js; do
      RUSTDOCFLAGS="-D warnings" CARGO_TARGET_DIR="$ROOT/target/rustdoc" \
        cargo doc --quiet --no-deps --target wasm32-unknown-unknown --no-default-features "$features" </dev/null
    done
    echo "rustdoc: cargo doc (the users' page), with and without the JavaScript bindings, no warning"
    ;;
  *)
    echo "usage: bash scripts/docs.sh [check|build]" >&2
    exit 2
    ;;
esac
