//! The JSON shapes of the lichess API (`gameFull`, `gameState`, `gameStart`,
//! `gameFinish`, `challenge`, game exports), so existing clients work against
//! Caissa. Where Caissa knows more (rulesets, claims, the move just played, the
//! legal destinations), fields are added; lichess's meaning of one is never
//! changed.

use std::fmt::Write;

use caissa_arbiter::{GameResult, Termination, TimeControl};
use caissa_rules::Color;
use serde_json::{json, Value};

use crate::domain::challenge::{Challenge, ShownRating};
use crate::live::handle::GameHandle;
use crate::live::view::{now_ms, view_opening, GameSource, Player, View};

fn player(p: &Player) -> Value {
    json!({ "id": p.name.to_lowercase(), "name": p.name, "title": p.title, "rating": p.rating, "provisional": p.provisional })
}

/// lichess's speed name for a time control.
pub fn speed(tc: &TimeControl) -> &'static str {
    tc.speed().name()
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

fn view_variant(view: &View) -> Value {
    variant(view.info.setup.fen.is_some(), view.info.setup.chess960)
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

/// lichess's number for a status name (scalachess's `Status` ids), so
/// clients that read `status.id` see the same ids.
pub fn status_id(name: &str) -> u32 {
    match name {
        "created" => 10,
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        "cheat" => 36,
        "noStart" => 37,
        _ => 38, // unknownFinish
    }
}

/// The character of lichess's icon font that stands for a speed.
fn perf_icon(speed: &str) -> &'static str {
    match speed {
        "ultraBullet" => "{",
        "bullet" => "T",
        "blitz" => ")",
        "rapid" => "#",
        "classical" => "+",
        _ => ";",
    }
}

fn winner(view: &View) -> Option<&'static str> {
    match view.finish.map(|f| f.result) {
        Some(GameResult::WhiteWins) => Some("white"),
        Some(GameResult::BlackWins) => Some("black"),
        _ => None,
    }
}

/// The legal moves of the position to move in, grouped by the square they start
/// from: `e2e3e4 g1f3h3` (each group a square, then the squares it can reach), as
/// the client needs to offer only legal moves without knowing the rules. A
/// promotion's square appears once; castling is the king's move as UCI writes it.
pub fn dests(view: &View) -> String {
    if view.finish.is_some() {
        return String::new();
    }
    let pos = &view.position;
    let mut groups: Vec<(String, String)> = Vec::new();
    for m in pos.legal_moves().iter() {
        let uci = pos.to_uci(*m);
        let (from, to) = (&uci[..2], &uci[2..4]);
        match groups.iter_mut().find(|(f, _)| f == from) {
            Some((_, tos)) => {
                if !tos.as_bytes().chunks(2).any(|t| t == to.as_bytes()) {
                    tos.push_str(to);
                }
            }
            None => groups.push((from.to_string(), to.to_string())),
        }
    }
    let mut out = String::with_capacity(groups.len() * 8);
    for (i, (from, tos)) in groups.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(from);
        out.push_str(tos);
    }
    out
}

/// Appends `text` to `out` as a JSON string.
fn push_json_str(out: &mut String, text: &str) {
    // Every text here is ASCII the server wrote (moves, FEN, names of enums).
    out.push_str(&serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into()));
}

/// The `gameState` object as JSON text: lichess's fields, then Caissa's (the
/// ruleset's claims, whose clock runs, the per-move time left; the move just
/// played as `uci` and `san`; `ply`, `fen`, `check` and `dests` of the position
/// now). Written once per view however many players' streams and sockets and
/// spectators send it.
pub fn game_state_json(view: &View) -> &str {
    view.state_json.get_or_init(|| write_game_state(view))
}

