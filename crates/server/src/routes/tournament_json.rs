//! Tournaments as JSON: the summary lichess gives a Swiss or an arena, and the
//! standings, pairings and crosstable a tournament page shows.

use caissa_tournament::standings::RatingChange;
use caissa_tournament::{Entry, GameResult};
use serde_json::{json, Value};

use crate::domain::civil_date;
use crate::domain::tournament::{Record, Status};
use crate::live::view::{now_ms, View};
use caissa_rules::Color;

pub(crate) fn iso_time(ms: u64) -> String {
    let secs = ms / 1000;
    let (y, m, d) = civil_date((secs / 86_400) as i64);
    let t = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        t / 3600,
        (t / 60) % 60,
        t % 60
    )
}

/// A tournament as lichess shows a Swiss, with Caissa's own fields beside.
pub fn tournament_json(r: &Record) -> Value {
    let period = r.spec.time_control.periods.first();
    let ongoing = r.pending_boards().count();
    let mut value = json!({
        "id": r.id,
        "createdBy": r.created_by.1,
        "startsAt": iso_time(r.spec.starts_at),
        "name": r.spec.name,
        "clock": {
            "limit": period.map_or(0, |p| p.base_ms / 1000),
            "increment": period.map_or(0, |p| p.increment_ms / 1000),
        },
        "variant": "standard",
        "round": r.rounds.len(),
        "nbRounds": r.total_rounds(),
        "nbPlayers": r.entrants.len(),
        "nbOngoing": ongoing,
        "status": r.status.name(),
        "rated": r.spec.rated,
        "system": r.spec.system.name(),
        "timeControl": r.spec.time_control.to_string(),
        "ruleset": r.spec.ruleset.name(),
        "description": r.spec.description,
        "roundInterval": r.spec.round_interval_ms / 1000,
        "private": r.spec.conditions.password_sha256.is_some(),
        "tiebreaks": r.spec.tiebreaks.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
    });
    if r.is_arena() {
        value["minutes"] = json!(r.spec.minutes);
        value["berserkable"] = json!(r.spec.berserkable);
        value["streakable"] = json!(r.spec.streakable);
        if let Some(end) = r.arena_ends_at() {
            value["finishesAt"] = json!(iso_time(end));
            value["secondsToFinish"] = json!(end.saturating_sub(now_ms()) / 1000);
        }
    }
    if let Some(at) = r.next_round_at {
        value["nextRound"] = json!({
            "at": iso_time(at),
            "in": at.saturating_sub(now_ms()) / 1000,
        });
    } else if r.status == Status::Created {
        value["nextRound"] = json!({
            "at": iso_time(r.spec.starts_at),
            "in": r.spec.starts_at.saturating_sub(now_ms()) / 1000,
        });
    }
    value
}

/// The text of a result, from White's side, as the crosstable shows it.
fn result_text(result: Option<(GameResult, GameResult)>) -> Option<String> {
    result.map(|(w, b)| {
        let side = |r: GameResult| match r {
            GameResult::Win | GameResult::UnratedWin => "1",
            GameResult::ForfeitWin => "+",
            GameResult::Draw | GameResult::UnratedDraw => "½",
            GameResult::ForfeitLoss => "-",
            _ => "0",
        };
        format!("{}-{}", side(w), side(b))
    })
}

