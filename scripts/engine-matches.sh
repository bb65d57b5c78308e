#!/usr/bin/env bash
# Strength yardsticks: `caissa match` of the release build against Glaurung 2.2,
# Toga II 3.0 and Ethereal 12 (Debian packages glaurung, toga2, ethereal-chess),
# from the balanced openings, both colours. Every engine plays on one thread with
# 64 MB of hash, no book of its own and no pondering, so two games at once are
# fair on two cores.
#
#   scripts/engine-matches.sh [TC] [GAMES] [PEER...]     (default: 10+0.1 200 all)
#
# Each match writes its games to target/matches/PEER-TC.pgn and its summary
# (the last line is JSON: wins, draws, losses, Elo, margin) to target/matches/PEER-TC.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
tc=${1:-10+0.1}
games=${2:-200}
shift $(($# < 2 ? $# : 2))
peers=("$@")
[ ${#peers[@]} -eq 0 ] && peers=(glaurung toga2 ethereal)

# Sets cmd, opts and pkg for a peer.
peer_setup() {
    case $1 in
    glaurung) cmd=/usr/games/glaurung opts=(Threads=1 OwnBook=false Ponder=false Hash=64) pkg=glaurung ;;
    toga2) cmd=/usr/games/toga2 opts=(OwnBook=false Ponder=false Hash=64) pkg=toga2 ;;
    ethereal) cmd=/usr/games/ethereal-chess opts=(Threads=1 Ponder=false Hash=64) pkg=ethereal-chess ;;
    *) echo "engine-matches.sh: unknown peer '$1' (glaurung, toga2 or ethereal)" >&2; exit 2 ;;
    esac
}
for peer in "${peers[@]}"; do
    peer_setup "$peer"
    if [ ! -x "$cmd" ]; then
        echo "engine-matches.sh: $cmd is missing (apt-get install $pkg)" >&2
        exit 2
    fi
done

cargo build --release --quiet -p caissa
mkdir -p target/matches
caissa=$PWD/target/release/caissa
for peer in "${peers[@]}"; do
    peer_setup "$peer"
    args=()
    for o in "${opts[@]}"; do args+=(--option2 "$o"); done
    echo "== caissa vs $peer, $games games at $tc"
    "$caissa" match --engine1 "$caissa uci" --option1 Threads=1 --option1 Hash=64 \
        --engine2 "$cmd" "${args[@]}" --name1 Caissa --tc "$tc" --games "$games" \
        --concurrency 2 --quiet --pgn "target/matches/$peer-$tc.pgn" |
        tee "target/matches/$peer-$tc.txt"
done
