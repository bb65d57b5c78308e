//! Positions and moves: what a board needs to show a position and to take a
//! move in it.

use std::collections::BTreeMap;

use caissa_rules::{fen, CastlingMode, CastlingSide, Color, Game, Move, Position};

use crate::json::Json;

/// The game starting from `fen` (the initial position when absent, empty or
/// `startpos`), read as Chess960 when asked.
pub fn start(fen_text: Option<&str>, chess960: bool) -> Result<Game, String> {
    let text = fen_text.map(str::trim).unwrap_or("");
    if text.is_empty() || text == "startpos" {
        return Ok(Game::new(Position::new()));
    }
    let position = if chess960 {
        fen::parse_with_mode(text, CastlingMode::Chess960)
    } else {
        fen::parse(text)
    };
    position
        .map(Game::new)
        .map_err(|e| format!("FEN {text:?}: {e}"))
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The square of the king in check, if the side to move is in check.
fn check_square(pos: &Position) -> Option<String> {
    pos.is_check().then(|| pos.king(pos.turn()).to_string())
}

/// Each piece's legal destinations, by origin. A castling king may go to its
/// castling square (standard chess) and to its rook's square (either).
pub fn dests(pos: &Position) -> Json {
    let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in pos.legal_moves().iter().copied() {
        let list = map.entry(m.from().to_string()).or_default();
        let mut add = |to: String| {
            if !list.contains(&to) {
                list.push(to);
            }
        };
        if m.is_castle() {
            if pos.castling_mode() == CastlingMode::Standard {
                add(CastlingSide::of(m.from(), m.to())
                    .king_to(pos.turn())
                    .to_string());
            }
            add(m.to().to_string());
        } else {
            add(m.to().to_string());
        }
    }
    Json::Obj(
        map.into_iter()
            .map(|(from, to)| (from, Json::strs(&to)))
            .collect(),
    )
}

/// The game's current position as the board shows it: `fen`, `turn`, `check`
/// (the checked king's square or null), `dests`, `fullmoves`, `halfmoves`,
/// `end` (`{result, reason}` once the game is over by itself: checkmate,
/// stalemate, dead position, 75 moves, fivefold repetition) and `claims` (the
/// draws the side to move may claim: threefold repetition, fifty moves).
pub fn describe(game: &Game) -> Json {
    let pos = game.position();
    let end = game.outcome().map_or(Json::Null, |o| {
        Json::obj([
            ("result", Json::str(o.result())),
            ("reason", Json::str(o.termination.as_str())),
            ("winner", Json::opt_str(o.winner.map(color_name))),
        ])
    });
    let claims: Vec<&str> = game.claimable().iter().map(|c| c.as_str()).collect();
    Json::obj([
        ("fen", Json::str(pos.fen())),
        ("turn", Json::str(color_name(pos.turn()))),
        ("check", Json::opt_str(check_square(pos))),
        ("dests", dests(pos)),
        ("fullmoves", Json::Int(pos.fullmoves().into())),
        ("halfmoves", Json::Int(pos.halfmoves().into())),
        ("end", end),
        ("claims", Json::strs(&claims)),
    ])
}

/// The legal move `text` names, in UCI (`e2e4`, `e7e8q`, `e1g1` or `e1h1`)
/// or SAN (`e4`, `exd8=Q+`, `O-O`).
pub fn find_move(pos: &Position, text: &str) -> Result<Move, String> {
    let text = text.trim();
    if let Ok(m) = pos.parse_uci(text) {
        return Ok(m);
    }
    pos.parse_san(text).map_err(|e| e.to_string())
}

/// One move in both notations and the position it leads to.
fn played(before: &Position, m: Move, after: &Game) -> Vec<(String, Json)> {
    vec![
        ("uci".into(), Json::str(before.to_uci(m))),
        ("san".into(), Json::str(before.san(m))),
        ("fen".into(), Json::str(after.position().fen())),
        (
            "check".into(),
            Json::opt_str(check_square(after.position())),
        ),
    ]
}

/// Plays `text` in the game's position: `{uci, san, fen, check, position}`.
/// A game over by a rule that leaves legal moves (a dead position, 75 moves,
/// fivefold repetition) can still be explored: `position.end` says it is over.
pub fn play(mut game: Game, text: &str) -> Result<Json, String> {
    let before = *game.position();
    let m = find_move(&before, text).map_err(|e| format!("{}: {e}", move_label(&before, text)))?;
    game.play(m).map_err(|e| e.to_string())?;
    let mut members = played(&before, m, &game);
    members.push(("position".into(), describe(&game)));
    Ok(Json::Obj(members))
}

/// "12. e4" or "12... e5": where a move stands, for error messages.
pub fn move_label(pos: &Position, text: &str) -> String {
    let dots = if pos.turn() == Color::White {
        "."
    } else {
        "..."
    };
    format!("{}{dots} {}", pos.fullmoves(), text.trim())
}

/// Plays every move of a line: `{moves: [{uci, san, fen, check}], position}`,
/// or the first move that cannot be played, named by its number.
pub fn replay(mut game: Game, moves: &[&str]) -> Result<Json, String> {
    let mut out = Vec::with_capacity(moves.len());
    for text in moves {
        let before = *game.position();
        let label = move_label(&before, text);
        let m = find_move(&before, text).map_err(|e| format!("{label}: {e}"))?;
        game.play(m).map_err(|e| format!("{label}: {e}"))?;
        out.push(Json::Obj(played(&before, m, &game)));
    }
    Ok(Json::obj([
        ("moves", Json::Arr(out)),
        ("position", describe(&game)),
    ]))
}
