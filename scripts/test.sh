#!/usr/bin/env bash
# The test command: installs what the tests need beyond Rust (the Python lichess
# client used as a real API peer; python-chess as a real UCI client; Chromium and
# playwright-core for the browser tests), then runs every test of the workspace,
# the web app's unit tests and the browser tests against the built server.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import berserk, chess" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check "berserk==0.14.0" "chess==1.11.2"
fi
if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "test.sh: the browser tests need Debian's chromium (apt-get install chromium)" >&2
        exit 2
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei >/dev/null
fi
if [ ! -d e2e/node_modules/playwright-core ]; then
    (cd e2e && npm ci --no-audit --no-fund --silent)
fi

cargo test --workspace

echo "== web app unit tests"
node --test web/test/

echo "== browser tests"
cargo build --quiet --profile test -p caissa
CAISSA_BIN=target/debug/caissa bash e2e/run.sh