fn write_game_state(view: &View) -> String {
    let tc = &view.info.setup.time_control;
    let inc = tc.periods.first().map_or(0, |p| p.increment_ms);
    // A berserk player's moves earn no increment.
    let [winc, binc] = view.berserk.map(|b| if b { 0 } else { inc });
    // Without a clock, as lichess: the largest 32-bit signed number of ms.
    let [wtime, btime] = view.clocks.unwrap_or([i32::MAX as u64; 2]);
    let mut out = String::with_capacity(256 + view.moves.len() * 5);
    out.push_str("{\"type\":\"gameState\",\"moves\":\"");
    out.push_str(&view.moves.uci_text());
    let _ = write!(
        out,
        "\",\"wtime\":{wtime},\"btime\":{btime},\"winc\":{winc},\"binc\":{binc},\"status\":\"{}\"",
        status(view)
    );
    let flag = |c: Option<Color>, color: Color| c == Some(color);
    let _ = write!(
        out,
        ",\"wdraw\":{},\"bdraw\":{},\"wtakeback\":{},\"btakeback\":{}",
        flag(view.draw_offer, Color::White),
        flag(view.draw_offer, Color::Black),
        flag(view.takeback, Color::White),
        flag(view.takeback, Color::Black),
    );
    if let Some(w) = winner(view) {
        let _ = write!(out, ",\"winner\":\"{w}\"");
    }
    for (key, berserk) in ["wberserk", "bberserk"].into_iter().zip(view.berserk) {
        if berserk {
            let _ = write!(out, ",\"{key}\":true");
        }
    }
    if let [Some(white), Some(black)] = view.moves_to_control {
        let _ = write!(
            out,
            ",\"movesToControl\":{{\"white\":{white},\"black\":{black}}}"
        );
    }
    out.push_str(",\"claims\":");
    out.push_str(&serde_json::to_string(&view.claims).unwrap_or_else(|_| "[]".into()));
    match view.running {
        Some(c) => {
            let _ = write!(out, ",\"running\":\"{}\"", c.name());
        }
        None => out.push_str(",\"running\":null"),
    }
    if let Some(finish) = view.finish {
        out.push_str(",\"termination\":");
        out.push_str(&serde_json::to_string(&finish.termination).unwrap_or_else(|_| "null".into()));
        let _ = write!(out, ",\"result\":\"{}\"", finish.result.pgn());
    }
    if let Some(ms) = view.move_time_left {
        let _ = write!(out, ",\"moveTime\":{ms}");
    }
    write_seat(&mut out, view);
    if let Some(m) = &view.last_move {
        out.push_str(",\"uci\":");
        push_json_str(&mut out, &m.uci);
        out.push_str(",\"san\":");
        push_json_str(&mut out, &m.san);
    }
    let _ = write!(out, ",\"ply\":{},\"fen\":", view.moves.len());
    push_json_str(&mut out, &view.fen);
    let _ = write!(out, ",\"check\":{},\"dests\":", view.check());
    push_json_str(&mut out, &dests(view));
    out.push('}');
    out
}

/// What the arbiter's seat adds to a `gameState`, each only when it applies:
/// `score` (an arbiter's 0-0, 1/2-0 or 0-1/2, which PGN writes `*`), `paused`,
/// `adjournmentCalled`, `adjourned` {`sealedBy`, `resumeAt`, `proposed` {`by`,
/// `at`}}, `pending` {`noProgressClaim`, `incrementRequest`}, `warnings`
/// {`white`, `black`}, and `arbiter`: every arbiter's action as {`arbiter`,
/// `action`, `reason`, `ply`, `at`}.
fn write_seat(out: &mut String, view: &View) {
    let mut seat = serde_json::Map::new();
    if let Some(finish) = view.finish.filter(|f| f.result.is_arbiters_score()) {
        seat.insert("score".into(), json!(finish.result.score()));
    }
    if view.status == caissa_arbiter::Status::Paused {
        seat.insert("paused".into(), json!(true));
    }
    let p = &view.pending;
    if p.adjournment_called {
        seat.insert("adjournmentCalled".into(), json!(true));
    }
    if let Some(sealer) = p.sealed_by {
        seat.insert(
            "adjourned".into(),
            json!({
                "sealedBy": sealer.name(),
                "resumeAt": p.resume_at,
                "proposed": p.resumption_proposed.map(|(by, at)| json!({ "by": by.name(), "at": at })),
            }),
        );
    }
    if p.needs_arbiter() {
        seat.insert(
            "pending".into(),
            json!({
                "noProgressClaim": p.no_progress_claim.map(Color::name),
                "incrementRequest": p.increment_request.map(Color::name),
            }),
        );
    }
    if p.warnings != [0, 0] {
        seat.insert(
            "warnings".into(),
            json!({ "white": p.warnings[0], "black": p.warnings[1] }),
        );
    }
    if !view.arbiter_notes.is_empty() {
        seat.insert("arbiter".into(), arbiter_notes_json(view));
    }
    for (key, value) in seat {
        out.push(',');
        push_json_str(out, &key);
        out.push(':');
        out.push_str(&value.to_string());
    }
}

