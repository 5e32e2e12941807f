#!/usr/bin/env bash
# The issue-4 benchmark: idb-ttl against raw IndexedDB, idb-keyval, localForage and Dexie in one
# headless Chromium session. Installs what is missing (scripts/setup.sh), builds the release wasm
# (scripts/build.sh -> www/pkg/), installs the benchmark's own dev dependencies (bench/package.json),
# serves the repository on 127.0.0.1 (scripts/serve.mjs) and runs bench/run.mjs, which prints the
# tables (median ms with min-max, ratios to raw IndexedDB), the size of the release wasm + JS glue
# (raw and gzip), the issue-4 targets, and writes bench/results/latest.json + latest.svg.
# Whole run: under 15 minutes on a 2-core machine (the driver budgets its repetitions).
# Not a test: nothing here fails on a slow number.
#   scripts/bench.sh [run.mjs options: --reps N --reps-big N --budget-s S --lf-bulk-100k off]
#   BENCH_SKIP_BUILD=1 scripts/bench.sh   # reuse the installed tools and the current www/pkg
#   scripts/bench.sh --backend sqlite      # on Chromium's SQLite IndexedDB backend (default leveldb)
#   scripts/bench.sh --startup [--reps N]  # time to first get against Dexie, idb-keyval and
#                                          # localForage: desktop cold, second visit, mobile
#                                          # profile (bench/startup.mjs; about 5 minutes)
set -euo pipefail

driver=bench/run.mjs
if [ "${1:-}" = "--startup" ]; then
  driver=bench/startup.mjs
  shift
fi
if [ "${1:-}" = "--backend" ]; then
  export IDB_BACKEND="${2:?--backend needs leveldb or sqlite}"
  shift 2
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BENCH_START_MS="$(date +%s%3N)"
export BENCH_START_MS

extra=()
if [ "${BENCH_SKIP_BUILD:-0}" != 1 ]; then
  bash scripts/setup.sh
  if ! bash scripts/build.sh; then
    echo "bench: scripts/build.sh failed: idb-ttl is left out of this run (a stale www/pkg would mislead)" >&2
    extra+=(--skip-idb-ttl "scripts/build.sh failed")
  fi
fi
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

echo "== npm install (bench/: idb-keyval, localforage, dexie, playwright-core; dev only)"
(cd bench && npm install --no-audit --no-fund --loglevel=error)

echo "== node $driver"
if [ "$driver" = bench/startup.mjs ]; then
  [ "${#extra[@]}" -eq 0 ] || { echo "bench: scripts/build.sh failed: no idb-ttl to time" >&2; exit 1; }
  node "$driver" "$@"
else
  node "$driver" ${extra[@]+"${extra[@]}"} "$@"
fi
