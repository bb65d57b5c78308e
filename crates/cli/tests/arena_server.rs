//! An arena on the server as a process (`caissa serve`), played by bot clients
//! over the lichess Board API for its whole minute: one player goes berserk in
//! every game and wins them all, the others play short games, one pauses half
//! way. Every player's sheet is then scored again here, by lichess's rules, from
//! the tournament's exported games, and must equal the server's.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

mod support;
use support::*;

/// The line every game of the berserker follows: sixteen plies, none repeated.
const LINE: [&str; 16] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d3", "d7d6", "e1g1", "e8g8",
    "f1e1", "a7a6", "h2h3", "h7h6",
];
const ACE: &str = "ace";

/// A bot: in a game with the ace, the ace goes berserk before its first move and
/// the line is played until the ace's opponent resigns after ply 16; between two
/// others, Black resigns after White's second move.
async fn bot(api: Arc<Api>, name: String, token: String, stop: Arc<AtomicBool>) {
    let mut berserked = std::collections::HashSet::new();
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(40)).await;
        let Some(playing) = api.get("/api/account/playing?nb=50", Some(&token)).await else {
            continue;
        };
        for game in playing["nowPlaying"].as_array().into_iter().flatten() {
            assert_eq!(game["source"], "arena", "{game}");
            assert!(game["tournamentId"].is_string(), "{game}");
            let id = game["gameId"].as_str().unwrap_or_default().to_string();
            let act = |what: &str| format!("/api/board/game/{id}/{what}");
            let against_ace = game["opponent"]["username"] == ACE;
            if name == ACE && berserked.insert(id.clone()) {
                let (status, body) = api.post(&act("berserk"), &token, &[]).await;
                assert_eq!(status, 200, "berserk refused: {body}");
            }
            if game["isMyTurn"] != true {
                continue;
            }
            let last = game["lastMove"].as_str().unwrap_or_default();
            let ply = LINE
                .iter()
                .position(|m| *m == last)
                .map_or(if last.is_empty() { 0 } else { usize::MAX }, |i| i + 1);
            let next = if name == ACE || against_ace {
                match ply {
                    p if p < LINE.len() => Some(LINE[p]),
                    // Ply 16: the ace (White) plays on, its opponent resigns.
                    _ if name == ACE => Some("b1d2"),
                    _ => None,
                }
            } else {
                match ply {
                    0..=2 => Some(LINE[ply]),
                    _ => None,
                }
            };
            match next {
                Some(m) => api.post(&act(&format!("move/{m}")), &token, &[]).await,
                None => api.post(&act("resign"), &token, &[]).await,
            };
        }
    }
}