/// The arbiters' actions of a game as JSON.
pub fn arbiter_notes_json(view: &View) -> Value {
    Value::Array(
        view.arbiter_notes
            .iter()
            .map(|n| {
                json!({
                    "arbiter": n.arbiter,
                    "action": n.action,
                    "reason": n.reason,
                    "ply": n.ply,
                    "at": n.at,
                })
            })
            .collect(),
    )
}

/// The `gameState` object.
pub fn game_state(view: &View) -> Value {
    serde_json::from_str(game_state_json(view)).unwrap_or(Value::Null)
}

/// The `gameFull` object that starts a game stream.
pub fn game_full(view: &View) -> Value {
    let setup = &view.info.setup;
    let tc = &setup.time_control;
    let mut full = json!({
        "type": "gameFull",
        "id": view.info.id,
        "rated": view.info.rated,
        "ruleset": setup.ruleset.name(),
        "timeControl": tc.to_string(),
        "variant": view_variant(view),
        "clock": clock(tc),
        "speed": speed(tc),
        "perf": { "name": speed(tc) },
        "createdAt": view.info.created_at,
        "white": player(&view.info.white),
        "black": player(&view.info.black),
        "initialFen": setup.fen.clone().unwrap_or_else(|| "startpos".into()),
        "state": game_state(view),
    });
    name_tournament(&mut full, &view.info.source);
    for color in Color::ALL {
        if let Some(level) = view.info.ai_level(color) {
            full[color.name()]["aiLevel"] = json!(level);
        }
    }
    if setup.berserkable {
        // An arena's game: each player may halve their clock before their first move.
        full["berserkable"] = json!(true);
    }
    full
}

/// The `game` object of `gameStart` / `gameFinish` events, for one player.
pub fn game_event(kind: &str, view: &View, me: i64) -> Value {
    let color = view.info.color_of(me).unwrap_or(Color::White);
    let opponent = view.info.player(!color);
    let tc = &view.info.setup.time_control;
    let mut game = json!({
        "gameId": view.info.id,
        "fullId": view.info.id,
        "id": view.info.id,
        "color": color.name(),
        "fen": view.fen,
        "isMyTurn": view.finish.is_none() && view.turn() == color,
        "lastMove": view.moves.last().map(|m| m.uci).unwrap_or_default(),
        "opponent": { "id": opponent.name.to_lowercase(), "username": opponent.name, "rating": opponent.rating },
        "rated": view.info.rated,
        "speed": speed(tc),
        "perf": speed(tc),
        "source": view.info.source.key(),
        "status": { "id": status_id(status(view)), "name": status(view) },
        "variant": view_variant(view),
        "hasMoved": !view.moves.is_empty(),
    });
    if let Some(title) = &opponent.title {
        game["opponent"]["title"] = json!(title);
    }
    if let Some(w) = winner(view) {
        game["winner"] = json!(w);
    }
    let me_bot = view.info.player(color).title.as_deref() == Some("BOT");
    game["compat"] = compat(me_bot);
    name_tournament(&mut game, &view.info.source);
    json!({ "type": kind, "game": game })
}

/// Lichess's `tournamentId` (an arena) or `swissId` (a Swiss or round robin)
/// on a tournament's game.
fn name_tournament(game: &mut Value, source: &GameSource) {
    match source {
        GameSource::Arena(id) => game["tournamentId"] = json!(id),
        GameSource::Swiss(id) => game["swissId"] = json!(id),
        _ => {}
    }
}

/// A player as an export's `user`: `{name, id, title?}`.
fn export_user(p: &Player) -> Value {
    let mut user = json!({ "name": p.name, "id": p.name.to_lowercase() });
    if let Some(title) = &p.title {
        user["title"] = json!(title);
    }
    user
}

