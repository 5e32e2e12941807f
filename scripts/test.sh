#!/usr/bin/env bash
# Sets up everything, then runs every test, stopping at the first failing stage:
#   1. scripts/setup.sh                      installs what is missing (browsers, drivers, tools)
#   2. cargo test                            host: the pure core, property tests at a fixed seed;
#                                            in the third lane of step 3, before step 4
#   3. the browser suite (tests/browser.rs; tests/browser_sw.rs runs part of it inside a service
#      worker) under wasm-pack test --headless, in three engines:
#      Chromium (chromedriver), Firefox ESR (geckodriver), WebKitGTK (WebKitWebDriver, Xvfb),
#      Chromium again on its SQLite IndexedDB backend (IdbSqliteBackingStore), and the key-value
#      tests against the lite build (--no-default-features) in Chromium; built once, then run in
#      lanes side by side (Chromium on both backends and lite | Firefox, WebKit), each stage
#      bounded by progress (scripts/stall-guard.mjs), not by time
#   4. scripts/build.sh                      the release package pkg/ (and www/pkg/), size budget;
#                                            in a third lane beside the browser suite
#   5. tsc -p tests/types                    typings: README examples compile, misuse fails
#   6. node --test tests/page/               the demo: Chromium (playwright-core); essentials in
#                                            Firefox and WebKit (WebDriver); as many files at a
#                                            time as the machine's idle cores take, from the
#                                            moment step 4 has made pkg/, beside the browser
#                                            suite still running and the docs check
#                                            (scripts/docs.sh); then, once all else has ended,
#                                            the three that time the page, alone
#   7. node --test tests/package/            the packed npm tarball in a Vite 8/7 app (dev, build,
#                                            worker), Node SSR, a plain module page; the React
#                                            app (examples/react-watch, Vite, React 19 and 18)
#                                            in two tabs of Chromium, Firefox and WebKit, and SSR;
#                                            the Vue and Svelte apps (examples/vue-watch,
#                                            examples/svelte-watch, esbuild) likewise;
#                                            in one pool of files with step 6
# Each runner's output is shown as it is, and kept in target/test-logs/<stage>.log. The last line
# is "summary: N passed, M failed", summed over the stages that count tests.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

# The runner's limit is for the whole browser suite, not one test (its default, 20 s, is too short),
# so any fixed figure is a bound on the machine's speed: a suite that took 150 s on a quiet machine
# ran past 300 s beside other work. It is set far above any run here; what stops a hung browser
# stage is scripts/stall-guard.mjs (below), which ends it after BROWSER_STALL_S without output.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-5400}"

# The test builds (host and wasm32, the dev profile) without debug info: the browsers run the test
# wasm without reading its DWARF (a panic still names its file and line, from the panic's own
# location), which made the browser suite's wasm 45 MB instead of 7.7 MB. Measured on 2 idle
# cores: its build 68 s (125 s of CPU) -> 55 s (96 s), and each browser run loads and wasm-bindgen
# processes the smaller file (Firefox's service-worker target: 27 -> 23 s of CPU). Set
# CARGO_PROFILE_DEV_DEBUG to keep it.
export CARGO_PROFILE_DEV_DEBUG="${CARGO_PROFILE_DEV_DEBUG:-0}"

LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"
rm -f "$LOGS"/*.log

total_passed=0
total_failed=0
breakdown=()
t_all=$SECONDS

# Counts from cargo/libtest "test result: ok. 3 passed; 0 failed; 1 ignored; ..." lines (several
# per run: one per test binary and doc-tests). Prints "passed failed ignored".
count_libtest() {
  awk '/^test result: / {
         for (i = 1; i <= NF; i++) {
           if ($(i+1) ~ /^passed;?$/)  p += $i
           if ($(i+1) ~ /^failed;?$/)  f += $i
           if ($(i+1) ~ /^ignored;?$/) g += $i
         }
       }
       END { printf "%d %d %d\n", p, f, g }' "$1"
}

# Counts from node's test runner summary, TAP ("# pass 3") or spec ("ℹ pass 3").
count_node() {
  awk '/^(# |ℹ )pass [0-9]+$/    { p = $3 }
       /^(# |ℹ )fail [0-9]+$/    { f = $3 }
       /^(# |ℹ )skipped [0-9]+$/ { g = $3 }
       END { printf "%d %d %d\n", p, f, g }' "$1"
}

# summary [failed-stage]: the per-stage counts, then the closing line.
summary() {
  echo "== test.sh: ${breakdown[*]:-no test stage ran} ($((SECONDS - t_all)) s)"
  if [ -n "${1:-}" ] && [ "$total_failed" -eq 0 ]; then
    # A build or runner error, not a failing test: say so rather than print "0 failed".
    echo "summary: ${total_passed} passed before stage '$1' failed to complete"
  else
    echo "summary: ${total_passed} passed, ${total_failed} failed"
  fi
}

# run_stage <name> <counter|-> <command...>: runs the command with its output shown and logged;
# adds its counts to the totals; on failure prints where to look and exits with its status.
run_stage() {
  local name="$1" counter="$2"
  shift 2
  local log="$LOGS/$name.log" t0=$SECONDS rc=0
  echo
  echo "== test.sh [$name]: $*"
  set +e
  # The CPU the stage used, printed with its wall time: the machine is busy through most of the
  # command, so what the stages use sets its wall time. Counted in a cgroup of the stage's own
  # where the system lets this user make one (stage_cgroup below): every process the stage
  # started, the browsers included; elsewhere by `times` (the processes waited for: compilers,
  # node and what it waits for; not a browser its WebDriver leaves to exit on its own).
  ( stage_cgroup_enter "$name"; "$@" </dev/null; r=$?; times >"$log.cpu"; exit $r ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  if [ "$rc" -ne 0 ] && [ -n "${RETRY_IF:-}" ] && "$RETRY_IF" "$log"; then
    mv "$log" "$LOGS/$name.first-try.log"
    echo "== test.sh [$name]: no test ran in a target whose page never loaded ($RETRY_IF; first try kept in ${LOGS#"$ROOT"/}/$name.first-try.log): running the stage once more"
    ( stage_cgroup_enter "$name"; "$@" </dev/null; r=$?; times >"$log.cpu"; exit $r ) 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
  fi
  set -e
  if [ "$counter" != "-" ]; then
    local p f g
    read -r p f g < <("$counter" "$log")
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
    breakdown+=("$name: $p passed, $f failed, $g ignored;")
    # Under CI a skipped page or package test is a failure, not a count: a green run must not
    # hide a part that did not run (no Redis, no Firefox, no release fixture).
    if [ "${CI:-}" = true ] && [ -n "${NO_SKIPS:-}" ] && [ "$g" -gt 0 ] && [ "$rc" -eq 0 ]; then
      echo
      echo "== test.sh [$name]: $g test(s) skipped, and CI=true counts a skip as a failure:"
      grep -E '# SKIP|^ *﹣ ' "$log" || true
      total_failed=$((total_failed + g))
      rc=1
    fi
  fi
  if [ "$rc" -ne 0 ]; then
    echo
    echo "== test.sh: stage '$name' FAILED (exit $rc) after $((SECONDS - t0)) s; full log: ${log#"$ROOT"/}"
    summary "$name"
    exit "$rc"
  fi
  echo "== test.sh [$name]: ok ($((SECONDS - t0)) s, CPU $(stage_cpu "$name" "$log.cpu"))"
}

# A cgroup per stage, for its CPU: cgroup v1's cpuacct (cpuacct.usage, ns) or v2 (cpu.stat's
# usage_usec), under a directory of this run's own, removed at exit. Where neither can be made or
# entered (no root, a read-only /sys/fs/cgroup), the stages run as they are and `times` counts.
STAGE_CGROUPS=""
for base in /sys/fs/cgroup/cpuacct /sys/fs/cgroup/unified /sys/fs/cgroup; do
  if [ -f "$base/cgroup.procs" ] && { [ -f "$base/cpuacct.usage" ] || [ -f "$base/cgroup.controllers" ]; } \
     && mkdir "$base/idb-ttl-test.$$" 2>/dev/null; then
    STAGE_CGROUPS="$base/idb-ttl-test.$$"
    break
  fi
done
stage_cgroups_remove() {
  [ -n "$STAGE_CGROUPS" ] || return 0
  rmdir "$STAGE_CGROUPS"/*/ "$STAGE_CGROUPS" 2>/dev/null || true
}
trap stage_cgroups_remove EXIT
# Moves the calling (sub)shell into stage $1's cgroup; what it starts from then on is counted there.
stage_cgroup_enter() {
  [ -n "$STAGE_CGROUPS" ] || return 0
  mkdir -p "$STAGE_CGROUPS/$1" 2>/dev/null && echo "$BASHPID" > "$STAGE_CGROUPS/$1/cgroup.procs" 2>/dev/null || true
}
# stage_cpu <name> <times file>: "N s" of CPU, from the stage's cgroup if it holds any, else from `times`.
stage_cpu() {
  local cg="$STAGE_CGROUPS/$1" ns=""
  if [ -n "$STAGE_CGROUPS" ] && [ -d "$cg" ]; then
    if [ -f "$cg/cpuacct.usage" ]; then ns=$(cat "$cg/cpuacct.usage")
    elif [ -f "$cg/cpu.stat" ]; then ns=$(awk '$1 == "usage_usec" { printf "%d000", $2 }' "$cg/cpu.stat")
    fi
  fi
  if [ -n "$ns" ] && [ "$ns" -gt 0 ]; then echo "$((ns / 1000000000)) s"
  else echo "$(cpu_secs "$2") s"
  fi
}
if [ -n "$STAGE_CGROUPS" ]; then
  echo "== test.sh: each stage's CPU is counted in a cgroup of its own ($STAGE_CGROUPS/<stage>): every process it started, browsers included"