/// Standings with tiebreaks, every round's pairing and results.
pub fn standings_json(r: &Record) -> Value {
    let name = |rank| r.by_rank(rank).map(|e| e.name.clone()).unwrap_or_default();
    if r.status == Status::Created {
        // Not started: no pairing numbers yet; the entrants by rating.
        let mut entrants: Vec<_> = r.entrants.iter().filter(|e| !e.withdrawn).collect();
        entrants.sort_by(|a, b| b.rating.cmp(&a.rating).then(a.joined_at.cmp(&b.joined_at)));
        let standings: Vec<Value> = entrants
            .iter()
            .enumerate()
            .map(|(i, e)| {
                json!({
                    "rank": i + 1, "username": e.name, "rating": e.rating,
                    "points": 0, "withdrawn": false, "tiebreaks": [],
                })
            })
            .collect();
        return json!({
            "id": r.id, "status": r.status.name(), "round": 0, "nbRounds": r.total_rounds(),
            "tiebreaks": r.spec.tiebreaks.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
            "standings": standings, "rounds": [], "crosstable": [],
        });
    }
    let standings: Vec<Value> = if r.is_arena() {
        arena_standings(r)
    } else {
        r.standings()
        .into_iter()
        .map(|s| {
            let entrant = r.by_rank(s.start_rank);
            json!({
                "rank": s.rank,
                "startRank": s.start_rank,
                "username": s.name,
                "rating": entrant.map_or(0, |e| e.rating),
                "points": s.points.value(),
                "withdrawn": entrant.is_some_and(|e| e.withdrawn),
                "tiebreaks": s.tiebreaks.iter().map(|(t, v)| json!({"code": t.to_string(), "value": v.to_string()})).collect::<Vec<_>>(),
            })
        })
        .collect()
    };
    let rounds: Vec<Value> = r
        .rounds
        .iter()
        .enumerate()
        .map(|(i, round)| {
            json!({
                "round": i + 1,
                "startedAt": round.started_at,
                "boards": round.boards.iter().enumerate().map(|(b, board)| json!({
                    "board": b + 1,
                    "white": name(board.white),
                    "black": name(board.black),
                    "gameId": board.game_id,
                    "result": result_text(board.result),
                })).collect::<Vec<_>>(),
                "bye": round.bye.map(name),
            })
        })
        .collect();
    // An arena's games are too many and too uneven for a crosstable.
    let model = if r.is_arena() {
        Default::default()
    } else {
        r.model(false)
    };
    let crosstable: Vec<Value> = model
        .players
        .iter()
        .map(|p| {
            json!({
                "startRank": p.id,
                "username": p.name,
                "rounds": p.rounds.iter().map(|e| match e {
                    Some(Entry::Game { opponent, colour, result }) => json!({
                        "opponent": opponent, "color": colour, "result": result.code().to_string(),
                    }),
                    Some(Entry::Bye { bye }) => json!({ "bye": bye.code().to_string() }),
                    None => Value::Null,
                }).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "id": r.id,
        "status": r.status.name(),
        "round": r.rounds.len(),
        "nbRounds": r.total_rounds(),
        "tiebreaks": r.spec.tiebreaks.iter().map(|t| t.to_string()).collect::<Vec<_>>(),
        "standings": standings,
        "rounds": rounds,
        "crosstable": crosstable,
        "eloChanges": r.elo_changes().map(|changes| elo_json(r, &changes)),
    })
}

/// A rated over-the-board event's FIDE Elo changes, one row per player.
fn elo_json(r: &Record, changes: &[RatingChange]) -> Vec<Value> {
    changes
        .iter()
        .map(|c| {
            let mut row = c.report_json();
            row["username"] = json!(r.by_rank(c.start_rank).map(|e| e.name.as_str()));
            row
        })
        .collect()
}

/// `blitz` as a title: `Blitz`.
fn title_case(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// An arena's sheet as lichess writes it: each game's points, oldest first, as
/// digits (a berserk win of 2 + 1 is `3`, a doubled one `4` or `5`).
pub(crate) fn sheet_scores(sheet: &caissa_tournament::arena::ArenaSheet) -> String {
    sheet
        .games()
        .iter()
        .map(|g| char::from_digit(g.points.min(9), 10).unwrap_or('9'))
        .collect()
}

/// An arena's standings rows for the tournament page.
fn arena_standings(r: &Record) -> Vec<Value> {
    r.arena_standings()
        .into_iter()
        .map(|s| {
            json!({
                "rank": s.rank,
                "startRank": s.sheet.player(),
                "username": s.entrant.name,
                "rating": s.entrant.rating,
                "points": s.sheet.score(),
                "withdrawn": s.entrant.withdrawn,
                "sheet": sheet_scores(s.sheet),
                "fire": s.sheet.is_on_fire(),
                "tiebreaks": [{"code": "PERF", "value": s.sheet.performance().map_or(String::new(), |p| p.to_string())}],
            })
        })
        .collect()
}

/// An arena as lichess's `GET /api/tournament/{id}` gives it: its terms, the
/// clock in seconds, the standing's `page` of ten players (1-based) with their
/// sheets, the games being played (`duels`), and the podium once finished.
pub fn arena_json(r: &Record, page: usize) -> Value {
    let period = r.spec.time_control.periods.first();
    let speed = r.spec.time_control.speed();
    let now = now_ms();
    let standings = r.arena_standings();
    let player = |s: &crate::domain::arena::ArenaStanding| {
        let mut p = json!({
            "name": s.entrant.name,
            "rank": s.rank,
            "rating": s.entrant.rating,
            "score": s.sheet.score(),
            "sheet": { "scores": sheet_scores(s.sheet) },
        });
        if s.sheet.is_on_fire() {
            p["sheet"]["fire"] = json!(true);
        }
        if s.entrant.withdrawn {
            p["withdraw"] = json!(true);
        }
        p
    };
    let page = page.max(1);
    let players: Vec<Value> = standings
        .iter()
        .skip((page - 1) * 10)
        .take(10)
        .map(player)
        .collect();
    let name = |rank| r.by_rank(rank);
    let duels: Vec<Value> = r
        .pending_boards()
        .filter_map(|b| {
            let (w, bl) = (name(b.white)?, name(b.black)?);
            Some(json!({
                "id": b.game_id,
                "p": [
                    {"n": w.name, "r": w.rating, "k": b.white},
                    {"n": bl.name, "r": bl.rating, "k": b.black},
                ],
            }))
        })
        .collect();
    let mut value = json!({
        "id": r.id,
        "createdBy": r.created_by.1,
        "startsAt": iso_time(r.spec.starts_at),
        "system": "arena",
        "fullName": r.spec.name,
        "minutes": r.spec.minutes.unwrap_or(0),
        "clock": {
            "limit": period.map_or(0, |p| p.base_ms / 1000),
            "increment": period.map_or(0, |p| p.increment_ms / 1000),
        },
        "variant": "standard",
        "rated": r.spec.rated,
        "berserkable": r.spec.berserkable,
        "streakable": r.spec.streakable,
        "perf": { "key": speed.name(), "name": title_case(speed.name()) },
        "nbPlayers": r.entrants.len(),
        "description": r.spec.description,
        "ruleset": r.spec.ruleset.name(),
        "standing": { "page": page, "players": players },
        "duels": duels,
    });
    match r.status {
        Status::Created => {
            value["secondsToStart"] = json!(r.spec.starts_at.saturating_sub(now) / 1000);
        }
        Status::Started => {
            value["isStarted"] = json!(true);
            if let Some(end) = r.arena_ends_at() {
                value["secondsToFinish"] = json!(end.saturating_sub(now) / 1000);
            }
        }
        Status::Finished => {
            value["isFinished"] = json!(true);
            let podium: Vec<Value> = standings
                .iter()
                .take(3)
                .map(|s| {
                    let games = s.sheet.games();
                    let mut p = player(s);
                    p["nb"] = json!({
                        "game": games.len(),
                        "berserk": games.iter().filter(|g| g.game.berserk).count(),
                        "win": games.iter().filter(|g| g.game.result == caissa_tournament::arena::ArenaResult::Win).count(),
                    });
                    if let Some(perf) = s.sheet.performance() {
                        p["performance"] = json!(perf);
                    }
                    p
                })
                .collect();
            value["podium"] = json!(podium);
        }
    }
    value
}

/// The top board as lichess's arena `featured` shows it: the game, its
/// position and last move, who plays (with their place) and the clocks in
/// seconds now.
pub fn featured_json(r: &Record, view: &View) -> Value {
    let place: std::collections::HashMap<&str, usize> = if r.is_arena() {
        r.arena_standings()
            .iter()
            .map(|s| (s.entrant.name.as_str(), s.rank))
            .collect()
    } else {
        r.standings()
            .iter()
            .filter_map(|s| Some((r.by_rank(s.start_rank)?.name.as_str(), s.rank as usize)))
            .collect()
    };
    let player = |p: &crate::live::view::Player| json!({ "name": p.name, "rating": p.rating, "rank": place.get(p.name.as_str()) });
    let mut featured = json!({
        "id": view.info.id,
        "fen": view.fen,
        "orientation": "white",
        "color": view.turn().name(),
        "lastMove": view.last_move.as_ref().map(|m| m.uci.clone()).unwrap_or_default(),
        "white": player(&view.info.white),
        "black": player(&view.info.black),
    });
    if let Some(clocks) = view.clocks {
        let ran = now_ms().saturating_sub(view.at);
        let left = |color: Color| {
            let ms = clocks[usize::from(color == Color::Black)];
            let ms = if view.running == Some(color) {
                ms.saturating_sub(ran)
            } else {
                ms
            };
            ms / 1000
        };
        featured["c"] = json!({ "white": left(Color::White), "black": left(Color::Black) });
    }
    featured
}
