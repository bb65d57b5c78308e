#!/usr/bin/env bash
# The test command: installs what the tests need beyond Rust (the Python lichess
# client used as a real API peer), then runs every test of the workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c "import berserk" 2>/dev/null; then
    python3 -m pip install --quiet --disable-pip-version-check "berserk==0.14.0"
fi
cargo test --workspace
