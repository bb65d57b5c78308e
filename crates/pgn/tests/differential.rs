//! Differential tests against `pgn-reader` + `shakmaty`: on thousands of games, and
//! on games with deliberately corrupted moves, both agree on the number of games,
//! mainline plies, final FEN, result and whether a game has an illegal move.

use std::io;
use std::ops::ControlFlow;

use caissa_pgn::{GameTree, Node, Variation};
use caissa_rules::san::San;
use caissa_rules::{fen, CastlingMode, Color, Position, Role, Square};
use pgn_reader::{Outcome, RawTag, SanPlus, Skip};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode, Position as _};

use crate::corpus::{self, Rng};
use crate::support::replay;

/// What both implementations must agree on, per game.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    plies: u32,
    fen: String,
    illegal: bool,
    result: String,
}

// ---- the reference: pgn-reader visiting, shakmaty replaying ----

struct Reference;

#[derive(Default)]
struct RefTags {
    fen: Option<Vec<u8>>,
    chess960: bool,
}

struct RefGame {
    /// One entry per open line: (position before its last move, current position).
    lines: Vec<(Chess, Chess)>,
    plies: u32,
    illegal: bool,
    result: Option<String>,
}

impl pgn_reader::Visitor for Reference {
    type Tags = RefTags;
    type Movetext = RefGame;
    type Output = Verdict;

    fn begin_tags(&mut self) -> ControlFlow<Verdict, RefTags> {
        ControlFlow::Continue(RefTags::default())
    }

    fn tag(&mut self, tags: &mut RefTags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Verdict> {
        match name {
            b"FEN" => tags.fen = Some(value.decode().into_owned()),
            b"Variant" => tags.chess960 = value.decode_utf8_lossy().contains("960"),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: RefTags) -> ControlFlow<Verdict, RefGame> {
        let mode = if tags.chess960 {
            shakmaty::CastlingMode::Chess960
        } else {
            shakmaty::CastlingMode::Standard
        };
        let start: Chess = match tags.fen {
            None => Chess::default(),
            Some(text) => Fen::from_ascii(&text)
                .expect("test FENs are valid")
                .into_position(mode)
                .expect("test FENs are legal"),
        };
        ControlFlow::Continue(RefGame {
            lines: vec![(start.clone(), start)],
            plies: 0,
            illegal: false,
            result: None,
        })
    }

    fn san(&mut self, game: &mut RefGame, san_plus: SanPlus) -> ControlFlow<Verdict> {
        if game.illegal {
            return ControlFlow::Continue(());
        }
        let depth = game.lines.len();
        let line = game.lines.last_mut().expect("a line");
        match resolve(&line.1, san_plus.san) {
            Ok(m) => {
                line.0 = line.1.clone();
                line.1.play_unchecked(m);
                if depth == 1 {
                    game.plies += 1;
                }
            }
            Err(_) => game.illegal = true,
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, game: &mut RefGame) -> ControlFlow<Verdict, Skip> {
        if game.illegal {
            return ControlFlow::Continue(Skip(true));
        }
        let before = game.lines.last().expect("a line").0.clone();
        game.lines.push((before.clone(), before));
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, game: &mut RefGame) -> ControlFlow<Verdict> {
        if !game.illegal && game.lines.len() > 1 {
            game.lines.pop();
        }
        ControlFlow::Continue(())
    }

    fn outcome(&mut self, game: &mut RefGame, outcome: Outcome) -> ControlFlow<Verdict> {
        game.result.get_or_insert_with(|| outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: RefGame) -> Verdict {
        Verdict {
            plies: game.plies,
            fen: Fen::from_position(&game.lines[0].1, EnPassantMode::Legal).to_string(),
            illegal: game.illegal,
            result: game.result.unwrap_or_else(|| "*".to_string()),
        }
    }
}

/// shakmaty's reading of a SAN move, widened by the lenient readings caissa-rules
/// has by design: a capture marker that does not match the move is ignored, and
/// castling may be written as the king's move to its castling square or onto its
/// rook (`Kg1`, `Kh1`) when no ordinary king move matches.
fn resolve(
    pos: &Chess,
    san: shakmaty::san::San,
) -> Result<shakmaty::Move, shakmaty::san::SanError> {
    use shakmaty::san::{San as RefSan, SanError as RefError};
    let strict = san.to_move(pos);
    let RefSan::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    } = san
    else {
        return strict;
    };
    if strict != Err(RefError::IllegalSan) {
        return strict;
    }
    let flipped = RefSan::Normal {
        role,
        file,
        rank,
        capture: !capture,
        to,
        promotion,
    }
    .to_move(pos);
    if flipped != Err(RefError::IllegalSan) || role != shakmaty::Role::King {
        return flipped;
    }
    let origin = file
        .zip(rank)
        .map(|(f, r)| shakmaty::Square::from_coords(f, r));
    pos.legal_moves()
        .iter()
        .copied()
        .find(|m| match *m {
            shakmaty::Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_king_side(king < rook);
                origin.is_none_or(|o| o == king) && (rook == to || side.king_to(pos.turn()) == to)
            }
            _ => false,
        })
        .ok_or(RefError::IllegalSan)
}

fn reference(text: &str) -> Vec<Verdict> {
    let mut reader = pgn_reader::Reader::new(io::Cursor::new(text.as_bytes()));
    let mut out = Vec::new();
    while let Some(v) = reader.read_game(&mut Reference).expect("no I/O error") {
        out.push(v);
    }
    out
}

fn caissa(text: &str) -> Vec<Verdict> {
    replay(text)
        .into_iter()
        .map(|g| Verdict {
            plies: g.plies,
            fen: g.fen,
            illegal: g.error.is_some(),
            result: g.result,
        })
        .collect()
}

/// Runs both on `text` and compares game by game; returns the verdicts.
fn agree(text: &str, expected_games: usize) -> Vec<Verdict> {
    let ours = caissa(text);
    let theirs = reference(text);
    assert_eq!(ours.len(), expected_games, "caissa's game count");
    assert_eq!(theirs.len(), expected_games, "pgn-reader's game count");
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(a, b, "game {} differs (caissa left, shakmaty right)", i + 1);
    }
    ours
}

// ---- an independent PGN serializer that can corrupt one move ----

/// A corruption: replace the `at`-th move token (in text order) with a random
/// move in strict SAN, chosen with this generator.
struct Corruption<'a> {
    at: usize,
    rng: &'a mut Rng,
}

