#!/usr/bin/env bash
# Installs everything the build and the tests need, skipping what is already there.
# Safe to rerun; works with no stdin and CI=true. Needs: Debian 12, rustup (cargo), node + npm.
# Each step prints one line: "ok <thing> (already there)" or "installing <thing>...".
# `--demo`: only what the build and the demo need (steps 1, 3, 4, 6); the browsers, geckodriver
# and Redis (steps 2, 5, 7) are the tests' (scripts/demo.sh passes it).
#
# What is missing is found first; then the installs run side by side, since they wait on
# different things: apt (steps 2 and 7, one apt-get run) on the network and the disk, the
# `cargo install`s (steps 3-5) on the CPU, npm (step 6 and 7's example) on the network. Each runs
# in the background with its output in target/setup-logs/<step>.log and prints "done <thing>
# (N s)" when it ends. Setup waits for every one; if any fails it says which, shows the end of
# that log, and exits non-zero.
set -euo pipefail

demo_only=false
[ "${1:-}" = "--demo" ] && demo_only=true

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"
export DEBIAN_FRONTEND=noninteractive

die() { echo "setup: $*" >&2; exit 1; }

for tool in rustup cargo node npm; do
  command -v "$tool" >/dev/null || die "'$tool' not found: install rustup (Rust) and node 20+ first (see README Requirements)"
done

# Runs a command as root (this machine kind runs as root; sudo elsewhere).
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null; then sudo -n "$@"
  else die "need root for: $*"
  fi
}

deb_installed() { dpkg -s "$1" 2>/dev/null | grep '^Status: install ok installed' >/dev/null; }

# ---- background steps -------------------------------------------------------------------------
LOG_DIR="$ROOT/target/setup-logs"
declare -A job_name=() job_log=() job_t0=()
# start_job <log name> <step name> <command...>: runs the command in the background (its own
# process group, no stdin, output to target/setup-logs/<log name>.log).
start_job() {
  local log="$LOG_DIR/$1.log" name="$2"
  shift 2
  mkdir -p "$LOG_DIR"
  set -m
  "$@" </dev/null >"$log" 2>&1 &
  set +m
  job_name[$!]="$name"
  job_log[$!]="$log"
  job_t0[$!]=$SECONDS
}
# Setup stopped early (an error here, Ctrl-C): stop the steps still running, by their process group.
stop_jobs() {
  local pid
  for pid in "${!job_name[@]}"; do
    kill -TERM -- "-$pid" 2>/dev/null || true
  done
}
trap stop_jobs EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# Waits for every step started, in the order they end; reports each; exits 1 if any failed.
wait_jobs() {
  local pid rc failed=()
  while [ "${#job_name[@]}" -gt 0 ]; do
    pid=""
    if wait -n -p pid "${!job_name[@]}"; then rc=0; else rc=$?; fi
    [ -n "$pid" ] || die "lost track of a background step (wait -n returned $rc)"
    if [ "$rc" -eq 0 ]; then
      echo "done ${job_name[$pid]} ($((SECONDS - job_t0[$pid])) s)"
    else
      failed+=("${job_name[$pid]}")
      {
        echo "setup: FAILED: ${job_name[$pid]} (exit $rc after $((SECONDS - job_t0[$pid])) s); the end of its log, ${job_log[$pid]#"$ROOT"/}:"
        tail -n 40 "${job_log[$pid]}" | sed 's/^/  | /'
      } >&2
    fi
    unset "job_name[$pid]"
  done
  [ "${#failed[@]}" -eq 0 ] || die "${#failed[@]} step(s) failed: $(printf "%s; " "${failed[@]}")full logs in ${LOG_DIR#"$ROOT"/}/"
}

# ---- 1. The wasm target for the Rust toolchain in use (seconds; in the foreground) -------------
# (grep without -q reads all its input, so pipefail never sees a SIGPIPE'd writer.)
if rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
  echo "ok rust target wasm32-unknown-unknown (already there)"
else
  echo "installing rust target wasm32-unknown-unknown..."
  rustup target add wasm32-unknown-unknown </dev/null
fi

# ---- 2 and 7. Debian packages: one apt-get run, in the background ------------------------------
# 2: the browsers and their WebDriver servers: Chromium + chromedriver (browser suite), Chromium's
#    headless shell (page tests; the browser suite on SQLite and the lite build), Firefox ESR
#    (geckodriver comes from cargo, step 5), WebKitGTK's WebKitWebDriver with its MiniBrowser, and
#    Xvfb for it (WebKitGTK has no headless mode).
# 7: examples/redis-handoff: Debian's redis-server (the example's tests start their own on a free
#    port; Debian starts a system-wide one on 6379 where it can, left as the package sets it up).
missing_debs=()
if ! $demo_only; then
  browser_debs=(chromium chromium-headless-shell chromium-driver firefox-esr webkit2gtk-driver xvfb xauth)
  missing_browsers=()
  for deb in "${browser_debs[@]}"; do
    deb_installed "$deb" || missing_browsers+=("$deb")
  done
  if [ "${#missing_browsers[@]}" -eq 0 ]; then
    echo "ok chromium, chromium-headless-shell, chromium-driver, firefox-esr, webkit2gtk-driver, xvfb, xauth (already there)"
  else
    echo "installing ${missing_browsers[*]} (apt)..."
    missing_debs+=("${missing_browsers[@]}")
  fi
  if deb_installed redis-server; then
    echo "ok redis-server (already there: $(redis-server --version | awk '{ sub(/^v=/, "", $3); print $3 }'))"
  else
    echo "installing redis-server (apt)..."
    missing_debs+=(redis-server)
  fi
