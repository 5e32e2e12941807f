#!/usr/bin/env bash
# The benchmarks behind docs/benchmarks.md, in one command. With no flags it measures everything
# and rewrites every table and chart of that page:
#   speed    bench/run.mjs: idb-ttl against raw IndexedDB, idb-keyval, localForage and Dexie at
#            1 000 and 100 000 entries, in one headless Chromium session per backend, on
#            Chromium's LevelDB and then its SQLite IndexedDB backend (14 to 25 minutes each, by
#            the machine's load: the driver budgets its 100 000-entry rounds)
#   startup  bench/startup.mjs: time to first get, desktop cold, desktop second visit and the
#            phone profile, against the same libraries (about 5 minutes)
#   size     bench/size.mjs: bytes per entry point, bundled by esbuild, gzip -9 and brotli 11
#   report   bench/report.mjs: the tables of docs/benchmarks.md (between its "bench.sh" markers)
#            and the charts docs/benchmarks/*.svg, from the newest result of each kind
# Each measurement is written to bench/results/<UTC date>-<what>.json and .txt (the printed
# output), with the commit built, the machine, Chromium's version and the load average.
# Installs what is missing (scripts/setup.sh), builds the release package (scripts/build.sh) and
# measures a copy of it (target/bench-pkg/), so a rebuild of pkg/ during the run changes nothing.
# Not a test: nothing here fails on a slow number.
#
#   scripts/bench.sh                       everything (40 to 60 minutes on 2 cores), then the page
#   scripts/bench.sh --speed               the speed benchmark on both backends, then the page
#   scripts/bench.sh --backend sqlite      the speed benchmark on one backend (leveldb or sqlite)
#   scripts/bench.sh --startup [--reps N]  time to first get only (--reps: loads per library and
#                                          profile, default 7)
#   scripts/bench.sh --size                bytes per entry point only
#   scripts/bench.sh --report              the page's tables and charts from the results already
#                                          in bench/results/, nothing measured
#   scripts/bench.sh --scale               bench/scale.mjs: 100 000 and 1 000 000 entries (not on
#                                          the page; about 10 minutes)
#   --no-build (or BENCH_SKIP_BUILD=1)     measure the current pkg/ instead of building; its
#                                          figures then say "HEAD when run", not the commit built
#   --no-report                            measure, but leave the page alone
#   --at REV                               build and measure commit REV (a clean export of it in
#                                          target/bench-src/, built in target/bench-target/) instead
#                                          of the working tree: figures from a tree others are editing
# Flags combine (--speed --size); anything after `--` goes to each driver that runs (for example
# `scripts/bench.sh --speed -- --reps 3 --budget-s 600`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

parts=()
backends=()
startup_args=()
passthrough=()
build=1
[ "${BENCH_SKIP_BUILD:-0}" = 1 ] && build=0
report=1
at=""
while [ $# -gt 0 ]; do
  case "$1" in
    --speed) parts+=(speed); shift ;;
    --backend) backends+=("${2:?--backend needs leveldb or sqlite}"); shift 2 ;;
    --startup) parts+=(startup); shift ;;
    --reps) startup_args+=(--reps "${2:?--reps needs a number}"); shift 2 ;;
    --size) parts+=(size); shift ;;
    --scale) parts+=(scale); shift ;;
    --report) parts+=(report-only); shift ;;
    --no-build) build=0; shift ;;
    --no-report) report=0; shift ;;
    --at) at="${2:?--at needs a commit}"; shift 2 ;;
    --) shift; passthrough=("$@"); break ;;
    -h|--help) sed -n '2,36p' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown flag $1 (see scripts/bench.sh --help)" >&2; exit 2 ;;
  esac
done
for b in ${backends[@]+"${backends[@]}"}; do
  case "$b" in leveldb|sqlite) ;; *) echo "bench.sh: --backend $b: expected leveldb or sqlite" >&2; exit 2 ;; esac
