//! Reading and writing the lichess puzzle CSV, every line replayed by the rules.

use super::*;

/// The scholar's mate as a puzzle: Black's 3...Nf6?? is the opponent's move,
/// 4.Qxf7# the solution.
const MATE_IN_ONE: &str = "00sHx,r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3,g8f6 h5f7,1500,80,95,1200,mate mateIn1 opening oneMove,https://example.org/abc#6,Italian_Game";

#[test]
fn a_puzzle_line_is_read_with_its_opponent_move_first_and_replayed() {
    let puzzles = read_csv(&format!("{HEADER}\n{MATE_IN_ONE}\n")).unwrap();
    assert_eq!(puzzles.len(), 1);
    let p = &puzzles[0];
    assert_eq!(p.moves, ["g8f6", "h5f7"]);
    assert_eq!(p.themes, ["mate", "mateIn1", "opening", "oneMove"]);
    assert_eq!(p.opening_tags, ["Italian_Game"]);
    let positions = p.positions().unwrap();
    // The solver faces White to move; the last position is checkmate.
    assert!(positions[0].fen().contains(" w "));
    let last = positions.last().unwrap();
    assert!(last.is_check() && last.legal_moves().is_empty());
}

#[test]
fn writing_then_reading_gives_the_same_puzzles_even_with_quotes() {
    let mut puzzles = read_csv(MATE_IN_ONE).unwrap();
    puzzles[0].game_url = "https://example.org/a,\"b\"".into();
    puzzles.push(Puzzle {
        id: "x2".into(),
        opening_tags: vec![],
        game_url: String::new(),
        ..puzzles[0].clone()
    });
    let text = write_csv(&puzzles);
    assert!(text.starts_with(HEADER));
    assert_eq!(read_csv(&text).unwrap(), puzzles);
}

#[test]
fn an_illegal_move_is_named_with_its_line_and_number() {
    let bad = MATE_IN_ONE.replace("h5f7", "h5h8");
    let error = read_csv(&format!("{HEADER}\n{bad}")).unwrap_err();
    assert_eq!(error.line, 2);
    assert!(error.reason.contains("move 2 (h5h8)"), "{error}");
}

#[test]
fn a_line_that_does_not_end_with_the_solver_or_a_bad_field_is_refused() {
    let odd = MATE_IN_ONE.replace("g8f6 h5f7", "g8f6");
    assert!(read_csv(&odd).unwrap_err().reason.contains("even number"));
    let rating = MATE_IN_ONE.replace(",1500,", ",high,");
    assert!(read_csv(&rating).unwrap_err().reason.contains("Rating"));
    let fen = MATE_IN_ONE.replace("r1bqkbnr", "r1bqkbn");
    assert!(read_csv(&fen).unwrap_err().reason.contains("FEN"));
    let id = MATE_IN_ONE.replace("00sHx", "00 sHx");
    assert!(read_csv(&id).unwrap_err().reason.contains("PuzzleId"));
    assert!(read_csv("a,b,c").unwrap_err().reason.contains("3 fields"));
    assert!(read_csv("\"open,b")
        .unwrap_err()
        .reason
        .contains("not closed"));
}
