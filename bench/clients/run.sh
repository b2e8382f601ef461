#!/usr/bin/env bash
# Python client against raw HTTP: builds the release server, starts it on a free loopback port
# (SQLite in a temporary directory), runs bench/clients/python_client.py with the repository's
# .venv (scripts/test sets it up), and stops the server. Extra arguments go to the script
# (--items, --rounds, --chunk, --concurrency). REFEREE_BINARY names a release binary to use
# instead of building one.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
[ -x .venv/bin/python ] || { echo "error: .venv is missing; run scripts/test or pip install -r scripts/requirements-test.txt" >&2; exit 1; }
binary="${REFEREE_BINARY:-}"
if [ -z "$binary" ]; then
    cargo build --release --locked -p referee-server --bin referee
    binary="$CARGO_TARGET_DIR/release/referee"
fi
scratch=$(mktemp -d)
"$binary" serve --listen 127.0.0.1:0 --data-dir "$scratch/data" >"$scratch/log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
addr=""
for _ in $(seq 1 100); do
    addr=$(sed -n 's/.*listening on http:\/\/\([0-9.:]*\).*/\1/p' "$scratch/log" | head -n 1)
    if [ -n "$addr" ] && .venv/bin/python -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "http://$addr/readyz" 2>/dev/null; then break; fi
    sleep 0.1
done
[ -n "$addr" ] || { cat "$scratch/log"; exit 1; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
.venv/bin/python bench/clients/python_client.py "http://$addr" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