struct Serializer<'a> {
    out: String,
    token: usize,
    corruption: Option<Corruption<'a>>,
}

const SQUARE_FILES: &[u8] = b"abcdefgh";

/// A random move in strict SAN (capture marked exactly when it captures): legal or
/// not, but never a lenient form, so that both implementations must agree.
fn random_strict_san(pos: &Position, rng: &mut Rng) -> String {
    match rng.below(16) {
        0 => return "O-O".to_string(),
        1 => return "O-O-O".to_string(),
        _ => {}
    }
    let roles = [
        (Role::Pawn, ""),
        (Role::Pawn, ""),
        (Role::Knight, "N"),
        (Role::Bishop, "B"),
        (Role::Rook, "R"),
        (Role::Queen, "Q"),
        (Role::King, "K"),
    ];
    let (role, letter) = roles[rng.below(roles.len() as u64) as usize];
    let file = rng.below(8) as usize;
    let rank = 1 + rng.below(8);
    let to_text = format!("{}{rank}", SQUARE_FILES[file] as char);
    let to = Square::parse(&to_text).expect("a square");
    let enemy = pos.board().color_at(to) == Some(!pos.turn());
    let en_passant = role == Role::Pawn
        && pos
            .legal_moves()
            .iter()
            .any(|m| m.is_en_passant() && m.to() == to);
    let capture = enemy || en_passant;
    if role == Role::Pawn {
        if capture {
            let from = match file {
                0 => 1,
                7 => 6,
                f if rng.below(2) == 0 => f - 1,
                f => f + 1,
            };
            format!("{}x{to_text}", SQUARE_FILES[from] as char)
        } else {
            to_text
        }
    } else if capture {
        format!("{letter}x{to_text}")
    } else {
        format!("{letter}{to_text}")
    }
}

impl Serializer<'_> {
    fn word(&mut self, word: &str) {
        self.out.push_str(word);
        self.out.push(' ');
    }

    /// Writes a line whose first move is ply `ply` (0 = White's first move).
    fn line(&mut self, line: &Variation, start: Position, mut ply: u32) {
        for comment in &line.comments {
            self.word(&format!("{{{comment}}}"));
        }
        let mut pos = start;
        let mut need_number = true;
        for node in &line.moves {
            let number = ply / 2 + 1;
            if ply.is_multiple_of(2) {
                self.word(&format!("{number}."));
            } else if need_number {
                self.word(&format!("{number}..."));
            }
            let text = match &mut self.corruption {
                Some(c) if c.at == self.token => random_strict_san(&pos, c.rng),
                _ => node.san.to_string(),
            };
            self.token += 1;
            self.word(&text);
            for nag in &node.nags {
                self.word(&format!("${nag}"));
            }
            for comment in &node.comments {
                self.word(&format!("{{{comment}}}"));
            }
            for variation in &node.variations {
                self.word("(");
                self.line(variation, pos, ply);
                self.word(")");
            }
            need_number = !node.comments.is_empty() || !node.variations.is_empty();
            let m = node.san.to_move(&pos).expect("test trees are legal");
            pos.play_unchecked(m);
            ply += 1;
        }
    }
}

fn count_moves(line: &Variation) -> usize {
    line.moves
        .iter()
        .map(|n| 1 + n.variations.iter().map(count_moves).sum::<usize>())
        .sum()
}

