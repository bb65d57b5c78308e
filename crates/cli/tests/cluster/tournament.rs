//! A round robin played by clients spread over the nodes, which outlives
//! the node that runs it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::Api;
use crate::{cluster_db, node};

async fn tournament_player(nodes: Vec<Arc<Api>>, token: String, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let mut playing = None;
        let mut api = None;
        for node in &nodes {
            if let Some(answer) = node.get("/api/account/playing", Some(&token)).await {
                playing = Some(answer);
                api = Some(node);
                break;
            }
        }
        let (Some(playing), Some(api)) = (playing, api) else {
            continue;
        };
        for game in playing["nowPlaying"].as_array().into_iter().flatten() {
            assert_eq!(game["source"], "swiss", "{game}");
            if game["isMyTurn"] != true {
                continue;
            }
            let id = game["gameId"].as_str().unwrap_or_default();
            let act = match (game["color"].as_str(), game["lastMove"].as_str()) {
                (Some("white"), Some("")) => "move/e2e4",
                (Some("black"), Some("e2e4")) => "move/e7e5",
                (Some("white"), Some("e7e5")) => "resign",
                _ => continue,
            };
            api.post(&format!("/api/board/game/{id}/{act}"), &token, &[])
                .await;
        }
    }
}

/// The tournament `id` as `api` tells it, once it satisfies `done` (within
/// `limit`).
async fn tournament_until(
    api: &Api,
    id: &str,
    limit: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + limit;
    let mut last = Value::Null;
    while Instant::now() < deadline {
        if let Some(t) = api.get(&format!("/api/swiss/{id}"), None).await {
            if done(&t) {
                return t;
            }
            last = t;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("gave up waiting; the tournament is {last}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_is_played_across_nodes_and_outlives_its_hub() {
    let players = ["P1", "P2", "P3", "P4", "Organiser"];
    let Some((db, tokens)) = cluster_db("cluster_tournament", &players).await else {
        return;
    };
    // A starts first: it is the hub, where tournaments are directed.
    let (hub_server, a) = node(&db);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (_b_server, b) = node(&db);
    let (_c_server, c) = node(&db);
    let (a, b, c) = (Arc::new(a), Arc::new(b), Arc::new(c));
    // The organiser creates it on C (relayed to the hub).
    let (status, t) = c
        .post(
            "/api/swiss/new",
            &tokens["Organiser"],
            &[
                ("name", "Across".into()),
                ("system", "roundRobin".into()),
                ("clock.limit", "300".into()),
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
    // P1 and P2 play on A (then on C when A is gone), P3 and P4 on B.
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = Vec::new();
    for (name, nodes) in [
        ("P1", vec![a.clone(), c.clone()]),
        ("P2", vec![a.clone(), c.clone()]),
        ("P3", vec![b.clone(), c.clone()]),
        ("P4", vec![b.clone(), c.clone()]),
    ] {
        let (status, body) = nodes[0]
            .post(&format!("/api/swiss/{id}/join"), &tokens[name], &[])
            .await;
        assert_eq!(status, 200, "{name} joins: {body}");
        players.push(tokio::spawn(tournament_player(
            nodes,
            tokens[name].clone(),
            stop.clone(),
        )));
    }
    let now = caissa_server::now_ms().to_string();
    let (status, body) = b
        .post(
            &format!("/api/swiss/{id}/schedule-next-round"),
            &tokens["Organiser"],
            &[("date", now)],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Every node tells the same tournament: round 2 under way.
    let seen = tournament_until(&b, &id, Duration::from_secs(60), |t| {
        t["round"].as_u64() >= Some(2)
    })
    .await;
    assert_eq!(seen["nbPlayers"], 4, "{seen}");
    assert_eq!(seen["status"], "started", "{seen}");
    // The hub is killed mid-tournament; another node directs the rest.
    drop(hub_server);
    let killed_at = Instant::now();
    let done = tournament_until(&c, &id, Duration::from_secs(90), |t| {
        t["status"] == "finished"
    })
    .await;
    stop.store(true, Ordering::Relaxed);
    eprintln!(
        "the hub was killed in round {}; finished {:?} later",
        seen["round"],
        killed_at.elapsed()
    );
    assert_eq!(done["round"], 3, "{done}");
    // Four players, three rounds, every game decisive: six points in all,
    // the same standings read from either node left.
    let standings = |api: Arc<Api>| {
        let id = id.clone();
        async move {
            api.get_text(&format!("/api/swiss/{id}/results"))
                .await
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        }
    };
    let on_b = standings(b.clone()).await;
    assert_eq!(on_b, standings(c.clone()).await);
    assert_eq!(on_b.len(), 4, "{on_b:?}");
    let points: f64 = on_b.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 6.0, "{on_b:?}");
    for player in players {
        player.await.unwrap();
    }
}
