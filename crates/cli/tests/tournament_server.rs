//! Tournaments on the server as a process (`caissa serve`), played to the end by
//! bot clients over the lichess Board API: a round robin, and a 30-player Swiss
//! with a no-show, a withdrawal, a late entry, a half-point bye and a SIGKILL in
//! the middle of a round. Every round's pairing is then checked by `caissa
//! tournament check` on the TRF the server exports, and every result against its
//! game.

use std::collections::HashSet;
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caissa_tournament::{trf, Bye, Entry, GameResult};
use serde_json::Value;

mod support;
use support::*;

/// How a bot ends its games, by the game's id: White resigns, Black resigns, or
/// they agree a draw.
fn plan(game_id: &str) -> u8 {
    (game_id.bytes().map(u32::from).sum::<u32>() % 3) as u8
}

/// A bot: plays every game it is in, four plies at most, until `stop`. A
/// `ghost` does not touch its games while the flag is up.
async fn bot(api: Arc<Api>, token: String, ghost: Arc<AtomicBool>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(60)).await;
        if ghost.load(Ordering::Relaxed) {
            continue;
        }
        let Some(playing) = api.get("/api/account/playing?nb=50", Some(&token)).await else {
            continue;
        };
        for game in playing["nowPlaying"].as_array().into_iter().flatten() {
            // Lichess's shape: a tournament's game names its Swiss.
            assert_eq!(game["source"], "swiss", "{game}");
            assert!(game["swissId"].is_string(), "{game}");
            if game["isMyTurn"] != true {
                continue;
            }
            let id = game["gameId"].as_str().unwrap_or_default().to_string();
            let white = game["color"] == "white";
            let last = game["lastMove"].as_str().unwrap_or_default().to_string();
            let act = |what: &str| format!("/api/board/game/{id}/{what}");
            match (white, last.as_str(), plan(&id)) {
                (true, "", _) => {
                    api.post(&act("move/e2e4"), &token, &[]).await;
                }
                (false, "e2e4", _) => {
                    api.post(&act("move/e7e5"), &token, &[]).await;
                }
                (true, "e7e5", 0) => {
                    api.post(&act("resign"), &token, &[]).await;
                }
                (true, "e7e5", p) => {
                    if p == 2 {
                        api.post(&act("draw/yes"), &token, &[]).await;
                    }
                    api.post(&act("move/g1f3"), &token, &[]).await;
                }
                (false, "g1f3", 2) => {
                    let (status, _) = api.post(&act("draw/yes"), &token, &[]).await;
                    if status != 200 {
                        api.post(&act("resign"), &token, &[]).await;
                    }
                }
                (false, "g1f3", _) => {
                    api.post(&act("resign"), &token, &[]).await;
                }
                _ => {}
            }
        }
    }
}