done
if [ ${#backends[@]} -gt 0 ] && [[ " ${parts[*]-} " != *" speed "* ]]; then parts+=(speed); fi
[ ${#backends[@]} -gt 0 ] || backends=(leveldb sqlite)
full=0
if [ ${#parts[@]} -eq 0 ]; then parts=(speed startup size); full=1; fi
has() { [[ " ${parts[*]} " == *" $1 "* ]]; }

T0="$(date +%s)"
if has report-only; then
  node bench/report.mjs
  exit 0
fi

pkgdir=pkg
if [ -n "$at" ]; then
  [ "$build" = 1 ] || { echo "bench.sh: --at builds; it does not go with --no-build" >&2; exit 2; }
  rev="$(git rev-parse --short "$at^{commit}")"
  bash scripts/setup.sh
  src="$ROOT/target/bench-src"
  rm -rf "$src"; mkdir -p "$src"
  # -m: the files dated now. A target dir of its own: cargo names a path crate's build by its
  # path inside the workspace, so in the shared target/ it would take the working tree's build,
  # made from other sources, as fresh (seen: the lite build "finished" in 0.06 s).
  git archive "$rev" | tar -x -m -C "$src"
  ln -s "$ROOT/node_modules" "$src/node_modules"
  echo "== scripts/build.sh of $rev in target/bench-src/ (cargo's target dir: target/bench-target/)"
  (cd "$src" && CARGO_TARGET_DIR="$ROOT/target/bench-target" bash scripts/build.sh)
  pkgdir="$src/pkg"
  export BENCH_COMMIT="$rev"
elif [ "$build" = 1 ]; then
  bash scripts/setup.sh
  bash scripts/build.sh
fi
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

# The build measured: a copy, taken once pkg/ is whole (another build may be rewriting it).
snap="$ROOT/target/bench-pkg"
for i in $(seq 1 60); do
  if [ -f "$pkgdir/index.js" ] && [ -f "$pkgdir/lite/index.js" ] && [ -f "$pkgdir/react/index.js" ] &&
     [ -f "$pkgdir/package.json" ] && [ -z "$(find "$pkgdir" -newermt '-20 seconds' -print -quit 2>/dev/null)" ]; then
    rm -rf "$snap"; mkdir -p "$(dirname "$snap")"; cp -a "$pkgdir" "$snap"
    if [ -f "$snap/index.js" ] && [ -f "$snap/lite/index.js" ] && [ -f "$snap/react/index.js" ]; then break; fi
  fi
  [ "$i" = 60 ] && { echo "bench.sh: pkg/ is missing or still being written after 10 minutes: run scripts/build.sh" >&2; exit 1; }
  echo "bench.sh: pkg/ is missing or being written; waiting (${i}0 s)" >&2
  sleep 10
done
export BENCH_PKG="$snap"
if [ "$build" = 1 ] && [ -z "$at" ]; then
  commit="$(git rev-parse --short HEAD)"
  if [ -n "$(git status --porcelain -- src Cargo.toml Cargo.lock build.rs pkg-template scripts/build.sh 2>/dev/null)" ]; then
    commit="$commit + local changes"
  fi
  export BENCH_COMMIT="$commit"
fi

echo "== npm install (bench/: idb-keyval, localforage, dexie, playwright-core; dev only)"
(cd bench && npm install --no-audit --no-fund --loglevel=error)

day="$(date -u +%F)"
# bench/results/<day>-<what>, with -2, -3... when that name is taken.
name_for() {
  local n="$day-$1" i=2
  while [ -e "bench/results/$n.json" ] || [ -e "bench/results/$n.txt" ]; do n="$day-$1-$i"; i=$((i + 1)); done
  echo "$n"
}
run() { # run <what> <command...>: its output to the terminal and to bench/results/<name>.txt
  local name="$1"; shift
  echo "== $* (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
  "$@" 2>&1 | tee "bench/results/$name.txt"
}
mkdir -p bench/results
written=()
if has speed; then
  for b in "${backends[@]}"; do
    n="$(name_for "speed-$b")"
    # A budget of 25 minutes a backend (bench/run.mjs stops its 100 000-entry rounds when the next
    # would not fit, and does at most 3): three rounds at 100 000 even on a loaded machine, where a
    # round can take 5 minutes; on a quiet one the three fit in about 14. Options after `--` come
    # first and win.
    BENCH_START_MS="$(date +%s%3N)" IDB_BACKEND="$b" run "$n" node bench/run.mjs --name "$n" ${passthrough[@]+"${passthrough[@]}"} --budget-s 1500
    written+=("$n")
  done
fi
if has startup; then
  n="$(name_for startup)"
  run "$n" node bench/startup.mjs --name "$n" ${startup_args[@]+"${startup_args[@]}"} ${passthrough[@]+"${passthrough[@]}"}
  written+=("$n")
fi
if has size; then
  n="$(name_for size)"
  run "$n" node bench/size.mjs --name "$n"
  written+=("$n")
fi
if has scale; then
  n="$(name_for scale)"
  run "$n" node bench/scale.mjs ${passthrough[@]+"${passthrough[@]}"}
  written+=("$n")
fi
elapsed=$(( $(date +%s) - T0 ))
echo "bench.sh: ${parts[*]} in $elapsed s; wrote ${written[*]/%/.txt} in bench/results/"
if [ "$full" = 1 ]; then
  # The whole command's time, for the page.
  printf '{ "date": "%s", "commit": "%s", "elapsedS": %s, "build": %s, "parts": "%s", "load": "%s" }\n' \
    "$(date -u +%FT%TZ)" "${BENCH_COMMIT:-HEAD when run}" "$elapsed" "$build" "${parts[*]}" \
    "$(cut -d' ' -f1-3 /proc/loadavg)" > "bench/results/$(name_for bench-sh).json"
fi
if [ "$report" = 1 ] && { has speed || has startup || has size; }; then
  node bench/report.mjs
fi
