//! The UCI protocol in-process: whole sessions fed from a string, replies collected.
//! (Sessions through a real pipe to the `caissa uci` binary are in crates/cli.)

use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

use caissa_engine::run_uci;
use caissa_rules::Position;

#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(input: &str) -> Vec<String> {
    session_bytes(input.as_bytes())
}

/// A session fed raw bytes; it must end (at `quit` or the end of the input) within
/// a minute.
fn session_bytes(input: &[u8]) -> Vec<String> {
    let out = Shared::default();
    let (done, ended) = std::sync::mpsc::channel();
    let (input, writer) = (input.to_vec(), out.clone());
    std::thread::spawn(move || {
        run_uci(Cursor::new(input), writer);
        let _ = done.send(());
    });
    ended
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the session did not end with its input");
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn handshake_lists_identity_and_options_then_uciok() {
    let lines = session("uci\nisready\nquit\n");
    assert!(lines[0].starts_with("id name Caissa "));
    assert!(lines[1].starts_with("id author "));
    let uciok = lines.iter().position(|l| l == "uciok").unwrap();
    for option in [
        "option name Hash type spin default 16 min 1 max 4096",
        "option name Threads type spin default 1 min 1 max 64",
        "option name Ponder type check default false",
        "option name MultiPV type spin default 1 min 1 max 10",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Chess960 type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
    ] {
        let at = lines
            .iter()
            .position(|l| l == option)
            .unwrap_or_else(|| panic!("{option}"));
        assert!(at < uciok);
    }
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name UCI_Elo type spin")));
    assert_eq!(lines[uciok + 1], "readyok");
}

#[test]
fn go_after_a_move_list_answers_with_a_legal_move_and_full_info_lines() {
    let lines = session("position startpos moves e2e4 e7e5 g1f3\ngo depth 5\n");
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 1);
    let pos = caissa_engine::uci::play_moves(Position::new(), &["e2e4", "e7e5", "g1f3"]).unwrap();
    assert!(pos.last().unwrap().parse_uci(&best[0]).is_ok());
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth 5 "))
        .unwrap();
    for word in [
        " seldepth ",
        " multipv 1 ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " pv ",
    ] {
        assert!(info.contains(word), "{info} lacks {word}");
    }
}

#[test]
fn malformed_commands_are_explained_and_the_engine_carries_on() {
    let lines = session(
        "position fen not/a/fen w - - 0 1\n\
         position startpos moves e2e4 e2e4\n\
         go depth banana\n\
         setoption name No Such Option value 3\n\
         setoption name Hash value lots\n\
         setoption name MultiPV value 99\n\
         setoption value 3\n\
         position\n\
         xyzzy\n\
         isready\n\
         go depth 3\n",
    );
    let strings = lines
        .iter()
        .filter(|l| l.starts_with("info string "))
        .count();
    assert!(strings >= 8, "{lines:#?}");
    assert!(lines.contains(&"readyok".to_string()));
    // `go depth banana` searched without a depth until the next command stopped it;
    // `go depth 3` answered too, both with nothing to search: the last position
    // command was refused.
    assert_eq!(bestmoves(&lines), vec!["0000", "0000"]);
}

#[test]
fn a_refused_position_is_not_searched_in_place_of_the_next() {
    // A castling right with no rook behind it: the FEN is refused, and the engine
    // must not answer for the position before it (1.e4, Black to move).
    let lines = session(
        "position startpos moves e2e4\n\
         position fen r3k3/8/8/8/8/8/8/4K3 w KQkq - 0 1\n\
         go depth 2\n\
         position startpos moves e2e4 e7e5 e1e3\n\
         go depth 2\n\
         position startpos moves e2e4 e7e5\n\
         go depth 2\n",
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string bad FEN") && l.contains("refused")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string move 3 (e1e3)")),
        "{lines:#?}"
    );
    let best = bestmoves(&lines);
    assert_eq!(best[..2], ["0000", "0000"]);
    // A good position is searched again: White to move after 1.e4 e5.
    let after = caissa_engine::uci::play_moves(Position::new(), &["e2e4", "e7e5"]).unwrap();
    assert!(
        after.last().unwrap().parse_uci(&best[2]).is_ok(),
        "{best:?}"
    );
}

#[test]
fn a_promotion_letter_in_capitals_is_read() {
    let lines = session("position fen 4k3/P7/8/8/8/8/8/4K3 w - - 0 1 moves a7a8Q\ngo depth 2\n");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:#?}"
    );
    let after = caissa_engine::uci::play_moves(
        Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap(),
        &["a7a8q"],
    )
    .unwrap();
    let best = bestmoves(&lines);
    assert!(
        after.last().unwrap().parse_uci(&best[0]).is_ok(),
        "{best:?}"
    );
}

