//! The JSON shapes of the lichess Board API (`gameFull`, `gameState`, `gameStart`,
//! `gameFinish`, `challenge`), so existing clients work against Caissa.

use caissa_arbiter::{GameResult, Termination, TimeControl};
use caissa_rules::Color;
use serde_json::{json, Value};

use crate::live::{Player, View};

fn player(p: &Player) -> Value {
    json!({ "id": p.name.to_lowercase(), "name": p.name, "title": null, "rating": p.rating, "provisional": p.provisional })
}

/// lichess's speed name for a time control.
pub fn speed(tc: &TimeControl) -> &'static str {
    use caissa_arbiter::Speed;
    match tc.speed() {
        Speed::Bullet => "bullet",
        Speed::Blitz => "blitz",
        Speed::Rapid => "rapid",
        Speed::Classical => "classical",
        Speed::Correspondence => "correspondence",
        Speed::Unlimited => "unlimited",
    }
}

/// lichess's `variant` object: Chess960, a game from a set-up position
/// (`fromPosition`), or the standard game.
pub fn variant(from_position: bool, chess960: bool) -> Value {
    match (chess960, from_position) {
        (true, _) => json!({ "key": "chess960", "name": "Chess960", "short": "960" }),
        (false, true) => json!({ "key": "fromPosition", "name": "From Position", "short": "FEN" }),
        (false, false) => json!({ "key": "standard", "name": "Standard", "short": "Std" }),
    }
}

fn clock(tc: &TimeControl) -> Value {
    match tc.periods.first() {
        Some(p) => json!({ "initial": p.base_ms, "increment": p.increment_ms }),
        None => Value::Null,
    }
}

/// lichess's status name for how a game stands.
pub fn status(view: &View) -> &'static str {
    let Some(finish) = view.finish else {
        return "started";
    };
    match finish.termination {
        Termination::Checkmate => "mate",
        Termination::Resignation => "resign",
        Termination::Stalemate => "stalemate",
        Termination::TimeForfeit | Termination::TimeoutDraw => "outoftime",
        Termination::Aborted => "aborted",
        // A draw called on a departed opponent is a plain draw for lichess.
        Termination::Abandoned if finish.result == GameResult::Draw => "draw",
        Termination::Abandoned => "timeout",
        Termination::NoShow => "noStart",
        Termination::IllegalMoves | Termination::InvalidSealedMove => "cheat",
        Termination::ArbiterDecision => "unknownFinish",
        _ => "draw",
    }
}

fn winner(view: &View) -> Option<&'static str> {
    match view.finish.map(|f| f.result) {
        Some(GameResult::WhiteWins) => Some("white"),
        Some(GameResult::BlackWins) => Some("black"),
        _ => None,
    }
}

/// The `gameState` object.
pub fn game_state(view: &View) -> Value {
    let tc = &view.setup.time_control;
    let inc = tc.periods.first().map_or(0, |p| p.increment_ms);
    // Without a clock, as lichess: the largest 32-bit signed number of ms.
    let [wtime, btime] = view.clocks.unwrap_or([i32::MAX as u64; 2]);
    let mut state = json!({
        "type": "gameState",
        "moves": view.moves.join(" "),
        "wtime": wtime,
        "btime": btime,
        "winc": inc,
        "binc": inc,
        "status": status(view),
        "wdraw": view.draw_offer == Some(Color::White),
        "bdraw": view.draw_offer == Some(Color::Black),
        "wtakeback": view.takeback == Some(Color::White),
        "btakeback": view.takeback == Some(Color::Black),
        "claims": view.claims,
        "running": view.running.map(Color::name),
    });
    if let Some(w) = winner(view) {
        state["winner"] = json!(w);
    }
    if let Some(finish) = view.finish {
        state["termination"] = json!(finish.termination);
        state["result"] = json!(finish.result.pgn());
    }
    if let Some(ms) = view.move_time_left {
        state["moveTime"] = json!(ms);
    }
    state
}

/// The `gameState` object as JSON text, written once per view however many
/// players' streams and sockets and spectators send it.
pub fn game_state_json(view: &View) -> &str {
    view.state_json.get_or_init(|| game_state(view).to_string())
}