/// Waits until the tournament's JSON satisfies `done`, failing after `limit`.
async fn until(api: &Api, id: &str, limit: Duration, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(t) = api.get(&format!("/api/swiss/{id}"), None).await {
            if done(&t) {
                return t;
            }
            assert!(
                Instant::now() < deadline,
                "gave up waiting; the tournament is {t}"
            );
        }
        assert!(Instant::now() < deadline, "gave up waiting for the server");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn caissa(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Checks every round of the exported TRF with `caissa tournament check` and
/// every board's result against its game's; returns the parsed file.
async fn check_export(
    api: &Api,
    dir: &std::path::Path,
    db: &str,
    id: &str,
    system: &str,
) -> caissa_tournament::Tournament {
    let text = api
        .get_text(&format!("/swiss/{id}.trf"))
        .await
        .expect("the TRF");
    let path = dir.join(format!("{id}.trf"));
    std::fs::write(&path, &text).unwrap();
    let (ok, out, err) = caissa(&[
        "tournament",
        "check",
        path.to_str().unwrap(),
        "--system",
        system,
    ]);
    assert!(ok, "caissa tournament check: {out}{err}\n{text}");
    let (ok, exported, err) = caissa(&["tournament", "export", id, "--trf", "--db", db]);
    assert!(ok, "{err}");
    assert_eq!(
        exported, text,
        "the command and the API export the same file"
    );
    let model = trf::parse(&text).unwrap();
    let standings = api
        .get(&format!("/api/swiss/{id}/standings"), None)
        .await
        .unwrap();
    let mut seen = 0;
    for round in standings["rounds"].as_array().unwrap() {
        for board in round["boards"].as_array().unwrap() {
            let game = api
                .get(
                    &format!(
                        "/game/export/{}?format=json",
                        board["gameId"].as_str().unwrap()
                    ),
                    None,
                )
                .await;
            let Some(game) = game else { continue };
            let winner = game["winner"].as_str();
            let expected = match (game["status"].as_str().unwrap(), winner) {
                ("aborted", _) | ("noStart", _) => None,
                (_, Some("white")) => Some("1-0"),
                (_, Some("black")) => Some("0-1"),
                _ => Some("½-½"),
            };
            if let Some(expected) = expected {
                assert_eq!(board["result"], expected, "{board} {game}");
                seen += 1;
            }
        }
    }
    assert!(seen > 0);
    model
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_round_robin_of_nine_is_played_to_the_end_by_bots() {
    // Nine players: nine rounds, one bye each, everyone meets the eight others.
    const PLAYERS: usize = 9;
    let dir = temp_dir("rr");
    let db = format!("sqlite://{}", dir.join("caissa.db").display());
    let names: Vec<String> = (1..=PLAYERS)
        .map(|i| format!("rr{i}"))
        .chain(["organiser".into()])
        .collect();
    let tokens = accounts(&db, &names).await;
    let port = free_port();
    let _server = start(&db, port);
    let api = Arc::new(Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    });
    let organiser = &tokens["organiser"];
    let (status, t) = api
        .post(
            "/api/swiss/new",
            organiser,
            &[
                ("name", "Nine".into()),
                ("system", "roundRobin".into()),
                ("clock.limit", "60".into()),
                ("clock.increment", "0".into()),
                ("roundInterval", "0".into()),
                (
                    "startsAt",
                    (caissa_server::now_ms() + 3_600_000).to_string(),
                ),
            ],
        )
        .await;
    assert_eq!(status, 200, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    assert_eq!(t["status"], "created");
    // A round robin names no number of rounds.
    let (status, refused) = api
        .post(
            "/api/swiss/new",
            organiser,
            &[
                ("system", "roundRobin".into()),
                ("clock.limit", "60".into()),
                ("nbRounds", "3".into()),
            ],
        )
        .await;
    assert_eq!(status, 400);
    assert!(
        refused["error"].as_str().unwrap().contains("nbRounds"),
        "{refused}"
    );
    let stop = Arc::new(AtomicBool::new(false));
    let awake = Arc::new(AtomicBool::new(false));
    let mut bots = Vec::new();
    for i in 1..=PLAYERS {
        let token = tokens[&format!("rr{i}")].clone();
        let (status, body) = api
            .post(&format!("/api/swiss/{id}/join"), &token, &[])
            .await;
        assert_eq!(status, 200, "{body}");
        bots.push(tokio::spawn(bot(
            api.clone(),
            token,
            awake.clone(),
            stop.clone(),
        )));
    }
    // The page's stream opens with the entrants, by rating, before any pairing.
    let mut live = api
        .client
        .get(format!("{}/api/swiss/{id}/stream", api.base))
        .send()
        .await
        .unwrap();
    let mut first = Vec::new();
    while !first.contains(&b'\n') {
        first.extend_from_slice(&live.chunk().await.unwrap().expect("a first line"));
    }
    let first: Value =
        serde_json::from_slice(first.split(|&b| b == b'\n').next().unwrap()).unwrap();
    assert_eq!(first["tournament"]["id"], id.as_str());
    assert_eq!(first["tournament"]["status"], "created");
    assert_eq!(
        first["standings"]["standings"].as_array().unwrap().len(),
        PLAYERS
    );
    drop(live);
    // Joining twice is refused, by name.
    let (status, body) = api
        .post(&format!("/api/swiss/{id}/join"), &tokens["rr1"], &[])
        .await;
    assert_eq!(status, 400, "{body}");
    let now = caissa_server::now_ms().to_string();
    let (status, body) = api
        .post(
            &format!("/api/swiss/{id}/schedule-next-round"),
            organiser,
            &[("date", now)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let done = until(&api, &id, Duration::from_secs(120), |t| {
        t["status"] == "finished"
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    assert_eq!(done["round"], PLAYERS);
    assert_eq!(done["nbRounds"], PLAYERS);
    let model = check_export(&api, &dir, &db, &id, "round-robin").await;
    for player in &model.players {
        let opponents: HashSet<u32> = player
            .rounds
            .iter()
            .flatten()
            .filter_map(Entry::opponent)
            .collect();
        assert_eq!(
            opponents.len(),
            PLAYERS - 1,
            "everyone meets everyone: {player:?}"
        );
        let byes = player
            .rounds
            .iter()
            .flatten()
            .filter(|e| matches!(e, Entry::Bye { .. }))
            .count();
        assert_eq!(byes, 1, "an odd number of players: one bye each");
    }
    let results = api
        .get_text(&format!("/api/swiss/{id}/results"))
        .await
        .unwrap();
    assert_eq!(results.lines().count(), PLAYERS, "{results}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_thirty_player_swiss_survives_no_shows_withdrawals_late_entries_byes_and_a_sigkill() {
    let dir = temp_dir("swiss");
    let db = format!("sqlite://{}", dir.join("caissa.db").display());
    let mut names: Vec<String> = (1..=29).map(|i| format!("s{i:02}")).collect();
    names.push("late".into());
    names.push("organiser".into());
    let tokens = accounts(&db, &names).await;
    let port = free_port();
    let mut server = start(&db, port);
    let api = Arc::new(Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    });
    let organiser = &tokens["organiser"];
    let (status, t) = api
        .post(
            "/api/swiss/new",
            organiser,
            &[
                ("name", "Thirty".into()),
                ("clock.limit", "60".into()),
                ("clock.increment", "0".into()),
                ("nbRounds", "5".into()),
                ("roundInterval", "0".into()),
                ("rated", "true".into()),
                (
                    "startsAt",
                    (caissa_server::now_ms() + 3_600_000).to_string(),
                ),
            ],
        )
        .await;
    assert_eq!(status, 200, "{t}");
    let id = t["id"].as_str().unwrap().to_string();
    let stop = Arc::new(AtomicBool::new(false));
    let awake = Arc::new(AtomicBool::new(false));
    let ghost = Arc::new(AtomicBool::new(true));
    let mut bots = Vec::new();
    for name in names.iter().filter(|n| n.starts_with('s')) {
        let token = tokens[name].clone();
        let (status, body) = api
            .post(&format!("/api/swiss/{id}/join"), &token, &[])
            .await;
        assert_eq!(status, 200, "{name}: {body}");
        // s07 does not come to round 1.
        let asleep = if name == "s07" {
            ghost.clone()
        } else {
            awake.clone()
        };
        bots.push(tokio::spawn(bot(api.clone(), token, asleep, stop.clone())));
    }
    bots.push(tokio::spawn(bot(
        api.clone(),
        tokens["late"].clone(),
        awake.clone(),
        stop.clone(),
    )));
    // s05 asks for a half-point bye in round 3; round 9 does not exist.
    let (status, body) = api
        .post(
            &format!("/api/swiss/{id}/bye"),
            &tokens["s05"],
            &[("round", "9".into())],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = api
        .post(
            &format!("/api/swiss/{id}/bye"),
            &tokens["s05"],
            &[("round", "3".into())],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let now = caissa_server::now_ms().to_string();
    let (status, body) = api
        .post(
            &format!("/api/swiss/{id}/schedule-next-round"),
            organiser,
            &[("date", now)],
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // Round 2 begins once s07's game of round 1 is forfeited for not moving.
    until(&api, &id, Duration::from_secs(90), |t| t["round"] == 2).await;
    ghost.store(false, Ordering::Relaxed);
    // A late entry, and a withdrawal during round 2.
    let (status, body) = api
        .post(&format!("/api/swiss/{id}/join"), &tokens["late"], &[])
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = api
        .post(&format!("/api/swiss/{id}/withdraw"), &tokens["s11"], &[])
        .await;
    assert_eq!(status, 200, "{body}");

    // The server is killed in the middle of round 3 and started again.
    until(&api, &id, Duration::from_secs(90), |t| t["round"] == 3).await;
    let before = api
        .get_text(&format!("/api/swiss/{id}/standings"))
        .await
        .unwrap();
    server.0.kill().unwrap();
    server.0.wait().unwrap();
    server = start(&db, port);
    let after = api
        .get_text(&format!("/api/swiss/{id}/standings"))
        .await
        .unwrap();
    let round3 = |text: &str| {
        serde_json::from_str::<Value>(text).unwrap()["rounds"][2]["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| (b["white"].clone(), b["black"].clone(), b["gameId"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        round3(&before),
        round3(&after),
        "the stored pairing is the pairing"
    );

    let done = until(&api, &id, Duration::from_secs(120), |t| {
        t["status"] == "finished"
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    assert_eq!(done["round"], 5);
    assert_eq!(done["nbPlayers"], 30);
    let model = check_export(&api, &dir, &db, &id, "dutch").await;
    let player = |name: &str| model.players.iter().find(|p| p.name == name).unwrap();
    // 6.7: s07 did not move in round 1 and lost by forfeit.
    assert!(
        matches!(
            player("s07").entry(1),
            Some(Entry::Game {
                result: GameResult::ForfeitLoss,
                ..
            })
        ),
        "{:?}",
        player("s07").rounds
    );
    // s05's bye, s11's withdrawal, the late entry's missed rounds.
    assert_eq!(player("s05").entry(3), Some(&Entry::Bye { bye: Bye::Half }));
    for round in 3..=5 {
        assert_eq!(
            player("s11").entry(round),
            Some(&Entry::Bye { bye: Bye::Absent })
        );
    }
    for round in 1..=2 {
        assert_eq!(
            player("late").entry(round),
            Some(&Entry::Bye { bye: Bye::Absent })
        );
    }
    assert!(matches!(
        player("late").entry(3),
        Some(Entry::Game { .. })
            | Some(Entry::Bye {
                bye: Bye::PairingAllocated
            })
    ));
    let results = api
        .get_text(&format!("/api/swiss/{id}/results"))
        .await
        .unwrap();
    assert_eq!(results.lines().count(), 30, "{results}");
    // The games were rated.
    let user = api.get("/api/user/s01", None).await.unwrap();
    assert!(
        user["perfs"]["bullet"]["games"].as_u64().unwrap_or(0) >= 1,
        "{user}"
    );
    drop(server);
}
