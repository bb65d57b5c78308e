#!/usr/bin/env bash
# Measures the playing levels 1-8 (crates/engine/src/levels.rs) with `caissa match`
# from the balanced openings, both colours, two games at once. Levels 4-8 play
# Stockfish (Debian package `stockfish`, 15.1) limited by UCI_Elo, so their Elo is on
# that scale; levels 1-3 are below Stockfish's floor (1350) and play the level above
# them, so their Elo adds up along the chain 4 -> 3 -> 2 -> 1.
#
#   scripts/level-matches.sh [TC] [GAMES] [LEVEL...]     (default: 10+0.1 100 all)
#
# Each match writes its games to target/matches/level-N-TC.pgn and its summary (the
# last line is JSON: wins, draws, losses, Elo, margin) to target/matches/level-N-TC.txt.
# A level is chosen through UCI `Skill Level` (levels 1-8 are skills 0, 2, 5, 8, 10,
# 13, 16, 19; skill 20 is the unlimited engine).
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${1:-10+0.1}
games=${2:-100}
shift $(($# < 2 ? $# : 2))
levels=("$@")
[ ${#levels[@]} -eq 0 ] && levels=(1 2 3 4 5 6 7 8)
skill=(- 0 2 5 8 10 13 16 19)
# Stockfish's UCI_Elo against each level from 4 up, near where it was last measured.
stockfish_elo=(- - - - 1350 1600 1850 2000 2200)

if [ ! -x /usr/games/stockfish ]; then
    echo "level-matches.sh: /usr/games/stockfish is missing (apt-get install stockfish)" >&2
    exit 2
fi
cargo build --release --quiet -p caissa
mkdir -p target/matches
caissa=$PWD/target/release/caissa
for level in "${levels[@]}"; do
    case $level in
    [1-3])
        up=$((level + 1))
        opponent=(--engine2 "$caissa uci" --option2 "Skill Level=${skill[$up]}" --name2 "Caissa level $up")
        ;;
    [4-8])
        opponent=(--engine2 /usr/games/stockfish --option2 Threads=1 --option2 Hash=64
            --option2 UCI_LimitStrength=true --option2 "UCI_Elo=${stockfish_elo[$level]}"
            --name2 "Stockfish UCI_Elo ${stockfish_elo[$level]}")
        ;;
    *) echo "level-matches.sh: no level '$level' (1 to 8)" >&2; exit 2 ;;
    esac
    echo "== level $level vs ${opponent[-1]}, $games games at $tc"
    "$caissa" match --engine1 "$caissa uci" --option1 "Skill Level=${skill[$level]}" \
        --option1 Hash=64 --name1 "Caissa level $level" "${opponent[@]}" \
        --tc "$tc" --games "$games" --concurrency 2 --quiet \
        --pgn "target/matches/level-$level-$tc.pgn" |
        tee "target/matches/level-$level-$tc.txt"
done