/// The `gameFull` object that starts a game stream.
pub fn game_full(view: &View) -> Value {
    let tc = &view.setup.time_control;
    json!({
        "type": "gameFull",
        "id": view.id,
        "rated": view.rated,
        "ruleset": view.setup.ruleset.name(),
        "timeControl": tc.to_string(),
        "variant": variant(view.setup.fen.is_some(), view.setup.chess960),
        "clock": clock(tc),
        "speed": speed(tc),
        "perf": { "name": speed(tc) },
        "createdAt": view.created_at,
        "white": player(&view.white),
        "black": player(&view.black),
        "initialFen": view.setup.fen.clone().unwrap_or_else(|| "startpos".into()),
        "state": game_state(view),
    })
}

/// The `game` object of `gameStart` / `gameFinish` events, for one player.
pub fn game_event(kind: &str, view: &View, me: i64) -> Value {
    let color = if view.white.id == me {
        Color::White
    } else {
        Color::Black
    };
    let opponent = if color == Color::White {
        &view.black
    } else {
        &view.white
    };
    json!({
        "type": kind,
        "game": {
            "gameId": view.id,
            "fullId": view.id,
            "id": view.id,
            "color": color.name(),
            "fen": view.fen,
            "isMyTurn": view.finish.is_none() && view.turn == color,
            "lastMove": view.moves.last().cloned().unwrap_or_default(),
            "opponent": { "id": opponent.name.to_lowercase(), "username": opponent.name, "rating": opponent.rating },
            "rated": view.rated,
            "speed": speed(&view.setup.time_control),
            "perf": speed(&view.setup.time_control),
            "source": "friend",
            "status": { "name": status(view) },
            "variant": variant(view.setup.fen.is_some(), view.setup.chess960),
            "hasMoved": !view.moves.is_empty(),
            "winner": winner(view),
        }
    })
}

/// A game as `/game/export/{id}` returns it in JSON.
pub fn game_json(view: &View) -> Value {
    let tc = &view.setup.time_control;
    let mut game = json!({
        "id": view.id,
        "rated": view.rated,
        "variant": variant(view.setup.fen.is_some(), view.setup.chess960)["key"],
        "speed": speed(tc),
        "perf": speed(tc),
        "createdAt": view.created_at,
        "status": status(view),
        "players": {
            "white": { "user": { "name": view.white.name, "id": view.white.name.to_lowercase() }, "rating": view.white.rating },
            "black": { "user": { "name": view.black.name, "id": view.black.name.to_lowercase() }, "rating": view.black.rating },
        },
        "moves": view.moves.join(" "),
        "ruleset": view.setup.ruleset.name(),
        "clock": clock(tc),
    });
    if let Some(w) = winner(view) {
        game["winner"] = json!(w);
    }
    if let Some(pgn) = &view.pgn {
        game["pgn"] = json!(pgn);
    }
    if let Some(fen) = &view.setup.fen {
        game["initialFen"] = json!(fen);
    }
    game
}

/// The `opponentGone` line of a player's game stream: the opponent (`color`) left
/// or came back; while gone, the seconds until victory can be claimed.
pub fn opponent_gone(handle: &crate::live::GameHandle, color: Color, gone: bool) -> Value {
    let mut line = json!({ "type": "opponentGone", "gone": gone });
    if gone {
        if let Some(limit) = handle.view().setup.ruleset.params().gone_claim_after_ms {
            let left = limit.saturating_sub(handle.gone_ms(color, crate::live::now_ms()));
            line["claimWinInSeconds"] = json!(left.div_ceil(1000));
        }
    }
    line
}

/// A PGN with its `Site` tag (the server writes `?`: only an export knows where
/// the game is seen from) set to `site`.
pub fn with_site(pgn: &str, site: &str) -> String {
    let escaped = site.replace('\\', "\\\\").replace('"', "\\\"");
    pgn.replacen("[Site \"?\"]", &format!("[Site \"{escaped}\"]"), 1)
}
