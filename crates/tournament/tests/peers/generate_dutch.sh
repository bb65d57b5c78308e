#!/usr/bin/env bash
# Regenerate the FIDE Dutch differential test data in
# crates/tournament/tests/data/dutch/ with the bbpPairings peer.
#
# usage: generate_dutch.sh [BBP_BINARY] [NAME_PREFIX...]
#
#   BBP_BINARY   path of bbpPairings.exe built from bbpPairings commit 16a000f
#                with g++/libstdc++ (default: bbpPairings.exe found in PATH)
#   NAME_PREFIX  regenerate only the tournaments whose names start with one of
#                these prefixes (INDEX.md is then left alone)
#
# Environment:
#   OUT_DIR          output directory (default: ../data/dutch next to this file)
#   BBP_CHECK_LARGE  if set, also run `bbp -c` on tournaments of > 200 players
#
# Everything is deterministic: fixed bbp seeds (-s) and a fixed Python RNG seed
# for the "driven" family.  A full run takes about 15-20 minutes on one core
# (the 300-500 player tournaments dominate).  See README.md for details.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bbp="${1:-bbpPairings.exe}"
shift || true

if ! command -v "$bbp" >/dev/null 2>&1; then
  echo "bbpPairings binary not found: $bbp" >&2
  echo "build it from https://github.com/BieremaBoyzProgramming/bbpPairings" \
       "(commit 16a000f): make" >&2
  exit 2
fi
bbp="$(command -v "$bbp")"
case "$bbp" in /*) ;; *) bbp="$PWD/$bbp" ;; esac

command -v python3 >/dev/null 2>&1 || { echo "python3 is required" >&2; exit 2; }

out="${OUT_DIR:-$here/../data/dutch}"
mkdir -p "$out"

# The peer prints its build info with -r; keep it in the log.
"$bbp" -r | head -n 1 >&2 || true

exec python3 "$here/dutch_peer.py" "$bbp" "$out" "$@"