/// A game as lichess's `/api/stream/games-by-users` sends it when it starts
/// and when it ends: `{id, rated, variant, speed, perf, createdAt, status,
/// statusName, players: {white: {userId, rating, provisional?}, black},
/// winner?, initialFen?, clock?: {initial, increment}}` (seconds).
pub fn stream_game_json(view: &View) -> Value {
    let info = &view.info;
    let tc = &info.setup.time_control;
    let player = |p: &Player| {
        let mut shown = json!({ "userId": p.name.to_lowercase(), "rating": p.rating });
        if p.provisional {
            shown["provisional"] = json!(true);
        }
        shown
    };
    let mut game = json!({
        "id": info.id,
        "rated": info.rated,
        "variant": view_variant(view)["key"],
        "speed": speed(tc),
        "perf": speed(tc),
        "createdAt": info.created_at,
        "status": status_id(status(view)),
        "statusName": status(view),
        "players": { "white": player(&info.white), "black": player(&info.black) },
    });
    if let Some(w) = winner(view) {
        game["winner"] = json!(w);
    }
    if let Some(fen) = &info.setup.fen {
        game["initialFen"] = json!(fen);
    }
    if let Some(p) = tc.periods.first() {
        game["clock"] = json!({ "initial": p.base_ms / 1000, "increment": p.increment_ms / 1000 });
    }
    game
}

/// A game as `/game/export/{id}` returns it in JSON.
pub fn game_json(view: &View) -> Value {
    let info = &view.info;
    let tc = &info.setup.time_control;
    let mut game = json!({
        "id": info.id,
        "rated": info.rated,
        "variant": view_variant(view)["key"],
        "speed": speed(tc),
        "perf": speed(tc),
        "createdAt": info.created_at,
        "status": status(view),
        "players": {
            "white": { "user": export_user(&info.white), "rating": info.white.rating },
            "black": { "user": export_user(&info.black), "rating": info.black.rating },
        },
        "lastMoveAt": view.at,
        "moves": view.moves.uci_text(),
        "ruleset": info.setup.ruleset.name(),
        "source": info.source.key(),
    });
    // As lichess exports it: seconds, and the estimated time of 40 moves.
    if let Some(p) = tc.periods.first() {
        let (initial, increment) = (p.base_ms / 1000, p.increment_ms / 1000);
        game["clock"] = json!({ "initial": initial, "increment": increment, "totalTime": initial + 40 * increment });
        let clocks = view.moves.clocks_centis();
        if !clocks.is_empty() {
            game["clocks"] = json!(clocks);
        }
    }
    name_tournament(&mut game, &info.source);
    for color in Color::ALL {
        if let Some(level) = info.ai_level(color) {
            game["players"][color.name()]["aiLevel"] = json!(level);
        }
        if let Some(diffs) = view.rating_diffs {
            game["players"][color.name()]["ratingDiff"] = json!(diffs[color.index()]);
        }
    }
    for (side, berserk) in ["white", "black"].into_iter().zip(view.berserk) {
        if berserk {
            game["players"][side]["berserk"] = json!(true);
        }
    }
    if let Some(w) = winner(view) {
        game["winner"] = json!(w);
    }
    if let Some(finish) = view.finish.filter(|f| f.result.is_arbiters_score()) {
        game["score"] = json!(finish.result.score());
    }
    if !view.arbiter_notes.is_empty() {
        game["arbiter"] = arbiter_notes_json(view);
    }
    if let Some(pgn) = &view.pgn {
        game["pgn"] = json!(pgn);
    }
    if let Some(fen) = &info.setup.fen {
        game["initialFen"] = json!(fen);
    }
    if let Some(opening) = view_opening(view) {
        game["opening"] = json!({ "eco": opening.eco, "name": opening.name, "ply": opening.ply });
    }
    game
}

