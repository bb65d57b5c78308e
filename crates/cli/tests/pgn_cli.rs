//! The `caissa pgn <FILE> [--export] [--stats] [--quiet]` contract, checked by running
//! the built binary on temporary files:
//!
//! * one JSON line per game: `{"game": <1-based index>, "result": "<token>",
//!   "plies": <mainline plies>, "fen": "<final FEN>", "error": null | "<message>"}`,
//!   the message naming the game, line, column and ply;
//! * exit status non-zero if any game had an error (all games are still reported);
//! * `--export` writes the valid games in export format, which reads back to the
//!   same games; bad games are reported on stderr and left out;
//! * `-` reads standard input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use caissa_pgn::{write_game, GameTree, Reader, TreeBuilder};
use serde_json::Value;

#[path = "../../pgn/tests/corpus/mod.rs"]
#[allow(dead_code)]
mod corpus;

/// A temporary file, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(contents: &str) -> TempFile {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("caissa-pgn-cli-{}-{n}.pgn", std::process::id()));
        std::fs::write(&path, contents).expect("the temporary file is written");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn caissa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .expect("the caissa binary runs")
}

fn caissa_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the caissa binary runs");
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(input.as_bytes())
            .expect("stdin accepts the input");
    });
    let out = child
        .wait_with_output()
        .expect("the caissa binary finishes");
    writer.join().expect("the writer thread");
    out
}

fn stdout_of(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 stdout")
}

/// The JSON lines of stdout, each checked to have exactly the five fields.
fn json_lines(out: &Output) -> Vec<Value> {
    stdout_of(out)
        .lines()
        .map(|line| {
            let v: Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line:?}"));
            let obj = v.as_object().expect("a JSON object per line");
            let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(keys, ["error", "fen", "game", "plies", "result"], "{line}");
            assert!(v["game"].is_u64() && v["plies"].is_u64(), "{line}");
            assert!(v["result"].is_string() && v["fen"].is_string(), "{line}");
            assert!(v["error"].is_null() || v["error"].is_string(), "{line}");
            v
        })
        .collect()
}

const SCHOLAR: &str =
    "[Event \"Scholar\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n\n";
const SCHOLAR_FEN: &str = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4";
const SET_UP: &str = "[Event \"Set up\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. O-O {castles} Kd7 (1... Ke7) 1/2-1/2\n\n";
const SET_UP_FEN: &str = "8/3k4/8/8/8/8/8/5RK1 w - - 2 2";
const UNFINISHED: &str = "[Event \"Unfinished\"]\n\n1. d4 d5 2. c4 *\n\n";
const UNFINISHED_FEN: &str = "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq - 0 2";
const ILLEGAL: &str = "[Event \"Illegal\"]\n\n1. e4 e5 2. Ke3 Nc6 0-1\n\n";

fn good_file() -> String {
    format!("{SCHOLAR}{SET_UP}{UNFINISHED}")
}

