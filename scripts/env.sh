# shellcheck shell=bash
# Sourced by every script (and usable by hand: `source scripts/env.sh`).
# Puts the repo's npm tools (binaryen's node wasm-opt, playwright-core) and cargo-installed tools
# (wasm-pack, wasm-bindgen) ahead of anything from Debian on PATH.

IDB_TTL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export IDB_TTL_ROOT

case ":$PATH:" in
  *":$IDB_TTL_ROOT/node_modules/.bin:$HOME/.cargo/bin:"*) ;;
  *) PATH="$IDB_TTL_ROOT/node_modules/.bin:$HOME/.cargo/bin:$PATH" ;;
esac
export PATH

# The wasm-bindgen test runner prefers geckodriver when both drivers are on PATH and neither env var
# is set (TOOLCHAIN.md gotcha 3): name the one we mean.
export CHROMEDRIVER=/usr/bin/chromedriver
unset GECKODRIVER
