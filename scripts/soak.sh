#!/usr/bin/env bash
# The soak (tests/soak/soak.mjs): SOAK_SECONDS (default 600) of mixed writes, reads, deletes,
# read-modify-writes (add, replace, take, incr, update, expire only), expiry changes and reaping
# in two tabs of one headless Chromium (the full browser, not the headless shell the page tests
# use) sharing one database, checked against an exact model: no expired read, no missing entry,
# count() and keys() equal to the model at quiet points, JS heap and wasm memory flat after
# warm-up. Prints the figures and exits non-zero if a check failed. Not part of scripts/test.sh
# (ten minutes); runs scripts/setup.sh and scripts/build.sh first.
#   scripts/soak.sh                      # 10 minutes
#   SOAK_SECONDS=60 scripts/soak.sh      # a short run while developing
#   SOAK_SEED=1234 scripts/soak.sh       # replay the op sequence of an earlier run
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

# Like the test command: install what is missing, then build the package into www/pkg/.
bash scripts/setup.sh
bash scripts/build.sh

exec node tests/soak/soak.mjs