fi
apt_install() {
  # apt-get update only when the package lists are missing or a day old, or the install failed
  # on stale lists.
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
    as_root apt-get update -q
    as_root apt-get install -y -q "$@"
  elif ! as_root apt-get install -y -q "$@"; then
    as_root apt-get update -q
    as_root apt-get install -y -q "$@"
  fi
}
if [ "${#missing_debs[@]}" -gt 0 ]; then
  start_job apt "apt: ${missing_debs[*]}" apt_install "${missing_debs[@]}"
fi

# ---- 3, 4, 5. Tools built from crates.io: cargo install, in the background ---------------------
# 3. wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock: wasm-pack and
#    the test runner refuse other versions and would try to download one (no downloads here).
if [ ! -f Cargo.lock ]; then
  cargo generate-lockfile </dev/null
fi
wb_want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/^version = "|"$/, ""); print; exit }' Cargo.lock)"
[ -n "$wb_want" ] || die "could not find the wasm-bindgen version in Cargo.lock"
wb_have="$( (wasm-bindgen --version 2>/dev/null || true) | awk '{ print $2 }')"
need_wb=false
if [ "$wb_have" = "$wb_want" ]; then
  echo "ok wasm-bindgen-cli $wb_want (already there)"
else
  echo "installing wasm-bindgen-cli $wb_want (was: ${wb_have:-none}; cargo install, a few minutes)..."
  need_wb=true
fi

# 4. wasm-pack.
need_wp=false
if command -v wasm-pack >/dev/null; then
  echo "ok wasm-pack (already there: $(wasm-pack --version 2>/dev/null | head -n 1))"
else
  echo "installing wasm-pack (cargo install, a few minutes)..."
  need_wp=true
fi

# 5. geckodriver, Firefox's WebDriver server (the npm package of that name downloads a binary
#    from a host this machine cannot reach; crates.io has the source).
GECKODRIVER_VERSION=0.37.0
need_gd=false
if $demo_only; then
  :
elif [ "$( (geckodriver --version 2>/dev/null || true) | awk 'NR == 1 { print $2 }')" = "$GECKODRIVER_VERSION" ]; then
  echo "ok geckodriver $GECKODRIVER_VERSION (already there)"
else
  echo "installing geckodriver $GECKODRIVER_VERSION (cargo install, a few minutes)..."
  need_gd=true
fi

# The missing ones build one after another in one background step, in one shared target dir, so
# the crates they have in common at the same version, features and opt-level compile once (build
# scripts and proc macros, which cargo builds unoptimised for all three; and what wasm-pack and
# geckodriver share at opt-level 0). One cargo at a time already keeps both cores busy; the apt
# and npm steps run beside it. The shared dir is removed when all built.
# They are not built at the release profile's opt-level 3: on a fresh machine their compile was
# most of setup (590 s of its 596), for tools that mostly wait. wasm-bindgen (and its test runner)
# processes MBs of wasm, so the crates that do that work (walrus, wasmparser, wasm-encoder, the
# CLI's support crates: `hot` below) get opt-level 1, and the rest of it (clap, serde, the HTTP
# server of the test runner...) 0 like wasm-pack (which runs cargo, wasm-bindgen and wasm-opt) and
# geckodriver (which relays WebDriver commands), which do next to no work of their own. Measured
# alone on 2 idle cores: wasm-bindgen-cli 184 s (354 s of CPU) all at opt-level 1, 127 s (236 s)
# so; wasm-bindgen on the browser suite's 45 MB test wasm 1.8 s instead of 1.15 s (7.7 MB, as
# scripts/test.sh builds it: 1.6 s instead of 1.0), run twice per browser stage.
# wasm-bindgen-cli without its default `rustls-tls` feature: its test runner only talks plain HTTP
# to the WebDriver servers on 127.0.0.1.
cargo_tools() {
  export CARGO_TARGET_DIR="$ROOT/target/setup-tools"
  if $need_wb; then
    # Not --locked: its lockfile wants a crate version the registry mirror lacks (TOOLCHAIN.md #1).
    local hot=(walrus wasmparser wasm-encoder gimli hashbrown leb128 id-arena wasm-bindgen-cli
      wasm-bindgen-cli-support wasm-bindgen-wasm-interpreter wasm-bindgen-externref-xform
      wasm-bindgen-multi-value-xform wasm-bindgen-wasm-conventions wasm-bindgen-threads-xform)
    local config=() crate
    for crate in "${hot[@]}"; do config+=(--config "profile.release.package.$crate.opt-level=1"); done
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install wasm-bindgen-cli --version "$wb_want" --no-default-features --force "${config[@]}"
  fi
  if $need_wp; then
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install wasm-pack --locked
  fi
  if $need_gd; then
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 cargo install geckodriver --version "$GECKODRIVER_VERSION" --force
  fi
  rm -rf "$CARGO_TARGET_DIR"
}
cargo_names=()
$need_wb && cargo_names+=("wasm-bindgen-cli $wb_want")
$need_wp && cargo_names+=("wasm-pack")
$need_gd && cargo_names+=("geckodriver $GECKODRIVER_VERSION")
if [ "${#cargo_names[@]}" -gt 0 ]; then
  start_job cargo "cargo install: $(IFS=,; echo "${cargo_names[*]}" | sed 's/,/, /g')" cargo_tools