fi

# `times`' second line, its children's ("1m2.500s 0m3.250s": user, system), as whole seconds of
# CPU. (`times` writes to a file: in a pipeline it would run in a subshell that has no children.)
cpu_secs() {
  awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t }' "$1" 2>/dev/null || echo "?"
}

run_stage setup - bash scripts/setup.sh

# cargo test (the host: the pure core, property tests at a fixed seed) runs in the build lane
# below, in a target dir of its own (target/host), so it never holds the lock of the directory the
# browser lanes' cargo uses.

# The test runner picks GECKODRIVER over SAFARIDRIVER over CHROMEDRIVER when several are set
# (TOOLCHAIN.md): each engine's stage sets only its own.
#
# Each engine's run is bounded by progress, not by time: the runner prints a line as each test
# ends, and scripts/stall-guard.mjs stops a stage that printed nothing for BROWSER_STALL_S (no
# test takes a tenth of that, even on a loaded machine), so a page that never loads or a test
# that never ends cannot hold the CI job, and a slow machine is never cut off while it works.
#
# Why a page can fail to load: the runner's HTTP server (tiny_http 0.12 under rouille) hands each
# new connection to a thread pool that can queue one behind a thread busy holding an idle
# keep-alive connection, so a request on it is not read until some connection closes. Firefox
# opens connections in pairs when a service worker loads its modules (browser_sw), and keeps idle
# ones 115 s: 9 of 20 runs of that target had two snippet requests answered only when Firefox
# quit at the timeout (seen in CI as "threw an exception during script evaluation" or as no test
# run at all). tests/webdriver-firefox.json closes Firefox's idle connections after 1 s, which
# frees the pool's threads: 20 of 20 runs passed, the queued requests answered within 2 s.
BROWSER_STALL_S=600
STALL_GUARD=(node "$ROOT/scripts/stall-guard.mjs" "$BROWSER_STALL_S" --)
# The same starvation reached Chromium's browser_sw in 3 of 4 clean-clone runs, and Chromium has
# no setting for how long it keeps idle connections: it reaches the runner's server through
# scripts/runner-proxy.mjs, which opens a connection per request and closes it after the answer.
# And a browser stage runs once more when, and only when, one of its targets never started: the
# runner says "Failed to detect test as having been run", or the stall guard stopped it, and that
# target printed no "running N tests" line, nor did any test fail. A failing or hanging test is
# never retried.
page_never_loaded() {
  awk '/^ *Running tests\//            { started = 0 }
       /^running [0-9]+ tests?$/        { started = 1 }
       /^test .* \.\.\. FAILED$/      { failed = 1 }
       /^test result: FAILED/           { failed = 1 }
       /Failed to detect test as having been run/ { if (!started) hung = 1 }
       /^stall-guard: no output for/    { if (!started) hung = 1 }
       END { exit !(hung && !failed) }' "$1"
}
node "$ROOT/scripts/runner-proxy.mjs" > "$LOGS/runner-proxy.port" &
RUNNER_PROXY=$!
trap 'kill "$RUNNER_PROXY" 2>/dev/null || true; stage_cgroups_remove' EXIT
for _ in $(seq 100); do [ -s "$LOGS/runner-proxy.port" ] && break; sleep 0.1; done
[ -s "$LOGS/runner-proxy.port" ] || { echo "test.sh: scripts/runner-proxy.mjs did not start" >&2; exit 1; }
# chromium_caps <file> <binary> [flag...]: chromedriver's capabilities into <file>: Chromium at
# <binary>, through the runner's proxy, with the extra flags.
chromium_caps() {
  local file="$1" binary="$2" args flag
  shift 2
  args="\"proxy-server=http://127.0.0.1:$(cat "$LOGS/runner-proxy.port")\", \"proxy-bypass-list=<-loopback>\""
  for flag in "$@"; do args="$args, \"$flag\""; done
  printf '{ "goog:chromeOptions": { "binary": "%s", "args": [%s] } }\n' "$binary" "$args" > "$file"
}
chromium_caps "$LOGS/webdriver-chromium.json" /usr/bin/chromium
browser_chromium() {
  RETRY_IF=page_never_loaded run_stage browser-chromium count_libtest \
    env -u GECKODRIVER -u SAFARIDRIVER CHROMEDRIVER=/usr/bin/chromedriver \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$LOGS/webdriver-chromium.json" \
    "${STALL_GUARD[@]}" wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver -- --test browser --test browser_sw
}
# Chrome is rolling out a SQLite IndexedDB backend for new data: the same suite on it. This lane
# and the lite one run in Chromium's headless shell (chromium-headless-shell: the same Blink, V8
# and IndexedDB backends without the browser UI, as the page tests do; CONTRIBUTING.md, "Which
# Chromium"); the full Chromium runs the suite on LevelDB above.
chromium_caps "$LOGS/webdriver-chromium-sqlite.json" /usr/bin/chromium-headless-shell \
  enable-features=IdbSqliteBackingStore,IdbSqliteOnDiskRollout