#[test]
fn prints_one_json_line_per_game_and_exits_zero() {
    let file = TempFile::new(&good_file());
    let out = caissa(&["pgn", file.path()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    let expected = [
        (1, "1-0", 7, SCHOLAR_FEN),
        (2, "1/2-1/2", 2, SET_UP_FEN),
        (3, "*", 3, UNFINISHED_FEN),
    ];
    for (line, (game, result, plies, fen)) in lines.iter().zip(expected) {
        assert_eq!(line["game"], game);
        assert_eq!(line["result"], result);
        assert_eq!(line["plies"], plies);
        assert_eq!(line["fen"], fen);
        assert!(line["error"].is_null(), "{line}");
    }
}

#[test]
fn a_bad_game_makes_the_exit_status_non_zero_and_names_its_ply() {
    let text = format!("{SCHOLAR}{ILLEGAL}{UNFINISHED}");
    let file = TempFile::new(&text);
    let out = caissa(&["pgn", "--quiet", file.path()]);
    assert!(!out.status.success(), "a file with a bad game must fail");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3, "every game is still reported");
    assert!(lines[0]["error"].is_null());
    assert!(lines[2]["error"].is_null());
    assert_eq!(lines[2]["plies"], 3);
    let error = lines[1]["error"].as_str().expect("game 2 has an error");
    // "1. e4 e5 2. Ke3" is on line 8 of the file, Ke3 at column 13, ply 3.
    assert!(
        error.starts_with("game 2, line 8, column 13, ply 3"),
        "{error}"
    );
    assert!(error.contains("Ke3"), "{error}");
    assert_eq!(lines[1]["plies"], 2);
    assert_eq!(lines[1]["result"], "0-1");
}

#[test]
fn a_syntax_error_is_reported_and_the_next_game_is_read() {
    let text = format!("[Event unquoted]\n\n1. e4 *\n\n{SCHOLAR}");
    let file = TempFile::new(&text);
    let out = caissa(&["pgn", file.path()]);
    assert!(!out.status.success());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    let error = lines[0]["error"].as_str().expect("a tag error");
    assert!(error.starts_with("game 1, line 1, column "), "{error}");
    assert_eq!(lines[1]["fen"], SCHOLAR_FEN);
    assert!(lines[1]["error"].is_null());
}

#[test]
fn export_output_reads_back_to_the_same_games() {
    let text = concat!(
        "[WhiteElo \"2000\"]\n[Black \"B \\\"quoted\\\"\"]\n[Event \"Lenient\"]\n\n",
        "1. e2-e4 {a comment\nover lines} e7e5 (1... c5!? 2. Ng1f3) 2. Ng1-f3 $1 Nb8c6 ",
        "3. Bf1b5 a6 4. Bb5xc6 d:c6 5. 0-0 1-0\n\n",
    )
    .to_string()
        + &good_file();
    let file = TempFile::new(&text);
    let out = caissa(&["pgn", "--export", file.path()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let exported = stdout_of(&out);
    assert!(
        exported.starts_with("[Event \"Lenient\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"?\"]\n[Black \"B \\\"quoted\\\"\"]\n[Result \"1-0\"]\n[WhiteElo \"2000\"]\n\n1. e4 {a comment over lines} 1... e5 (1... c5 $5 2. Nf3) 2. Nf3 $1 Nc6 3. Bb5 a6"),
        "{exported}"
    );

    // The export is what the library writes for each game, and reads back to it.
    let original = read_trees(&text);
    let written: String = original.iter().map(|t| write_game(t).unwrap()).collect();
    assert_eq!(exported, written);
    let reread = read_trees(&exported);
    assert_eq!(reread.len(), 4);
    let rewritten: String = reread.iter().map(|t| write_game(t).unwrap()).collect();
    assert_eq!(rewritten, exported, "exporting is idempotent");

    // And checking the export gives the same games as checking the original.
    let exported_file = TempFile::new(&exported);
    let a = json_lines(&caissa(&["pgn", file.path()]));
    let b = json_lines(&caissa(&["pgn", exported_file.path()]));
    assert_eq!(a, b);
    assert_eq!(a.len(), 4);
}

fn read_trees(text: &str) -> Vec<GameTree> {
    let mut reader = Reader::from_bytes(text.as_bytes());
    let mut builder = TreeBuilder::new();
    let mut out = Vec::new();
    while let Some(tree) = reader.read_game(&mut builder).unwrap() {
        out.push(tree.expect("a clean game"));
    }
    out
}

#[test]
fn export_of_a_corpus_file_is_the_corpus_file() {
    // The corpus is written in export format already: exporting changes nothing.
    let text = corpus::pgn(41, 300);
    let file = TempFile::new(&text);
    let out = caissa(&["pgn", "--export", "--quiet", file.path()]);
    assert!(out.status.success());
    assert!(stdout_of(&out) == text, "the export differs from its input");
    let lines = json_lines(&caissa(&["pgn", file.path()]));
    assert_eq!(lines.len(), 300);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["game"], i + 1);
        assert!(line["error"].is_null(), "{line}");
    }
}

#[test]
fn export_leaves_out_bad_games_and_reports_them_on_stderr() {
    let text = format!("{SCHOLAR}{ILLEGAL}{UNFINISHED}");
    let file = TempFile::new(&text);
    let out = caissa(&["pgn", "--export", file.path()]);
    assert!(!out.status.success());
    let exported = stdout_of(&out);
    let games = read_trees(&exported);
    assert_eq!(games.len(), 2, "{exported}");
    assert_eq!(games[0].tag("Event"), Some("Scholar"));
    assert_eq!(games[1].tag("Event"), Some("Unfinished"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("game 2"), "{stderr}");
    assert!(stderr.contains("ply 3"), "{stderr}");
}

#[test]
fn dash_reads_standard_input() {
    let text = format!("{SCHOLAR}{ILLEGAL}{SET_UP}");
    let file = TempFile::new(&text);
    let from_file = caissa(&["pgn", file.path()]);
    let from_stdin = caissa_stdin(&["pgn", "-"], &text);
    assert_eq!(stdout_of(&from_stdin), stdout_of(&from_file));
    assert_eq!(from_stdin.status.code(), from_file.status.code());
    assert!(!from_stdin.status.success());
    assert_eq!(json_lines(&from_stdin).len(), 3);

    let exported = caissa_stdin(&["pgn", "--export", "-"], &good_file());
    assert!(exported.status.success());
    let from_file = caissa(&["pgn", "--export", TempFile::new(&good_file()).path()]);
    assert_eq!(stdout_of(&exported), stdout_of(&from_file));

    // A large input through the pipe (more than any pipe buffer).
    let big = corpus::pgn(42, 400);
    let out = caissa_stdin(&["pgn", "-"], &big);
    assert!(out.status.success());
    assert_eq!(json_lines(&out).len(), 400);
}

#[test]
fn stats_summarise_on_stderr() {
    let text = format!("{SCHOLAR}{ILLEGAL}{UNFINISHED}");
    let file = TempFile::new(&text);
    let out = caissa(&["pgn", "--stats", file.path()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("3 games"), "{stderr}");
    assert!(stderr.contains("1 with errors"), "{stderr}");
    // 7 + 2 + 3 mainline plies.
    assert!(stderr.contains("12 mainline plies"), "{stderr}");
    assert_eq!(json_lines(&out).len(), 3, "stdout is unchanged by --stats");
}

#[test]
fn an_empty_file_has_no_games_and_succeeds() {
    let file = TempFile::new("");
    let out = caissa(&["pgn", file.path()]);
    assert!(out.status.success());
    assert_eq!(stdout_of(&out), "");
}

#[test]
fn a_missing_file_fails_with_a_message() {
    let path = std::env::temp_dir().join("caissa-pgn-cli-no-such-file.pgn");
    let out = caissa(&["pgn", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert_eq!(stdout_of(&out), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no-such-file"), "{stderr}");
}
