#!/usr/bin/env bash
# The crash soak: tests/page/crash.test.mjs with CRASH_KILLS (default 200) SIGKILLs of Chromium
# while a page writes and hands expired records off (onExpire), instead of the 10 of
# `node --test tests/page/` in scripts/test.sh. Every acknowledged write must survive each kill,
# value and expiry, and every acknowledged short-ttl record must still be stored or have reached
# onExpire at least once (never while live); a visible wipe by Chromium (open() reports isNew) is
# counted, not a failure. Prints each wipe as it happens, with open()'s dataLoss and, for
# "total", Chromium's dataLossMessage ("crash: visible wipe after kill 16: ... (isNew, dataLoss
# "total": "IndexedDB (database was corrupt): checksum mismatch") ..."), and each loss as it is
# found; ends with the test's summary line: "crash: 200 kills, ... 0 lost, ...; hand-off: ...
# records delivered ..., D duplicates (A after a kill, W within a launch), 0 delivered while
# live, ...; wipes: N (dataLoss total: M; isNew without dataLoss: K; messages: "..." xM); seed S".
# Exits non-zero on any silent loss or broken hand-off rule. About 1.5-2 s per kill on 2 idle
# cores (30 kills: 46-67 s), more on busy ones; the test's timeout grows with CRASH_KILLS (10 s
# per kill), so no --test-timeout is needed. Not part of scripts/test.sh; runs scripts/setup.sh and
# scripts/build.sh first.
#   scripts/crash-soak.sh                        # 200 kills
#   CRASH_KILLS=50 scripts/crash-soak.sh         # a shorter run
#   CRASH_SEED=1234 scripts/crash-soak.sh        # the kill delays and writes of an earlier run
#   scripts/crash-soak.sh --backend sqlite       # on Chromium's SQLite IndexedDB backend
set -euo pipefail

if [ "${1:-}" = "--backend" ]; then
  export IDB_BACKEND="${2:?--backend needs leveldb or sqlite}"
  shift 2
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

# Like the test command: install what is missing, then build the package into www/pkg/.
bash scripts/setup.sh
bash scripts/build.sh

export CRASH_KILLS="${CRASH_KILLS:-200}"
exec node --test tests/page/crash.test.mjs