chromium_caps "$LOGS/webdriver-chromium-shell.json" /usr/bin/chromium-headless-shell
browser_chromium_sqlite() {
  RETRY_IF=page_never_loaded run_stage browser-chromium-sqlite count_libtest \
    env -u GECKODRIVER -u SAFARIDRIVER CHROMEDRIVER=/usr/bin/chromedriver \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$LOGS/webdriver-chromium-sqlite.json" \
    "${STALL_GUARD[@]}" wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver -- --test browser --test browser_sw
}
browser_firefox() {
  RETRY_IF=page_never_loaded run_stage browser-firefox count_libtest \
    env -u CHROMEDRIVER -u SAFARIDRIVER GECKODRIVER="$HOME/.cargo/bin/geckodriver" \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$ROOT/tests/webdriver-firefox.json" \
    "${STALL_GUARD[@]}" wasm-pack test --headless --firefox --geckodriver "$HOME/.cargo/bin/geckodriver" -- --test browser --test browser_sw
}
# WebKitGTK has no headless mode: the driver starts MiniBrowser inside a virtual X server.
browser_webkit() {
  RETRY_IF=page_never_loaded run_stage browser-webkit count_libtest \
    env -u CHROMEDRIVER -u GECKODRIVER SAFARIDRIVER=/usr/bin/WebKitWebDriver \
    "${STALL_GUARD[@]}" xvfb-run -a wasm-pack test --headless --safari --safaridriver /usr/bin/WebKitWebDriver -- --test browser --test browser_sw
}
# The lite entry's build (`--no-default-features`: the key-value store only) runs the suite's
# key-value tests (tests/browser.rs gates the rest on the `full` feature), and its own (lite.rs),
# in Chromium. The same key-value tests run in all three engines against the default build; what
# only the lite build can get wrong is the build (its features, its code paths), not an engine,
# and it ran in Firefox and WebKit as well until the test command had to fit in 25 minutes on a
# fresh machine (both were green in every run before; the lite package is still loaded in those
# engines by the page and package tests).
browser_chromium_lite() {
  RETRY_IF=page_never_loaded run_stage browser-chromium-lite count_libtest \
    env -u GECKODRIVER -u SAFARIDRIVER CHROMEDRIVER=/usr/bin/chromedriver \
    WASM_BINDGEN_TEST_WEBDRIVER_JSON="$LOGS/webdriver-chromium-shell.json" \
    "${STALL_GUARD[@]}" wasm-pack test --headless --chrome --chromedriver /usr/bin/chromedriver -- --no-default-features --features js --test browser --test browser_sw
}
# The page tests mostly wait (for expiries, reaper passes, reloads), each file on its own server
# (a free port), browser profile (a fresh directory) and Redis (a free port): they run
# PAGE_TEST_JOBS files at a time. By default that follows what the machine can take: one and a
# half files per core left idle by work outside the test command, measured over 2 s before the
# browser suites start (3 on an idle 2-core machine, 1 beside two CPU hogs), at least 1 and at most
# two per core. The files that measure the page's own timing run at the end, alone:
# jank.test.mjs fails on any long task (> 50 ms), which a renderer starved of CPU by other files'
# browsers shows without the page being at fault; demo-idle.test.mjs checks a session ends within
# a 200 ms tick of its time, and demo-views.test.mjs that each row leaves its view within 0.6 s of
# its expiry. Work outside the test command (another build, a CPU hog) would starve them the same
# way, so where the system allows it (root, or CAP_SYS_NICE) they run at a raised CPU priority
# (nice -10): what they time is then the page's own work, not the machine's other load.
# Tenths of a core left idle over 2 s (/proc/stat: the idle and iowait columns of the cpu line).
idle_tenths() {
  local a b c d e f g h t1 i1 t2 i2
  read -r _ a b c d e f g h _ < /proc/stat; t1=$((a + b + c + d + e + f + g + h)); i1=$((d + e))
  sleep 2
  read -r _ a b c d e f g h _ < /proc/stat; t2=$((a + b + c + d + e + f + g + h)); i2=$((d + e))
  echo $(( (i2 - i1) * $(nproc) * 10 / (t2 - t1 > 0 ? t2 - t1 : 1) ))
}
if [ -z "${PAGE_TEST_JOBS:-}" ]; then
  idle=$(idle_tenths)
  PAGE_TEST_JOBS=$(( (idle * 3 / 2 + 5) / 10 ))
  max_jobs=$(( 2 * $(nproc) ))
  [ "$PAGE_TEST_JOBS" -ge 1 ] || PAGE_TEST_JOBS=1
  [ "$PAGE_TEST_JOBS" -le "$max_jobs" ] || PAGE_TEST_JOBS=$max_jobs
  echo "== test.sh: $((idle / 10)).$((idle % 10)) of $(nproc) cores idle: the page tests run $PAGE_TEST_JOBS file(s) at a time (PAGE_TEST_JOBS sets it)"
