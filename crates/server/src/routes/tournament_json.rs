//! Tournaments as JSON: the summary lichess gives a Swiss, and the standings,
//! pairings and crosstable a tournament page shows.

use caissa_tournament::{Entry, GameResult};
use serde_json::{json, Value};

use crate::domain::civil_date;
use crate::domain::tournament::{Record, Status};
use crate::live::view::now_ms;

fn iso_time(ms: u64) -> String {
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
    let standings: Vec<Value> = r
        .standings()
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
        .collect();
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
    let model = r.model(false);
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
    })
}