/// The `opponentGone` line of a player's game stream: the opponent (`color`) left
/// or came back; while gone, the seconds until victory can be claimed.
pub fn opponent_gone(handle: &GameHandle, color: Color, gone: bool) -> Value {
    let mut line = json!({ "type": "opponentGone", "gone": gone });
    if gone {
        if let Some(limit) = handle.info().setup.ruleset.params().gone_claim_after_ms {
            let left = limit.saturating_sub(handle.gone_ms(color, now_ms()));
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

/// A clock as lichess shows it: minutes and increment, `3+2`, `½+0`, `1.5+0`.
pub fn clock_show(limit_s: u64, increment_s: u64) -> String {
    let minutes = match limit_s {
        15 => "¼".to_string(),
        30 => "½".to_string(),
        45 => "¾".to_string(),
        s if s % 60 == 0 => (s / 60).to_string(),
        s => format!("{}", s as f64 / 60.0),
    };
    format!("{minutes}+{increment_s}")
}

/// A user as lichess's `LightUser`: `{id, name, title?}`.
pub fn light_user(user: &caissa_store::User) -> Value {
    let mut light = json!({ "id": user.name.to_lowercase(), "name": user.name });
    if let Some(title) = &user.title {
        light["title"] = json!(title);
    }
    light
}

/// A challenge's player as lichess shows one: the light user, with the
/// rating at the challenge's speed (and `provisional` only when it is).
fn rated_user(user: &caissa_store::User, rating: Option<ShownRating>) -> Value {
    let mut light = light_user(user);
    if let Some(shown) = rating {
        light["rating"] = json!(shown.rating);
        if shown.provisional {
            light["provisional"] = json!(true);
        }
    }
    light
}

/// lichess's `compat` of a game or challenge for its reader: whether the
/// Bot API (a bot reading) and the Board API can play it. Here both play
/// every game.
pub fn compat(reader_is_bot: bool) -> Value {
    json!({ "bot": reader_is_bot, "board": true })
}

/// A challenge as lichess shows it; `direction` is `in` (to the reader) or `out`.
pub fn challenge_json(c: &Challenge, direction: &str) -> Value {
    let tc = &c.terms.time_control;
    let time_control = match tc.periods.first() {
        Some(p) => {
            let (limit, increment) = (p.base_ms / 1000, p.increment_ms / 1000);
            let mut clock = json!({ "type": "clock", "limit": limit, "increment": increment, "show": clock_show(limit, increment) });
            if tc.periods.len() > 1 || tc.per_move_ms.is_some() || p.delay.ms() > 0 {
                // More than lichess's one period: the whole control, and its
                // PGN tag form as shown.
                clock["pgn"] = json!(tc.to_string());
                clock["show"] = json!(tc.to_string());
            }
            clock
        }
        None => json!({ "type": "unlimited" }),
    };
    let mut challenge = json!({
        "id": c.id,
        "url": format!("/{}", c.id),
        "status": "created",
        "challenger": rated_user(&c.challenger, c.ratings.challenger),
        "destUser": c.dest.as_ref().map(|d| rated_user(d, c.ratings.dest)),
        "variant": variant(c.terms.fen.is_some(), c.terms.chess960),
        "initialFen": c.terms.fen.as_deref().unwrap_or("startpos"),
        "rated": c.terms.rated,
        "speed": speed(tc),
        "timeControl": time_control,
        "color": c.terms.color.name(),
        "finalColor": c.terms.challenger_color().name(),
        "perf": { "icon": perf_icon(speed(tc)), "name": speed(tc) },
        "direction": direction,
        "ruleset": c.terms.ruleset.name(),
    });
    if let Some(of) = &c.terms.rematch_of {
        challenge["rematchOf"] = json!(of);
    }
    // Accepting the challenge accepts its arbiters: the opponent sees them.
    if !c.terms.arbiter_names.is_empty() {
        challenge["arbiters"] = json!(c.terms.arbiter_names);
    }
    challenge
}

/// A challenge that was answered, as its event says it: `declined` or `canceled`.
pub fn answered_json(c: &Challenge, direction: &str, status: &str) -> Value {
    let mut challenge = challenge_json(c, direction);
    challenge["status"] = json!(status);
    challenge
}

/// lichess's reason keys for declining a challenge, as its events write them
/// (lower case), each with the reason shown.
const DECLINE_REASONS: [(&str, &str); 11] = [
    ("generic", "I am not taking challenges now."),
    ("later", "Not now; please ask again later."),
    (
        "toofast",
        "This clock is too fast for me; please offer a slower one.",
    ),
    (
        "tooslow",
        "This clock is too slow for me; please offer a faster one.",
    ),
    ("timecontrol", "I am not taking challenges with this clock."),
    ("rated", "Please send a rated challenge instead."),
    ("casual", "Please send a casual challenge instead."),
    ("standard", "I am not taking variant challenges now."),
    ("variant", "I do not want to play this variant now."),
    ("nobot", "I am not taking challenges from bots."),
    ("onlybot", "I am only taking challenges from bots."),
];

/// The reason key and text for a reason as given (any case, `tooFast` as
/// well as `toofast`); one lichess does not know is `generic`, as there.
pub fn decline_reason(given: &str) -> (&'static str, &'static str) {
    let given = given.to_ascii_lowercase();
    DECLINE_REASONS
        .iter()
        .find(|(key, _)| *key == given)
        .copied()
        .unwrap_or(DECLINE_REASONS[0])
}
