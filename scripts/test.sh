#!/usr/bin/env bash
# The test command: installs what the tests need beyond Rust (the Python lichess
# client used as a real API peer; python-chess as a real UCI client; Chromium and
# playwright-core for the browser tests; Stockfish to check a sample of the
# shipped puzzles), then runs every test of the workspace,
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
# TypeScript and lichess's published API types, for the shape test.
if [ ! -d crates/cli/tests/clients/shapes/node_modules/@lichess-org/types ]; then
    (cd crates/cli/tests/clients/shapes && npm ci --no-audit --no-fund --silent)
fi

# PostgreSQL for the store's conformance suite and the server's tests on it:
# Debian's server, started here with a role for the tests, unless
# CAISSA_TEST_POSTGRES already names one.
if [ -z "${CAISSA_TEST_POSTGRES:-}" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        if ! command -v pg_lsclusters >/dev/null 2>&1 || [ -z "$(pg_lsclusters -h 2>/dev/null)" ]; then
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
        fi
        read -r pg_version pg_cluster _ < <(pg_lsclusters -h | head -1)
        # Each test server keeps its own pool: more than the default 100 clients.
        if ! grep -q '^max_connections = 500' "/etc/postgresql/$pg_version/$pg_cluster/conf.d/caissa-tests.conf" 2>/dev/null; then
            mkdir -p "/etc/postgresql/$pg_version/$pg_cluster/conf.d"
            echo 'max_connections = 500' > "/etc/postgresql/$pg_version/$pg_cluster/conf.d/caissa-tests.conf"
            pg_ctlcluster "$pg_version" "$pg_cluster" stop 2>/dev/null || true
        fi
        pg_ctlcluster "$pg_version" "$pg_cluster" start 2>/dev/null || true
        # A server recovering after an unclean stop refuses connections a while.
        pg_port=$(pg_lsclusters -h | head -1 | awk '{print $3}')
        for _ in $(seq 120); do
            pg_isready -q -h 127.0.0.1 -p "$pg_port" && break
            sleep 1
        done
        su postgres -c "psql -q" <<'SQL'
DO $$ BEGIN
    CREATE ROLE caissa_tests LOGIN SUPERUSER PASSWORD 'caissa_tests';
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
SQL
        # Each test process makes its own scratch databases (caissa_<pid>_<test>)
        # and leaves them for a look after a failure; those of processes that
        # have ended are dropped here, or they pile up run after run.
        su postgres -c "psql -Atq -p $pg_port -c \"SELECT datname FROM pg_database WHERE datname LIKE 'caissa\\_%'\"" |
            while read -r db; do
                pid=$(echo "$db" | cut -d_ -f2)
                if [[ "$pid" =~ ^[0-9]+$ ]] && ! kill -0 "$pid" 2>/dev/null; then
                    echo "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE);"
                fi
            done | su postgres -c "psql -q -p $pg_port" >/dev/null
        export CAISSA_TEST_POSTGRES="postgres://caissa_tests:caissa_tests@127.0.0.1:$pg_port/postgres"
    else
        echo "test.sh: no CAISSA_TEST_POSTGRES and not root: the PostgreSQL tests will not run" >&2
    fi
fi

cargo test --workspace --no-fail-fast

echo "== the rules with the compact slider attacks (the browser's build)"
cargo test -p caissa-rules --features compact --lib --test tests
echo "== the browser's rules module: its API on this machine, then the committed build"
cargo test --manifest-path crates/wasm/Cargo.toml
bash scripts/build-wasm.sh --check

# The steps below run what that build made: a `cargo` command naming one
# package resolves features differently and would build the tree again.
built() { # PACKAGE TARGET KIND: the path of a test build's artifact
    cargo test --workspace --no-run --message-format=json 2>/dev/null | python3 -c '
import json, sys
package, target, kind = sys.argv[1:]
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == target \
            and kind in m["target"]["kind"] and m.get("executable") \
            and m["profile"]["test"] == (kind == "test") \
            and m["package_id"].split("#")[0].rstrip("/").endswith("/" + package):
        print(m["executable"])
        break
' "$@"
}
built_or_fail() {
    local path
    path=$(built "$@")
    [ -x "$path" ] || { echo "test.sh: the test build made no $2 ($1, $3)" >&2; exit 1; }
    echo "$path"
}

if [ -n "${CAISSA_TEST_POSTGRES:-}" ]; then
    echo "== server tests on PostgreSQL"
    server_tests=$(built_or_fail server tests test)
    (cd crates/server && CAISSA_TEST_BACKEND=postgres "$server_tests" --test-threads=8)
fi

echo "== the shipped puzzles, a sample checked by Stockfish"
if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "test.sh: the puzzle check needs Debian's stockfish (apt-get install stockfish)" >&2
        exit 2
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq stockfish >/dev/null
fi
# The same budget the whole set was checked with (see the README's "Puzzles").
python3 scripts/verify-puzzles.py crates/puzzles/data/starter.csv --sample 150 --seed "$(date +%j)" --nodes 300000 --jobs 2

echo "== web app unit tests"
node --test web/test/

echo "== browser tests"
caissa_bin=$(built_or_fail cli caissa bin)
CAISSA_BIN=$caissa_bin bash e2e/run.sh
