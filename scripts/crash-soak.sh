#!/usr/bin/env bash
# The crash soak: tests/page/crash.test.mjs with CRASH_KILLS (default 200) SIGKILLs of Chromium
# while a page writes, instead of the 10 of `node --test tests/page/` in scripts/test.sh. Every
# acknowledged write must survive each kill, value and expiry; a visible wipe by Chromium (open()
# reports isNew) is counted, not a failure. Ends with the test's summary line
# ("crash: 200 kills, ... 0 lost, ... seed N") and exits non-zero on any silent loss. About
# 5 s per kill on 2 cores (15-20 minutes); the test's timeout grows with CRASH_KILLS (10 s per
# kill), so no --test-timeout is needed. Not part of scripts/test.sh; runs scripts/setup.sh
# and scripts/build.sh first.
#   scripts/crash-soak.sh                        # 200 kills
#   CRASH_KILLS=50 scripts/crash-soak.sh         # a shorter run
#   CRASH_SEED=1234 scripts/crash-soak.sh        # the kill delays and writes of an earlier run
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# shellcheck source=scripts/env.sh
source "$ROOT/scripts/env.sh"

# Like the test command: install what is missing, then build the package into www/pkg/.
bash scripts/setup.sh
bash scripts/build.sh

export CRASH_KILLS="${CRASH_KILLS:-200}"
exec node --test tests/page/crash.test.mjs