/// Lichess's arena scoring, written again here from its published rules: a win
/// 2, a draw 1 (0 under 20 plies), doubled after two wins in a row until a game
/// is not won; a berserk win of at least 14 plies one more, never doubled.
fn score(games: &[(bool, usize, bool)]) -> String {
    let mut in_a_row = 0;
    games
        .iter()
        .map(|&(won, plies, berserk)| {
            let fire = in_a_row >= 2;
            let points = if won {
                in_a_row += 1;
                (if fire { 4 } else { 2 }) + u32::from(berserk && plies >= 14)
            } else {
                in_a_row = 0;
                0
            };
            char::from_digit(points, 10).unwrap()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_arena_with_berserk_and_streaks_is_scored_by_lichess_rules() {
    let dir = temp_dir("arena");
    let db = format!("sqlite://{}", dir.join("arena.db").display());
    let mut names: Vec<String> = (1..=7).map(|i| format!("bot{i}")).collect();
    names.push(ACE.into());
    names.push("organiser".into());
    let tokens = accounts(&db, &names).await;
    let port = free_port();
    let _server = start(&db, port);
    let api = Arc::new(Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    });

    // Refused with the field named.
    let (status, body) = api
        .post(
            "/api/tournament",
            &tokens["organiser"],
            &[("clockTime", "3".into())],
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("clockIncrement"),
        "{body}"
    );

    let starts = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
        + 3_000;
    let (status, created) = api
        .post(
            "/api/tournament",
            &tokens["organiser"],
            &[
                ("name", "Berserk Arena".into()),
                ("clockTime", "3".into()),
                ("clockIncrement", "2".into()),
                ("minutes", "1".into()),
                ("startDate", starts.to_string()),
                ("rated", "false".into()),
                ("arbiters", "organiser".into()),
            ],
        )
        .await;
    assert_eq!(status, 200, "{created}");
    assert_eq!(created["system"], "arena");
    assert_eq!(created["berserkable"], true);
    assert_eq!(created["clock"]["limit"], 180);
    let id = created["id"].as_str().unwrap().to_string();
    let players: Vec<&String> = names.iter().filter(|n| *n != "organiser").collect();
    for name in &players {
        let (status, body) = api
            .post(&format!("/api/tournament/{id}/join"), &tokens[*name], &[])
            .await;
        assert_eq!(status, 200, "{name}: {body}");
    }
    // Lichess lists it as upcoming.
    let list = api.get("/api/tournament", None).await.unwrap();
    assert!(list["created"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == id));

    let stop = Arc::new(AtomicBool::new(false));
    let bots: Vec<_> = players
        .iter()
        .map(|name| {
            tokio::spawn(bot(
                api.clone(),
                name.to_string(),
                tokens[*name].clone(),
                stop.clone(),
            ))
        })
        .collect();

    // Half way, bot7 pauses.
    let deadline = Instant::now() + Duration::from_secs(120);
    tokio::time::sleep(Duration::from_millis(starts.saturating_sub(now()) + 30_000)).await;
    top_board_and_arbiter_see_the_arena(&api, &id, &tokens["organiser"]).await;
    let (status, body) = api
        .post(
            &format!("/api/tournament/{id}/withdraw"),
            &tokens["bot7"],
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let paused_at = now();

    let finished = loop {
        let t = api
            .get(&format!("/api/tournament/{id}"), None)
            .await
            .unwrap();
        if t["isFinished"] == true {
            break t;
        }
        assert!(Instant::now() < deadline, "the arena did not finish: {t}");
        tokio::time::sleep(Duration::from_millis(300)).await;
    };
    stop.store(true, Ordering::Relaxed);
    for b in bots {
        b.await.unwrap();
    }
    assert_eq!(finished["podium"][0]["name"], ACE, "{finished}");
    let nb = &finished["podium"][0]["nb"];
    assert!(nb["game"].as_u64().unwrap() >= 3, "{finished}");
    assert_eq!(nb["berserk"], nb["game"]);
    assert_eq!(nb["win"], nb["game"]);

    // Every sheet, scored again from the games.
    let results = api
        .get_text(&format!("/api/tournament/{id}/results?sheet=true"))
        .await
        .unwrap();
    let sheets: HashMap<String, Value> = results
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["username"].as_str().unwrap().to_string(), v))
        .collect();
    assert_eq!(sheets.len(), players.len());
    let games = api
        .client
        .get(format!("{}/api/tournament/{id}/games", api.base))
        .header("Accept", "application/x-ndjson")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let mut games: Vec<Value> = games
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    games.sort_by_key(|g| g["createdAt"].as_u64());
    for g in &games {
        assert_eq!(g["source"], "arena", "{g}");
        assert_eq!(g["tournamentId"], id.as_str(), "{g}");
    }
    let mut bot7_games_after_pause = 0;
    for name in &players {
        let mine: Vec<(bool, usize, bool)> = games
            .iter()
            .filter(|g| g["status"] != "started")
            .filter_map(|g| {
                let side = ["white", "black"]
                    .into_iter()
                    .find(|s| g["players"][s]["user"]["name"] == name.as_str())?;
                let plies = g["moves"].as_str().unwrap().split_whitespace().count();
                let berserk = g["players"][side]["berserk"] == true;
                if name.as_str() == "bot7" && g["createdAt"].as_u64().unwrap() > paused_at + 500 {
                    bot7_games_after_pause += 1;
                }
                Some((g["winner"] == side, plies, berserk))
            })
            .collect();
        let sheet = sheets[name.as_str()]["sheet"]["scores"].as_str().unwrap();
        // A game that ended after the arena's end is not on the sheet.
        let expected = score(&mine);
        assert!(
            expected.starts_with(sheet) && expected.len() <= sheet.len() + 1,
            "{name}: the server scored {sheet:?}, the rules give {expected:?}"
        );
        let total: u32 = sheet.chars().map(|c| c.to_digit(10).unwrap()).sum();
        assert_eq!(sheets[name.as_str()]["score"], total, "{name}");
    }
    let ace = sheets[ACE]["sheet"]["scores"].as_str().unwrap();
    assert!(
        ace.starts_with("335"),
        "berserk bonus, then the streak: {ace}"
    );
    assert_eq!(bot7_games_after_pause, 0, "a paused player was paired");
}

/// While games are played: the arena's `featured` game is one of its duels, TV
/// of the arena shows one of its games, and the organiser, named arbiter, sees
/// exactly the arena's games in a console filtered to it.
async fn top_board_and_arbiter_see_the_arena(api: &Api, id: &str, organiser: &str) {
    let mut seen = false;
    for _ in 0..50 {
        let t = api
            .get(&format!("/api/tournament/{id}"), None)
            .await
            .unwrap();
        let Some(top) = t.get("featured") else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        assert!(
            t["duels"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| d["id"] == top["id"]),
            "{t}"
        );
        assert!(
            top["white"]["rank"].is_u64() && top["black"]["rank"].is_u64(),
            "{top}"
        );
        assert!(
            top["fen"].is_string() && top["c"]["white"].is_u64(),
            "{top}"
        );
        seen = true;
        break;
    }
    assert!(seen, "no featured game while the arena is played");
    let tv = api
        .get(&format!("/api/tv?tournament={id}"), None)
        .await
        .unwrap();
    assert_eq!(tv["tournamentId"], id, "{tv}");
    let console = api
        .get(
            &format!("/api/arbiter/games?tournament={id}"),
            Some(organiser),
        )
        .await
        .unwrap();
    let listed = console["games"].as_array().unwrap();
    assert!(!listed.is_empty(), "{console}");
    assert!(listed.iter().all(|g| g["tournament"] == id), "{console}");
    let other = api
        .get("/api/arbiter/games?tournament=elsewhere", Some(organiser))
        .await
        .unwrap();
    assert_eq!(other["games"], serde_json::json!([]), "{other}");
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64
}
