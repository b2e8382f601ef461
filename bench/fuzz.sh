#!/usr/bin/env bash
# A bounded fuzz run of the HTTP API: schemathesis, every check, against a live release server on
# SQLite, with far more examples per operation than the test command's smoke run (50). Needs the
# test tools of scripts/test (.venv). Settings: MAX_EXAMPLES [1000], SEED [20261125],
# CARGO_TARGET_DIR. Prints schemathesis's summary; the exit status is schemathesis's.
set -euo pipefail
bench_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$bench_dir/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/referee/target}"
(cd "$root" && cargo build --release --locked --workspace --bins)
scratch=$(mktemp -d)
log="$scratch/referee.log"
"$CARGO_TARGET_DIR/release/referee" serve --listen 127.0.0.1:0 --data-dir "$scratch/data" >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$scratch"' EXIT
addr=""
for _ in $(seq 1 300); do
    addr=$(sed -n 's/.*listening on http:\/\/\([0-9.:]*\).*/\1/p' "$log" | head -n 1)
    if [ -n "$addr" ] && python3 -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "http://$addr/readyz" 2>/dev/null; then break; fi
    sleep 0.1
done
[ -n "$addr" ] || { cat "$log"; echo "the server did not start" >&2; exit 1; }
started=$(date +%s)
status=0
(cd "$scratch" && "$root/.venv/bin/st" --config-file "$root/scripts/schemathesis.toml" run "http://$addr/openapi.json" \
    --checks all --max-examples "${MAX_EXAMPLES:-1000}" --seed "${SEED:-20261125}" --no-color) || status=$?
echo "schemathesis: exit $status after $(( $(date +%s) - started )) s"
if ! kill -0 "$server" 2>/dev/null; then echo "the server died during the run" >&2; status=1; fi
grep -c '"level":"ERROR"' "$log" | sed 's/^/server ERROR lines: /' || true
exit "$status"
