//! `caissa puzzles` as a process: generate puzzles from a PGN, import the
//! lichess CSV into a database (a bad line named and skipped), and export the
//! database back to the same format.

use std::process::{Command, Output};

use caissa_puzzles::read_csv;
use caissa_store::scratch;

fn caissa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .unwrap()
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("caissa-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn generate_finds_the_blunder_into_mate_in_a_pgn_and_writes_the_lichess_csv() {
    let pgn = temp_file(
        "games.pgn",
        "[Site \"https://example.org/g1\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n\
         [Site \"https://example.org/g2\"]\n\n1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0\n",
    );
    let out = temp_file("generated.csv", "");
    let run = caissa(&[
        "puzzles",
        "generate",
        "--pgn",
        &pgn,
        "--out",
        &out,
        "--threads",
        "1",
        "--check-nodes",
        "60000",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with(
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n"
    ));
    let puzzles = read_csv(&text).unwrap();
    let lines: Vec<(String, String)> = puzzles
        .iter()
        .map(|p| (p.moves.join(" "), p.game_url.clone()))
        .collect();
    assert!(
        lines.contains(&("g8f6 h5f7".into(), "https://example.org/g1#6".into())),
        "{lines:?}"
    );
    assert!(
        lines.contains(&(
            "g4d1 c4f7 e8e7 c3d5".into(),
            "https://example.org/g2#10".into()
        )),
        "{lines:?}"
    );
    let legal = puzzles.iter().find(|p| p.moves[0] == "g4d1").unwrap();
    assert!(
        legal.themes.iter().any(|t| t == "mateIn2"),
        "{:?}",
        legal.themes
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("2 puzzles from 2 games"), "{stderr}");
}

#[test]
fn import_skips_a_bad_line_naming_it_and_export_gives_the_puzzles_back() {
    let db = scratch::sqlite_url("cli-puzzles");
    let csv = temp_file(
        "import.csv",
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
         00sHx,r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3,g8f6 h5f7,1500,80,95,1200,mate mateIn1 opening oneMove,https://example.org/abc#6,Italian_Game\n\
         bad01,r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3,g8f6 h5f8,1500,80,95,1200,mate,,\n\
         00sHy,6k1/5ppp/q7/3N4/8/8/5PPP/6K1 b - - 0 1,a6c6 d5e7 g8f8 e7c6,1300,75,80,10,fork short,,\n",
    );
    let run = caissa(&["puzzles", "import", &csv, "--db", &db]);
    assert!(
        !run.status.success(),
        "a refused line makes the import fail"
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("line 3") && stderr.contains("h5f8"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("2 new puzzles of 2 read"), "{stdout}");

    // Importing again adds nothing and keeps what is there.
    let again = caissa(&["puzzles", "import", &csv, "--db", &db]);
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 new puzzles of 2 read"));

    let out = caissa(&["puzzles", "export", "--db", &db]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exported = read_csv(&String::from_utf8(out.stdout).unwrap()).unwrap();
    let ids: Vec<&str> = exported.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["00sHx", "00sHy"]);
    assert_eq!(exported[0].moves, ["g8f6", "h5f7"]);
    assert_eq!(
        exported[0].themes,
        ["mate", "mateIn1", "opening", "oneMove"]
    );
    assert_eq!((exported[0].rating, exported[0].plays), (1500, 1200));
    assert_eq!(exported[1].opening_tags, Vec::<String>::new());
}
