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
    let out = Shared::default();
    run_uci(Cursor::new(input.to_string()), out.clone());
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
    // The legal prefix (1.e4) was kept: Black is to move. `go depth banana` searched
    // without a depth until the next command stopped it; `go depth 3` answered too.
    let best = bestmoves(&lines);
    assert_eq!(best.len(), 2);
    let after_e4 = caissa_engine::uci::play_moves(Position::new(), &["e2e4"]).unwrap();
    for b in &best {
        assert!(after_e4.last().unwrap().parse_uci(b).is_ok(), "{best:?}");
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