fi
page_alone=(tests/page/jank.test.mjs tests/page/demo-idle.test.mjs tests/page/demo-views.test.mjs)
# node's runner starts files in the order given, so the longest start first (the pool then ends
# on short files, not on one long file with the other cores idle): the Leptos example (its cold
# build of Leptos, about 3.5 min), the package tests (npm installs, bundlers, three browsers:
# about 290 s), the Chromium hostile catalogue (its shards, 2 at a time: about 100 s alone), the
# React, Vue and Svelte examples (npm installs), quota and the crash tests. Every other file
# follows in name order.
page_first=(tests/package/leptos.test.mjs tests/package/package.test.mjs tests/page/chromium-hostile.test.mjs tests/package/react.test.mjs
  tests/package/vue.test.mjs tests/package/svelte.test.mjs
  tests/page/quota.test.mjs tests/page/crash.test.mjs tests/page/crash-sqlite.test.mjs)
page_shared=("${page_first[@]}")
for f in tests/page/*.test.mjs tests/package/*.test.mjs; do
  case " ${page_alone[*]} ${page_first[*]} " in *" $f "*) ;; *) page_shared+=("$f") ;; esac
done
# page_pool: the page and package tests but the timing files, in one pool of PAGE_TEST_JOBS. The
# package tests (tests/package/) share it: they mostly wait on npm, bundlers and browsers too. The
# crash test runs on both IndexedDB backends of Chromium (crash.test.mjs on LevelDB,
# crash-sqlite.test.mjs on SQLite).
page_pool() {
  NO_SKIPS=1 run_stage page-test count_node node --test --test-concurrency="$PAGE_TEST_JOBS" "${page_shared[@]}"
}

# Four lanes side by side: Chromium on both backends and the lite suite in Chromium in one,
# Firefox then WebKit in another, in the third the host tests, the release build
# (scripts/build.sh: pkg/ and www/pkg/, the size budgets) and the typings check, then, once that
# has made pkg/, the page and package tests in the foreground and the docs check (scripts/docs.sh)
# beside them. The browser suites and the page tests mostly wait on timers, IndexedDB and
# browsers, so the compiles fill the cores they leave idle; the release build uses the release
# profile's directories and the host tests their own target dir (cargo locks a profile's
# directory, not the whole target), so no lane waits on another's cargo. The timing files run
# last, once every lane has ended. Each lane's stages run one after another; a background lane's
# output is shown once it has ended; the stages' logs and counts are as for any stage.
# BROWSER_LANES=1 runs everything one after another instead.
counted_stages=(cargo-test browser-chromium browser-chromium-sqlite browser-firefox browser-webkit browser-chromium-lite)
build_lane() {
  run_stage cargo-test count_libtest env CARGO_TARGET_DIR="$ROOT/target/host" cargo test &&
  run_stage build - bash scripts/build.sh &&
  # The published declarations (pkg/index.d.ts) against the README's examples and known misuse.
  run_stage types - tsc -p tests/types
}
if [ "${BROWSER_LANES:-4}" = 1 ]; then
  run_stage cargo-test count_libtest env CARGO_TARGET_DIR="$ROOT/target/host" cargo test
  browser_chromium; browser_chromium_sqlite; browser_firefox; browser_webkit
  run_stage build - bash scripts/build.sh
  run_stage types - tsc -p tests/types
  run_stage docs - bash scripts/docs.sh
  browser_chromium_lite
  page_pool
else
  t_lanes=$SECONDS
  # The test binaries are built once, before the lanes start, so that no lane waits on another's
  # build (wasm-pack test builds, then runs).
  run_stage browser-build - cargo test --target wasm32-unknown-unknown --no-run --test browser --test browser_sw
  run_stage browser-build-lite - cargo test --target wasm32-unknown-unknown --no-run --no-default-features --features js --test browser --test browser_sw
  echo
  echo "== test.sh [lanes]: Chromium (LevelDB, SQLite, lite) | Firefox, WebKit | host tests, release build, typings, then the page tests and the docs check; background lanes' output below once they end"
  lanes=(lane-chromium lane-firefox-webkit lane-build)
  lane_outs=()
  for lane in "${lanes[@]}"; do lane_outs+=("$LOGS/$lane.out"); done
  ( browser_chromium && browser_chromium_sqlite && browser_chromium_lite ) > "$LOGS/lane-chromium.out" 2>&1 &
  lane_pids=($!)
  ( browser_firefox && browser_webkit ) > "$LOGS/lane-firefox-webkit.out" 2>&1 &
  lane_pids+=($!)
  # A stage that fails in the foreground ends the command: the lanes still running go with it.
  # (Each command of the trap may fail, a lane already gone: under set -e that would make the
  # command's exit status 1, so none may.)
  trap 'kill "$RUNNER_PROXY" 2>/dev/null || true; for p in "${lane_pids[@]}"; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; stage_cgroups_remove' EXIT
  build_rc=0
  # In a subshell, as the other lanes: a failing stage's exit ends the lane, not the command
  # before its output is shown; its counts are read back from the logs below.
  ( build_lane ) > "$LOGS/lane-build.out" 2>&1 || build_rc=$?
  cat "$LOGS/lane-build.out"
  if [ "$build_rc" -eq 0 ]; then
    run_stage docs - bash scripts/docs.sh > "$LOGS/lane-docs.out" 2>&1 &
    lane_pids+=($!)
    lane_outs+=("$LOGS/lane-docs.out")
    page_pool
  fi
  lane_rcs=()
  for pid in "${lane_pids[@]}"; do
    rc=0; wait "$pid" || rc=$?
    lane_rcs+=("$rc")
  done
  cat "$LOGS/lane-chromium.out" "$LOGS/lane-firefox-webkit.out"
  [ "$build_rc" -ne 0 ] || cat "$LOGS/lane-docs.out"
  # The lanes ran in subshells: their counts are read back from the stages' logs.
  failed_stage=""
  for name in "${counted_stages[@]}"; do
    log="$LOGS/$name.log"
    [ -f "$log" ] || continue
    read -r p f g < <(count_libtest "$log")
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
    breakdown+=("$name: $p passed, $f failed, $g ignored;")
  done
  for name in "${counted_stages[@]}" build types docs; do
    if grep -q "^== test.sh: stage '$name' FAILED" "${lane_outs[@]}"; then
      failed_stage="${failed_stage:+$failed_stage, }$name"
    fi
  done
  if [ "$build_rc" -ne 0 ] || [ "${lane_rcs[*]}" != "${lane_rcs[*]//[1-9]/}" ]; then
    echo
    echo "== test.sh: lanes FAILED (exit $build_rc ${lane_rcs[*]}) after $((SECONDS - t_lanes)) s"
    summary "${failed_stage:-lanes}"
    exit 1
  fi
  echo "== test.sh [lanes]: ok ($((SECONDS - t_lanes)) s)"
fi

alone_prio=()
if nice -n -10 true 2>/dev/null; then alone_prio=(nice -n -10); fi
NO_SKIPS=1 run_stage page-test-alone count_node "${alone_prio[@]}" node --test --test-concurrency=1 "${page_alone[@]}"

echo
summary
