#!/usr/bin/env bash
# Installs what is missing, builds the release module into www/pkg/, and serves the demo page
# on http://127.0.0.1:${PORT:-8080}/ until Ctrl-C.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# Only what the build and the page need: the browsers, geckodriver and Redis are the tests'.
bash scripts/setup.sh --demo
bash scripts/build.sh
[ -f www/index.html ] || echo "demo: warning: www/index.html does not exist yet" >&2

port="${PORT:-8080}"
echo "demo: open http://127.0.0.1:${port}/ (Ctrl-C stops the server)"
exec node scripts/serve.mjs www "$port"
