#!/usr/bin/env bash
# Builds web/wasm/caissa.wasm, the rules and PGN crates for the browser, from
# crates/wasm; the module is committed so that `cargo run --release` serves it
# with no extra step. With --check, builds it aside and fails if it differs
# from the committed one (CI runs that), naming both sizes.
#
# The build is reproducible: the crate has its own lock file, it is built from
# a fixed place, and the paths of that place and of cargo's registry are
# remapped out of the module.
set -euo pipefail
cd "$(dirname "$0")/.."
# Cargo names path dependencies by where they are, and those names decide the
# order of functions in the module: the sources are built from one fixed place.
build=/tmp/caissa-wasm-build
mkdir -p "$build/crates"
cp Cargo.toml "$build/"
for crate in rules pgn wasm; do
    mkdir -p "$build/crates/$crate"
    for part in Cargo.toml Cargo.lock src benches tests; do
        if [ -e "crates/$crate/$part" ]; then
            rm -rf "${build:?}/crates/$crate/$part"
            cp -r "crates/$crate/$part" "$build/crates/$crate/"
        fi
    done
done
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
cargo_home=${CARGO_HOME:-$HOME/.cargo}
RUSTFLAGS="--remap-path-prefix=$build=/caissa --remap-path-prefix=$cargo_home=/cargo" \
    cargo build --quiet --locked --release --target wasm32-unknown-unknown \
    --manifest-path "$build/crates/wasm/Cargo.toml"
built=$build/crates/wasm/target/wasm32-unknown-unknown/release/caissa_wasm.wasm
size() { wc -c < "$1" | tr -d ' '; }
gzipped() { gzip -9 -n -c "$1" | wc -c | tr -d ' '; }
echo "caissa.wasm: $(size "$built") bytes, $(gzipped "$built") gzipped"
# The budget the browser's module is held to.
if [ "$(size "$built")" -gt 300000 ] || [ "$(gzipped "$built")" -gt 120000 ]; then
    echo "build-wasm.sh: caissa.wasm is over its budget (300 KB, 120 KB gzipped)" >&2
    exit 1
fi
if [ "${1:-}" = "--check" ]; then
    if ! cmp -s "$built" web/wasm/caissa.wasm; then
        echo "build-wasm.sh: web/wasm/caissa.wasm ($(size web/wasm/caissa.wasm) bytes) is not what crates/wasm builds ($(size "$built") bytes): run scripts/build-wasm.sh and commit it" >&2
        exit 1
    fi
    echo "web/wasm/caissa.wasm is what crates/wasm builds"
else
    mkdir -p web/wasm
    cp "$built" web/wasm/caissa.wasm
fi
