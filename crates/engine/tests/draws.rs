//! Repetition and the fifty-move rule in the search.

use caissa_engine::{search, Limits, Score};
use caissa_rules::Position;

fn line(fen: &str, moves: &[&str]) -> Vec<Position> {
    let mut out = vec![Position::from_fen(fen).unwrap()];
    for m in moves {
        let mut next = *out.last().unwrap();
        let mv = next.parse_uci(m).unwrap();
        next.play_unchecked(mv);
        out.push(next);
    }
    out
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn a_lost_side_takes_a_threefold_repetition_the_game_history_offers() {
    // Bare king against king and queen. Kh8-g8 has been played twice from here
    // with the same position following, so playing it again repeats a third time.
    let fen = "7k/8/8/8/8/8/8/3Q2K1 b - - 0 1";
    let history = line(
        fen,
        &[
            "h8g8", "g1h1", "g8h8", "h1g1", "h8g8", "g1h1", "g8h8", "h1g1",
        ],
    );
    let root = *history.last().unwrap();
    let r = search(&history, &depth(6));
    assert_eq!(root.to_uci(r.best_move.unwrap()), "h8g8");
    assert_eq!(r.score, Score::Cp(0));
    // Without the history the same position is simply lost.
    let r = search(&[root], &depth(6));
    assert!(
        matches!(r.score, Score::Cp(cp) if cp < -500) || matches!(r.score, Score::Mate(n) if n < 0),
        "{:?}",
        r.score
    );
}

#[test]
fn a_single_earlier_occurrence_is_not_yet_a_draw() {
    let fen = "7k/8/8/8/8/8/8/3Q2K1 b - - 0 1";
    let history = line(fen, &["h8g8", "g1h1", "g8h8", "h1g1"]);
    let r = search(&history, &depth(6));
    assert_ne!(r.score, Score::Cp(0));
}

#[test]
fn fifty_move_rule_turns_a_won_position_into_a_draw() {
    // Queen up, no mate in one, and the half-move clock at 99: every move draws.
    let won = Position::from_fen("8/8/8/3k4/8/8/8/KQ6 w - - 0 80").unwrap();
    let r = search(&[won], &depth(6));
    assert!(
        matches!(r.score, Score::Cp(cp) if cp > 500) || matches!(r.score, Score::Mate(n) if n > 0)
    );
    let drawn = Position::from_fen("8/8/8/3k4/8/8/8/KQ6 w - - 99 80").unwrap();
    let r = search(&[drawn], &depth(6));
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn mate_on_the_hundredth_half_move_still_wins() {
    let pos = Position::from_fen("7k/8/5K2/8/8/8/8/6Q1 w - - 99 80").unwrap();
    let r = search(&[pos], &depth(4));
    assert_eq!(r.score, Score::Mate(1));
    assert_eq!(pos.to_uci(r.best_move.unwrap()), "g1g7");
}

#[test]
fn bare_minor_pieces_are_a_draw() {
    let pos = Position::from_fen("8/8/4k3/8/8/2N5/8/4K3 w - - 0 1").unwrap();
    let r = search(&[pos], &depth(8));
    assert_eq!(r.score, Score::Cp(0));
}