#[test]
fn a_byte_that_is_not_utf8_does_not_end_the_session() {
    // A Windows path in a local code page: the option fails, the session goes on.
    let lines = session_bytes(
        b"setoption name EvalFile value C:\\Users\\Jos\xe9\\net.nnue\n\
          isready\nposition startpos\ngo depth 1\n",
    );
    assert!(
        lines.iter().any(|l| l.starts_with("info string EvalFile")),
        "{lines:#?}"
    );
    assert!(lines.contains(&"readyok".to_string()), "{lines:#?}");
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn piped_commands_wait_for_a_search_that_ends_by_itself() {
    // As Stockfish does: the next position and go wait for `go depth 6` to finish,
    // so a script gets the whole search, not the depth reached when it was read.
    let lines = session(
        "position fen 7k/8/5Q1K/8/8/8/8/8 b - - 0 1\ngo depth 6\nposition startpos\ngo depth 1\n",
    );
    let first = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .unwrap();
    assert!(
        lines[..first]
            .iter()
            .any(|l| l.starts_with("info depth 6 ")),
        "{lines:#?}"
    );
    assert_eq!(bestmoves(&lines).len(), 2);
}

#[test]
fn a_go_with_no_limit_ends_with_the_input() {
    // Also when the clock given is the other side's: nothing bounds the search.
    for go in ["go", "go wtime 1000"] {
        let lines = session(&format!("position startpos moves e2e4\n{go}\n"));
        assert_eq!(bestmoves(&lines).len(), 1, "{go}: {lines:#?}");
    }
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mated =
        "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ngo depth 3\n";
    assert_eq!(bestmoves(&session(mated)), vec!["0000"]);
    let stalemate = "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo wtime 10 btime 10\n";
    assert_eq!(bestmoves(&session(stalemate)), vec!["0000"]);
}

#[test]
fn tiny_clocks_still_give_a_legal_move() {
    for go in [
        "go wtime 10 btime 10",
        "go wtime 0 btime 0",
        "go movetime 1",
        "go nodes 1",
        "go wtime -50 btime 10",
    ] {
        let lines = session(&format!("position startpos moves d2d4\n{go}\n"));
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{go}: {lines:?}");
        let pos = caissa_engine::uci::play_moves(Position::new(), &["d2d4"]).unwrap();
        assert!(
            pos.last().unwrap().parse_uci(&best[0]).is_ok(),
            "{go}: {best:?}"
        );
    }
}

#[test]
fn mate_scores_are_reported_in_moves() {
    let lines = session("position fen r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1\ngo mate 3\n");
    assert!(
        lines.iter().any(|l| l.contains(" score mate 3 ")),
        "{lines:#?}"
    );
    assert_eq!(bestmoves(&lines), vec!["f6a6"]);
}

#[test]
fn multipv_option_gives_that_many_lines() {
    let lines = session("setoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 4 ") && l.contains(&format!(" multipv {k} "))),
            "{lines:#?}"
        );
    }
}

#[test]
fn chess960_castling_is_written_king_takes_rook() {
    let fen = "position fen r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let standard = session(&format!("{fen}\ngo depth 2 searchmoves e1g1\n"));
    assert_eq!(bestmoves(&standard), vec!["e1g1"]);
    let chess960 = session(&format!(
        "setoption name UCI_Chess960 value true\n{fen}\ngo depth 2 searchmoves e1h1\n"
    ));
    assert_eq!(bestmoves(&chess960), vec!["e1h1"]);
    // A Chess960 start position, castling given as king takes rook in the move list.
    let lines = session(
        "setoption name UCI_Chess960 value true\n\
         position fen bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1 moves f1g1 f8g8\n\
         go depth 3\n",
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:#?}"
    );
    assert_eq!(bestmoves(&lines).len(), 1);
}

#[test]
fn limited_strength_and_skill_levels_play_legal_moves() {
    for setup in [
        "setoption name Skill Level value 0",
        "setoption name Skill Level value 10",
        "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 1200",
    ] {
        let lines = session(&format!(
            "{setup}\nposition startpos moves e2e4\ngo wtime 5000 btime 5000\n"
        ));
        assert!(
            !lines.iter().any(|l| l.starts_with("info string")),
            "{lines:#?}"
        );
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1);
        let pos = caissa_engine::uci::play_moves(Position::new(), &["e2e4"]).unwrap();
        assert!(pos.last().unwrap().parse_uci(&best[0]).is_ok());
    }
}

#[test]
fn a_weak_levels_random_moves_stay_within_searchmoves() {
    // Level 1 plays a random move one time in five; none may leave the list.
    let mut input = String::from("setoption name Skill Level value 0\nposition startpos\n");
    for _ in 0..40 {
        input.push_str("go depth 1 searchmoves a2a3 h2h3\n");
    }
    let best = bestmoves(&session(&input));
    assert_eq!(best.len(), 40);
    assert!(best.iter().all(|m| m == "a2a3" || m == "h2h3"), "{best:?}");
}

#[test]
fn infinite_search_ends_at_stop_and_quit_ends_the_session() {
    let lines =
        session("position startpos\ngo infinite\nstop\nisready\ngo depth 2\nquit\ngo depth 3\n");
    assert_eq!(bestmoves(&lines).len(), 2);
    assert!(lines.contains(&"readyok".to_string()));
}

#[test]
fn ucinewgame_and_hash_resize_keep_working() {
    let lines = session(
        "setoption name Hash value 1\nucinewgame\nposition startpos\ngo depth 4\n\
         setoption name Hash value 64\nsetoption name Clear Hash\nucinewgame\nposition startpos moves e2e4\ngo depth 4\n",
    );
    assert_eq!(bestmoves(&lines).len(), 2);
    assert!(
        !lines.iter().any(|l| l.starts_with("info string")),
        "{lines:#?}"
    );
}
