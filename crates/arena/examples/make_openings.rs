//! Writes the balanced opening suite (`openings/balanced.epd`): each line below is
//! played with caissa-rules and the resulting position printed as EPD.
//!
//! ```text
//! cargo run -p caissa-arena --example make_openings > crates/arena/openings/balanced.epd
//! cargo run -p caissa-arena --example make_openings -- --check /usr/games/stockfish 16
//! ```
//!
//! With `--check ENGINE DEPTH` it prints each position's evaluation by a UCI engine
//! instead (to keep only balanced ones in the list).

#![allow(missing_docs)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use caissa_rules::Position;

/// Name and moves (SAN) of each opening line: 4 to 8 plies of common openings.
const LINES: &[(&str, &str)] = &[
    ("Ruy Lopez, Morphy Defence", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"),
    (
        "Ruy Lopez, Berlin Defence",
        "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4",
    ),
    ("Ruy Lopez", "e4 e5 Nf3 Nc6 Bb5"),
    ("Italian Game, Giuoco Piano", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6"),
    (
        "Italian Game, Giuoco Pianissimo",
        "e4 e5 Nf3 Nc6 Bc4 Bc5 d3 Nf6",
    ),
    (
        "Two Knights Defence, Modern",
        "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7",
    ),
    ("Scotch Game", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6"),
    ("Petrov Defence", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4"),
    (
        "Four Knights Game, Spanish",
        "e4 e5 Nf3 Nc6 Nc3 Nf6 Bb5 Bb4",
    ),
    ("Vienna Game", "e4 e5 Nc3 Nf6 g3 d5 exd5 Nxd5"),
    ("Philidor Defence", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"),
    ("Ponziani Opening", "e4 e5 Nf3 Nc6 c3 Nf6 d4 Nxe4"),
    ("King's Gambit Declined", "e4 e5 f4 Bc5 Nf3 d6"),
    ("Sicilian Defence, Open", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6"),
    (
        "Sicilian Defence, Taimanov",
        "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6",
    ),
    ("Sicilian Defence, Kan", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6"),
    (
        "Sicilian Defence, Open Nc6",
        "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6",
    ),
    ("Sicilian Defence, Alapin", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4"),
    ("Sicilian Defence, Closed", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    (
        "Sicilian Defence, Grand Prix",
        "e4 c5 Nc3 Nc6 f4 g6 Nf3 Bg7",
    ),
    (
        "Sicilian Defence, Rossolimo",
        "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7",
    ),
    (
        "Sicilian Defence, Moscow",
        "e4 c5 Nf3 d6 Bb5+ Bd7 Bxd7+ Qxd7",
    ),
    ("French Defence, Advance", "e4 e6 d4 d5 e5 c5 c3 Nc6"),
    ("French Defence, Classical", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7"),
    (
        "French Defence, Rubinstein",
        "e4 e6 d4 d5 Nc3 dxe4 Nxe4 Nd7",
    ),
    (
        "Caro-Kann Defence, Classical",
        "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5",
    ),
    ("Caro-Kann Defence, Advance", "e4 c6 d4 d5 e5 Bf5 Nf3 e6"),
    ("Caro-Kann Defence, Panov", "e4 c6 d4 d5 exd5 cxd5 c4 Nf6"),
    (
        "Caro-Kann Defence, Two Knights",
        "e4 c6 Nc3 d5 Nf3 Bg4 h3 Bxf3",
    ),
    ("Pirc Defence", "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7"),
    ("Queen's Gambit Declined", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7"),
    (
        "Queen's Gambit Declined, Exchange",
        "c4 e6 Nc3 d5 d4 Nf6 cxd5 exd5",
    ),
    ("Queen's Gambit Accepted", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6"),
    ("Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4"),
    ("Semi-Slav Defence", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6"),
    ("Tarrasch Defence", "d4 d5 c4 e6 Nc3 c5 cxd5 exd5"),
    (
        "Nimzo-Indian Defence, Rubinstein",
        "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O",
    ),
    (
        "Nimzo-Indian Defence, Classical",
        "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O",
    ),
    ("Queen's Indian Defence", "d4 Nf6 c4 e6 Nf3 b6 g3 Bb7"),
    ("Bogo-Indian Defence", "d4 Nf6 c4 e6 Nf3 Bb4+ Bd2 Qe7"),
    ("King's Indian Defence", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6"),
    (
        "Grunfeld Defence, Exchange",
        "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5",
    ),
    ("Catalan Opening", "d4 Nf6 c4 e6 g3 d5 Bg2 Be7"),
    ("Dutch Defence, Classical", "d4 f5 g3 Nf6 Bg2 e6 Nf3 Be7"),
    ("London System", "d4 d5 Bf4 Nf6 e3 c5 c3 Nc6"),
    ("Colle System", "d4 d5 Nf3 Nf6 e3 e6 Bd3 c5"),
    ("Trompowsky Attack", "d4 Nf6 Bg5 e6 e4 h6 Bxf6 Qxf6"),
    ("Queen's Pawn Game", "d4 Nf6 c4 e6 Nc3"),
    (
        "English Opening, Symmetrical",
        "c4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7",
    ),
    (
        "English Opening, Reversed Sicilian",
        "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 Bb4",
    ),
    ("English Opening, Anglo-Indian", "c4 Nf6 Nc3 e5"),
    ("Reti Opening", "Nf3 d5 g3 Nf6 Bg2 e6 O-O Be7"),
    ("King's Indian Attack", "Nf3 Nf6 g3 g6 Bg2 Bg7 O-O O-O"),
    ("Reti Opening, Queen's Gambit style", "Nf3 d5 c4 e6"),
    ("Nimzo-Larsen Attack", "b3 e5 Bb2 Nc6 e3 d5 Bb5 Bd6"),
    ("Bird Opening", "f4 d5 Nf3 Nf6 e3 g6 b3 Bg7"),
    ("Sicilian Defence", "e4 c5 Nf3 d6 d4"),
];

fn play(moves: &str) -> Position {
    let mut pos = Position::new();
    for san in moves.split_whitespace() {
        let m = pos
            .parse_san(san)
            .unwrap_or_else(|e| panic!("{moves}: {san}: {e}"));
        pos.play_unchecked(m);
    }
    pos
}

/// The EPD form: four FEN fields, then the move counters and the name as opcodes.
fn epd(pos: &Position, name: &str) -> String {
    let fen = pos.fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    format!(
        "{} hmvc {}; fmvn {}; id \"{name}\";",
        fields[..4].join(" "),
        pos.halfmoves(),
        pos.fullmoves()
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--check") {
        let engine = args.get(1).expect("--check ENGINE DEPTH");
        let depth = args.get(2).map(String::as_str).unwrap_or("16");
        check(engine, depth);
        return;
    }
    println!("# Caissa balanced opening suite: positions a few moves into common openings,");
    println!("# each about level (|eval| <= 0.6 pawn by Stockfish 15.1 at depth 18). Generated by");
    println!("# `cargo run -p caissa-arena --example make_openings`.");
    let mut seen = std::collections::HashSet::new();
    for (name, moves) in LINES {
        let pos = play(moves);
        assert!(seen.insert(pos.fen()), "duplicate position: {name}");
        println!("{}", epd(&pos, name));
    }
}

/// Prints each position's score (White's point of view) by a UCI engine.
fn check(engine: &str, depth: &str) {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    writeln!(stdin, "uci\nsetoption name Threads value 1\nisready").unwrap();
    loop {
        line.clear();
        stdout.read_line(&mut line).unwrap();
        if line.trim() == "readyok" {
            break;
        }
    }
    for (name, moves) in LINES {
        let pos = play(moves);
        writeln!(
            stdin,
            "ucinewgame\nposition fen {}\ngo depth {depth}",
            pos.fen()
        )
        .unwrap();
        let mut score = String::new();
        loop {
            line.clear();
            stdout.read_line(&mut line).unwrap();
            let words: Vec<&str> = line.split_whitespace().collect();
            if let Some(i) = words.iter().position(|w| *w == "score") {
                let value: i32 = words[i + 2].parse().unwrap_or(0);
                let white = if pos.turn() == caissa_rules::Color::White {
                    value
                } else {
                    -value
                };
                score = format!("{} {white}", words[i + 1]);
            }
            if line.starts_with("bestmove") {
                break;
            }
        }
        println!("{score:>10}  {name}: {moves}");
    }
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
}
