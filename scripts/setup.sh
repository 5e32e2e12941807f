#!/usr/bin/env bash
# Installs everything the build and the tests need, skipping what is already there.
# Safe to rerun; works with no stdin and CI=true. Needs: Debian 12, rustup (cargo), node + npm.
# Each step prints one line: "ok <thing> (already there)" or "installing <thing>...".
# `--demo`: only what the build and the demo need (steps 1, 3, 4, 6); the browsers, geckodriver
# and Redis (steps 2, 5, 7) are the tests' (scripts/demo.sh passes it).
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

# 1. The wasm target for the Rust toolchain in use.
# (grep without -q reads all its input, so pipefail never sees a SIGPIPE'd writer.)
if rustup target list --installed | grep -x wasm32-unknown-unknown >/dev/null; then
  echo "ok rust target wasm32-unknown-unknown (already there)"
else
  echo "installing rust target wasm32-unknown-unknown..."
  rustup target add wasm32-unknown-unknown </dev/null
fi

# 2. The browsers and their WebDriver servers, from Debian: Chromium + chromedriver (browser suite,
#    page tests), Firefox ESR (geckodriver comes from cargo, step 5), WebKitGTK's WebKitWebDriver
#    with its MiniBrowser, and Xvfb for it (WebKitGTK has no headless mode).
if ! $demo_only; then
missing_debs=()
for deb in chromium chromium-driver firefox-esr webkit2gtk-driver xvfb xauth; do
  dpkg -s "$deb" 2>/dev/null | grep '^Status: install ok installed' >/dev/null || missing_debs+=("$deb")
done
if [ "${#missing_debs[@]}" -eq 0 ]; then
  echo "ok chromium, chromium-driver, firefox-esr, webkit2gtk-driver, xvfb, xauth (already there)"
else
  echo "installing ${missing_debs[*]} (apt)..."
  # apt-get update only when the package lists are missing or a day old, or the install failed
  # on stale lists.
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
    as_root apt-get update -q </dev/null
    as_root apt-get install -y -q "${missing_debs[@]}" </dev/null
  elif ! as_root apt-get install -y -q "${missing_debs[@]}" </dev/null; then
    as_root apt-get update -q </dev/null
    as_root apt-get install -y -q "${missing_debs[@]}" </dev/null
  fi
fi
fi

# 3. wasm-bindgen-cli at exactly the version of the wasm-bindgen crate in Cargo.lock: wasm-pack and
#    the test runner refuse other versions and would try to download one (no downloads here).
if [ ! -f Cargo.lock ]; then
  cargo generate-lockfile </dev/null
fi
wb_want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/^version = "|"$/, ""); print; exit }' Cargo.lock)"
[ -n "$wb_want" ] || die "could not find the wasm-bindgen version in Cargo.lock"
wb_have="$( (wasm-bindgen --version 2>/dev/null || true) | awk '{ print $2 }')"
if [ "$wb_have" = "$wb_want" ]; then
  echo "ok wasm-bindgen-cli $wb_want (already there)"
else
  echo "installing wasm-bindgen-cli $wb_want (was: ${wb_have:-none}; cargo install, a few minutes)..."
  # Not --locked: its lockfile wants a crate version the registry mirror lacks (TOOLCHAIN.md #1).
  cargo install wasm-bindgen-cli --version "$wb_want" --force </dev/null
fi

# 4. wasm-pack.
if command -v wasm-pack >/dev/null; then
  echo "ok wasm-pack (already there: $(wasm-pack --version 2>/dev/null | head -n 1))"
else
  echo "installing wasm-pack (cargo install, a few minutes)..."
  cargo install wasm-pack --locked </dev/null
fi

# 5. geckodriver, Firefox's WebDriver server (the npm package of that name downloads a binary
#    from a host this machine cannot reach; crates.io has the source).
GECKODRIVER_VERSION=0.37.0
if $demo_only; then
  :
elif [ "$( (geckodriver --version 2>/dev/null || true) | awk 'NR == 1 { print $2 }')" = "$GECKODRIVER_VERSION" ]; then
  echo "ok geckodriver $GECKODRIVER_VERSION (already there)"
else
  echo "installing geckodriver $GECKODRIVER_VERSION (cargo install, a few minutes)..."
  cargo install geckodriver --version "$GECKODRIVER_VERSION" --force </dev/null
fi

# 6. The root npm dev dependencies: binaryen (a wasm-opt that runs on node; Debian's binaryen 108
#    produces modules that fail to load, TOOLCHAIN.md #5), esbuild (minifies the package's JS),
#    playwright-core (page tests), typescript (the typings check) and TanStack Query's core and
#    persisters (tests/page/tanstack.test.mjs, tests/types) and React (examples/react-watch,
#    tests/page/react-watch.test.mjs), all pinned in package-lock.json.
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
  npm ci --no-audit --no-fund </dev/null
else
  echo "installing npm dev dependencies (npm install)..."
  npm install --no-audit --no-fund </dev/null
fi

wasm_opt="$(command -v wasm-opt || true)"
case "$wasm_opt" in
  "$ROOT/node_modules/.bin/wasm-opt") ;;
  *) die "wasm-opt on PATH is '${wasm_opt:-none}', expected the npm one in node_modules/.bin" ;;
esac

if $demo_only; then
  echo "setup: the demo needs no more (--demo); scripts/test.sh installs the browsers, geckodriver and Redis"
  exit 0
fi

# 7. examples/redis-handoff: Debian's redis-server (the example's tests start their own on a free
#    port) and the example's npm dependency (the `redis` client), from its package-lock.json.
#    (Added for examples/redis-handoff; nothing above depends on it.)
if dpkg -s redis-server 2>/dev/null | grep '^Status: install ok installed' >/dev/null; then
  echo "ok redis-server (already there: $(redis-server --version | awk '{ sub(/^v=/, "", $3); print $3 }'))"
else
  echo "installing redis-server (apt)..."
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null)" ]; then
    as_root apt-get update -q </dev/null
    as_root apt-get install -y -q redis-server </dev/null
  elif ! as_root apt-get install -y -q redis-server </dev/null; then
    as_root apt-get update -q </dev/null
    as_root apt-get install -y -q redis-server </dev/null
  fi
  # Debian starts a system-wide redis on port 6379 where it can; the tests need none (they run
  # their own), so leave it as the package set it up.
fi
handoff_dir="examples/redis-handoff"
handoff_stamp="$handoff_dir/node_modules/.package-lock.json"   # npm rewrites it on every install
if [ -f "$handoff_stamp" ] && [ -f "$handoff_dir/node_modules/redis/package.json" ] \
   && ! [ "$handoff_dir/package-lock.json" -nt "$handoff_stamp" ] \
   && ! [ "$handoff_dir/package.json" -nt "$handoff_stamp" ]; then
  echo "ok $handoff_dir npm dependencies (already there: redis $(node -p "require('./$handoff_dir/node_modules/redis/package.json').version"))"
else
  echo "installing $handoff_dir npm dependencies (npm ci)..."
  (cd "$handoff_dir" && npm ci --no-audit --no-fund </dev/null)
fi
