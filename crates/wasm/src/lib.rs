//! The rules and PGN crates for the browser. JavaScript sends one JSON request
//! (`{"op": "play", "fen": ..., "move": "e2e4"}`) and gets one JSON answer,
//! `{"ok": ...}` or `{"error": "..."}`: [`answer`] is the whole API, so the
//! browser never decides a rule itself. The `abi` module only carries bytes
//! across the WebAssembly boundary.
//!
//! Requests (`op`):
//! - `position {fen?, chess960?}`: the position described (see [`moves::describe`]).
//! - `play {fen?, chess960?, move}`: a move in UCI or SAN; its SAN, UCI and the
//!   position after it.
//! - `replay {fen?, chess960?, moves}`: every move of a line, with the rules
//!   that need the past (repetition, 50 and 75 moves) applied at its end.
//! - `readPgn {pgn}`: every game of a PGN text as a tree of moves with their
//!   comments, NAGs and variations, each move replayed (see [`pgn`]).
//! - `writePgn {game}`: such a game (SAN only needed) in PGN export format.

mod abi;
pub mod json;
pub mod moves;
pub mod pgn;

use json::Json;

/// The answer to one request (JSON text in, JSON text out).
pub fn answer(request: &[u8]) -> String {
    let reply = std::str::from_utf8(request)
        .map_err(|_| "bad request: not UTF-8".to_string())
        .and_then(|text| json::parse(text).map_err(|e| format!("bad request: {e}")))
        .and_then(|request| handle(&request));
    match reply {
        Ok(value) => Json::obj([("ok", value)]).to_string(),
        Err(message) => Json::obj([("error", Json::Str(message))]).to_string(),
    }
}

/// A string member that may be absent or null.
fn optional_str<'a>(request: &'a Json, name: &str) -> Result<Option<&'a str>, String> {
    match request.get(name) {
        Json::Null => Ok(None),
        Json::Str(text) => Ok(Some(text)),
        _ => Err(format!("bad request: {name} must be a string")),
    }
}

/// A string member that must be there.
fn required_str<'a>(request: &'a Json, name: &str) -> Result<&'a str, String> {
    optional_str(request, name)?.ok_or_else(|| format!("bad request: {name} is missing"))
}

fn handle(request: &Json) -> Result<Json, String> {
    let op = required_str(request, "op")?;
    let fen = optional_str(request, "fen")?;
    let chess960 = request.get("chess960").as_bool().unwrap_or(false);
    match op {
        "position" => Ok(moves::describe(&moves::start(fen, chess960)?)),
        "play" => moves::play(moves::start(fen, chess960)?, required_str(request, "move")?),
        "replay" => {
            let list = request
                .get("moves")
                .as_array()
                .ok_or("bad request: moves must be an array")?;
            let texts = list
                .iter()
                .map(|m| m.as_str().ok_or("bad request: each move must be a string"))
                .collect::<Result<Vec<_>, _>>()?;
            moves::replay(moves::start(fen, chess960)?, &texts)
        }
        "readPgn" => Ok(pgn::read(required_str(request, "pgn")?)),
        "writePgn" => pgn::write(request.get("game")).map(Json::Str),
        other => Err(format!("bad request: no operation {other:?}")),
    }
}