fi

# ---- 6. The root npm dev dependencies, in the background ----------------------------------------
#    binaryen (a wasm-opt that runs on node; Debian's binaryen 108 produces modules that fail to
#    load, TOOLCHAIN.md #5), esbuild (minifies the package's JS), playwright-core (page tests),
#    typescript (the typings check) and TanStack Query's core and persisters
#    (tests/page/tanstack.test.mjs, tests/types) and React (tests/page/react-hooks.test.mjs),
#    all pinned in package-lock.json.
npm_stamp="node_modules/.package-lock.json"   # npm rewrites it on every install
npm_fresh=1
for f in node_modules/.bin/wasm-opt node_modules/.bin/tsc node_modules/.bin/esbuild node_modules/playwright-core/package.json node_modules/@gfx/zopfli/package.json node_modules/@tanstack/query-persist-client-core/package.json node_modules/react-dom/package.json "$npm_stamp"; do
  [ -e "$f" ] || npm_fresh=0
done
if [ "$npm_fresh" -eq 1 ]; then
  for f in package.json package-lock.json; do
    if [ -e "$f" ] && [ "$f" -nt "$npm_stamp" ]; then npm_fresh=0; fi
  done
fi
if [ "$npm_fresh" -eq 1 ]; then
  echo "ok npm dev dependencies (already there: wasm-opt $(wasm-opt --version | awk '{ print $3 }'), esbuild, playwright-core, typescript)"
elif [ -f package-lock.json ]; then
  echo "installing npm dev dependencies (npm ci)..."
  start_job npm "npm dev dependencies" npm ci --no-audit --no-fund
else
  echo "installing npm dev dependencies (npm install)..."
  start_job npm "npm dev dependencies" npm install --no-audit --no-fund
fi

# ---- 7. examples/redis-handoff's npm dependency (the `redis` client), from its lockfile --------
#    (redis-server is in the apt run above; nothing else depends on this step.)
if ! $demo_only; then
  handoff_dir="examples/redis-handoff"
  handoff_stamp="$handoff_dir/node_modules/.package-lock.json"   # npm rewrites it on every install
  if [ -f "$handoff_stamp" ] && [ -f "$handoff_dir/node_modules/redis/package.json" ] \
     && ! [ "$handoff_dir/package-lock.json" -nt "$handoff_stamp" ] \
     && ! [ "$handoff_dir/package.json" -nt "$handoff_stamp" ]; then
    echo "ok $handoff_dir npm dependencies (already there: redis $(node -p "require('./$handoff_dir/node_modules/redis/package.json').version"))"
  else
    echo "installing $handoff_dir npm dependencies (npm ci)..."
    start_job npm-redis-handoff "$handoff_dir npm dependencies" bash -c 'cd "$1" && npm ci --no-audit --no-fund' - "$handoff_dir"
  fi
fi

# ---- Wait for every background step, then check what the build relies on ----------------------
wait_jobs

wb_now="$( (wasm-bindgen --version 2>/dev/null || true) | awk '{ print $2 }')"
[ "$wb_now" = "$wb_want" ] || die "wasm-bindgen on PATH is '${wb_now:-none}', expected $wb_want (Cargo.lock)"
wasm_opt="$(command -v wasm-opt || true)"
case "$wasm_opt" in
  "$ROOT/node_modules/.bin/wasm-opt") ;;
  *) die "wasm-opt on PATH is '${wasm_opt:-none}', expected the npm one in node_modules/.bin" ;;
esac

if $demo_only; then
  echo "setup: the demo needs no more (--demo); scripts/test.sh installs the browsers, geckodriver and Redis"
fi
