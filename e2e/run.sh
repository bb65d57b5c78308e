#!/usr/bin/env bash
# Runs the browser tests against a fresh server.
#
#   CAISSA_BIN      the server binary (default: target/release/caissa of this repo)
#   CAISSA_WEB_DIR  if set, the server serves the web app from this folder
#                   instead of its embedded copy (--web-dir)
#   CHROMIUM        the browser (default /usr/bin/chromium)
#
# Starts `caissa serve` on a free port with a new SQLite database, waits for
# /healthz, runs `node --test` over e2e/tests/, stops the server and exits with
# the tests' status. Screenshots go to e2e/artifacts/.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
BIN="${CAISSA_BIN:-$ROOT/target/release/caissa}"

if [ ! -x "$BIN" ]; then
  echo "run.sh: no server binary at $BIN (build it, or set CAISSA_BIN)" >&2
  exit 2
fi
if [ ! -d "$HERE/node_modules/playwright-core" ]; then
  (cd "$HERE" && npm install --no-audit --no-fund >/dev/null)
fi

PORT="$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();})')"
TMP="$(mktemp -d)"
DB="$TMP/caissa-e2e.db"
ARGS=(serve --addr "127.0.0.1:$PORT" --db "sqlite://$DB")
if [ -n "${CAISSA_WEB_DIR:-}" ]; then
  ARGS+=(--web-dir "$CAISSA_WEB_DIR")
fi

"$BIN" "${ARGS[@]}" >"$TMP/server.log" 2>&1 &
SERVER=$!
cleanup() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then break; fi
  if ! kill -0 "$SERVER" 2>/dev/null; then
    echo "run.sh: the server exited:" >&2
    cat "$TMP/server.log" >&2
    exit 2
  fi
  sleep 0.1
done
if ! curl -fsS "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1; then
  echo "run.sh: the server did not answer /healthz" >&2
  cat "$TMP/server.log" >&2
  exit 2
fi

mkdir -p "$HERE/artifacts"
set +e
(cd "$ROOT" && CAISSA_URL="http://127.0.0.1:$PORT" node --test --test-concurrency=1 e2e/tests/)
STATUS=$?
set -e
if [ "$STATUS" -ne 0 ]; then
  echo "--- server log (last 40 lines) ---" >&2
  tail -n 40 "$TMP/server.log" >&2
fi
exit "$STATUS"
