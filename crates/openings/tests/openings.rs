//! Opening names found by position.

use caissa_openings::{position_key, Openings};
use caissa_rules::Position;

fn after(sans: &[&str]) -> Vec<Position> {
    let mut pos = Position::new();
    let mut out = vec![pos];
    for san in sans {
        let m = pos.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
        pos.play_unchecked(m);
        out.push(pos);
    }
    out
}

#[test]
fn every_line_of_the_embedded_data_is_legal_and_names_a_position() {
    let files = ["a", "b", "c", "d", "e"].map(|f| {
        let path = format!("{}/data/{f}.tsv", env!("CARGO_MANIFEST_DIR"));
        (f.to_string(), std::fs::read_to_string(path).unwrap())
    });
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    let table = Openings::from_tsv(&borrowed).unwrap();
    let lines: usize = files.iter().map(|(_, t)| t.lines().skip(1).count()).sum();
    // A few lines reach a position another line names first.
    assert!(
        table.len() > lines * 9 / 10,
        "{} positions from {lines} lines",
        table.len()
    );
    assert_eq!(table.len(), Openings::bundled().len());
}

#[test]
fn a_transposition_gets_the_name_of_the_position_reached() {
    let table = Openings::bundled();
    let direct = after(&["d4", "d5", "c4", "e6", "Nc3", "Nf6", "Nf3"]);
    let transposed = after(&["Nf3", "Nf6", "c4", "e6", "Nc3", "d5", "d4"]);
    let named = table.of_position(direct.last().unwrap()).unwrap();
    assert_eq!(table.of_position(transposed.last().unwrap()), Some(named));
    assert!(
        named.name.starts_with("Queen's Gambit Declined"),
        "{named:?}"
    );
    assert_eq!(named.eco.chars().next(), Some('D'));
}

#[test]
fn a_game_is_named_by_the_last_named_position_it_reached() {
    let table = Openings::bundled();
    let game = after(&[
        "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "h3", "h6", "a3",
    ]);
    // 3... a6 is named; 4. Ba4 Nf6 and what follows are not.
    let opening = table.of_game(&game).unwrap();
    assert_eq!(
        (opening.eco.as_str(), opening.name.as_str(), opening.ply),
        ("C70", "Ruy Lopez: Morphy Defense", 6)
    );
    // The initial position has no name; nothing is named before a move.
    assert_eq!(table.of_game(&after(&[])), None);
}

#[test]
fn a_bad_line_is_refused_naming_its_file_and_line() {
    let error =
        Openings::from_tsv(&[("x.tsv", "eco\tname\tpgn\nA00\tNonsense\t1. e4 e4\n")]).unwrap_err();
    assert_eq!((error.file.as_str(), error.line), ("x.tsv", 2));
    let error = Openings::from_tsv(&[("y.tsv", "eco\tname\tpgn\nA00 only\n")]).unwrap_err();
    assert!(error.message.contains("tabs"), "{error}");
}

#[test]
fn the_key_is_the_position_not_the_move_counters() {
    let a = after(&["Nf3", "Nf6", "Ng1", "Ng8"]);
    assert_eq!(position_key(&a[0]), position_key(&a[4]));
}