/// Writes a game with tags; corrupts one move token if asked.
fn serialize(tree: &GameTree, corruption: Option<Corruption<'_>>) -> String {
    let mut s = Serializer {
        out: String::new(),
        token: 0,
        corruption,
    };
    for (name, value) in &tree.tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        s.out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    s.out.push('\n');
    let chess960 = tree.tag("Variant").is_some_and(|v| v.contains("960"));
    let start = match tree.tag("FEN") {
        None => Position::new(),
        Some(text) if chess960 => fen::parse_with_mode(text, CastlingMode::Chess960).unwrap(),
        Some(text) => fen::parse(text).unwrap(),
    };
    let ply = 2 * (start.fullmoves() - 1) + u32::from(start.turn() == Color::Black);
    s.line(&tree.mainline, start, ply);
    s.out.push_str(&tree.result);
    s.out.push_str("\n\n");
    s.out
}

/// A corpus game started from the position after its first `cut` moves.
fn set_up_game(seed: u64, i: u64, cut: usize) -> GameTree {
    let game = corpus::game(seed, i);
    let mut pos = Position::new();
    let cut = cut.min(game.mainline.moves.len());
    for node in &game.mainline.moves[..cut] {
        pos.play_unchecked(node.san.to_move(&pos).unwrap());
    }
    let mut tags = game.tags.clone();
    tags.push(("SetUp".into(), "1".into()));
    tags.push(("FEN".into(), pos.fen()));
    GameTree {
        tags,
        mainline: Variation {
            comments: vec!["set up".into()],
            moves: game.mainline.moves[cut..].to_vec(),
        },
        result: game.result,
    }
}

const CHESS960: [&str; 5] = [
    "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
    "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
    "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1",
    "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1",
];

/// A random Chess960 game that castles whenever it can (half the time).
fn chess960_game(rng: &mut Rng, index: usize) -> GameTree {
    let fen_text = CHESS960[index % CHESS960.len()];
    let start = fen::parse_with_mode(fen_text, CastlingMode::Chess960).unwrap();
    let mut pos = start;
    let mut moves = Vec::new();
    for _ in 0..20 + rng.below(60) {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let castles: Vec<_> = legal.iter().copied().filter(|m| m.is_castle()).collect();
        let m = if !castles.is_empty() && rng.below(2) == 0 {
            castles[rng.below(castles.len() as u64) as usize]
        } else {
            legal[rng.below(legal.len() as u64) as usize]
        };
        moves.push(Node::new(San::from_move(&pos, m)));
        pos.play_unchecked(m);
    }
    GameTree {
        tags: vec![
            ("Event".into(), format!("960 #{index}")),
            ("Variant".into(), "Chess960".into()),
            ("SetUp".into(), "1".into()),
            ("FEN".into(), fen_text.into()),
        ],
        mainline: Variation {
            comments: Vec::new(),
            moves,
        },
        result: "*".into(),
    }
}

#[test]
fn corpus_games_agree_with_pgn_reader_and_shakmaty() {
    let count = 2_000;
    let text = corpus::pgn(21, count);
    let verdicts = agree(&text, count as usize);
    assert!(verdicts.iter().all(|v| !v.illegal));
    // The same games through the independent serializer.
    let text: String = (0..300)
        .map(|i| serialize(&corpus::game(22, i), None))
        .collect();
    agree(&text, 300);
}

#[test]
fn set_up_and_chess960_games_agree() {
    let mut text = String::new();
    for i in 0..300u64 {
        text.push_str(&serialize(&set_up_game(23, i, 1 + (i as usize % 30)), None));
    }
    let mut rng = Rng::new(24);
    let mut castled = 0;
    for i in 0..300 {
        let game = chess960_game(&mut rng, i);
        castled += usize::from(
            game.mainline
                .moves
                .iter()
                .any(|n| matches!(n.san, San::Castle(_))),
        );
        text.push_str(&serialize(&game, None));
    }
    assert!(castled > 100, "only {castled} Chess960 games castled");
    let verdicts = agree(&text, 600);
    assert!(verdicts.iter().all(|v| !v.illegal));
}

#[test]
fn corrupted_games_agree_on_the_illegal_move() {
    let mut rng = Rng::new(25);
    let mut text = String::new();
    let count = 1_500;
    for i in 0..count {
        let game = if i % 5 == 4 {
            set_up_game(26, i, 10)
        } else {
            corpus::game(26, i)
        };
        let tokens = count_moves(&game.mainline);
        let at = rng.below(tokens as u64) as usize;
        text.push_str(&serialize(&game, Some(Corruption { at, rng: &mut rng })));
    }
    let verdicts = agree(&text, count as usize);
    let illegal = verdicts.iter().filter(|v| v.illegal).count();
    // Most random replacements are illegal, some are legal moves that derail the
    // rest of the game; either way both implementations agreed above.
    assert!(illegal > count as usize * 3 / 4, "only {illegal} illegal");
}
