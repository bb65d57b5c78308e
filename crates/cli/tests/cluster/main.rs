//! Several `caissa serve` nodes on one PostgreSQL database, as processes: a
//! game owned by one node is played through the others (moves forwarded,
//! durable before they are acknowledged, exactly once under races), followed
//! live by a player and a spectator on other nodes, and goes on when its
//! owner is SIGKILLed — adopted by another node within the lease, with every
//! acknowledged move there and the clock of the player on move not charged
//! for the outage. PostgreSQL is the server `CAISSA_TEST_POSTGRES` names
//! (`scripts/test.sh` starts one); without it these tests say so and pass.

#[path = "../support/mod.rs"]
mod support;

mod games;
mod services;
mod tournament;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{free_port, start_with, Api, ServerProcess};

/// The lease the nodes of these tests hold (seconds).
pub const LEASE_SECS: f64 = 3.0;

/// A game's moves, all legal from the start (a Ruy Lopez).
pub const MOVES: [&str; 24] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5", "d2d4", "d8c7", "b1d2", "c5d4",
];

/// A scratch PostgreSQL database named after `test`, with the schema and
/// `users`' accounts made before any node serves, and their tokens; `None`
/// without a PostgreSQL server to test on.
pub async fn cluster_db(test: &str, users: &[&str]) -> Option<(String, HashMap<String, String>)> {
    let db = caissa_store::scratch::postgres_url(test).await.unwrap()?;
    drop(caissa_store::Store::open(&db).await.unwrap());
    let names: Vec<String> = users.iter().map(|u| u.to_string()).collect();
    let tokens = support::accounts(&db, &names).await;
    Some((db, tokens))
}

/// A node of the cluster on `db`, holding the tests' lease, and a client for it.
pub fn node(db: &str) -> (ServerProcess, Api) {
    let port = free_port();
    let lease = LEASE_SECS.to_string();
    let server = start_with(db, port, &["--lease-secs", &lease]);
    let api = Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    };
    (server, api)
}

/// Plays `uci` for `token` on `api`, waiting out 503s (a game changing hands)
/// as `Retry-After` asks, for at most 20 s: the answer, and how many 503s.
pub async fn play(api: &Api, game: &str, uci: &str, token: &str) -> ((u16, Value), u32) {
    let mut unavailable = 0;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let answer = api
            .post(&format!("/api/board/game/{game}/move/{uci}"), token, &[])
            .await;
        if answer.0 != 503 || Instant::now() > deadline {
            return (answer, unavailable);
        }
        unavailable += 1;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Anna's challenge to Boris (Anna White, 10 minutes) made on `api`: its id.
pub async fn challenge_boris(api: &Api, anna: &str) -> String {
    let (status, challenge) = api
        .post(
            "/api/challenge/Boris",
            anna,
            &[
                ("clock.limit", "600".into()),
                ("clock.increment", "0".into()),
                ("color", "white".into()),
            ],
        )
        .await;
    assert_eq!(status, 200, "{challenge}");
    challenge["id"].as_str().unwrap().to_string()
}

/// Boris accepts challenge `game` on `api`.
pub async fn accept(api: &Api, game: &str, boris: &str) {
    let (status, body) = api
        .post(&format!("/api/challenge/{game}/accept"), boris, &[])
        .await;
    assert_eq!(status, 200, "accepting {game}: {body}");
}

/// A game between Anna (White) and Boris started on `api`: its id.
pub async fn start_game(api: &Api, anna: &str, boris: &str) -> String {
    let game = challenge_boris(api, anna).await;
    accept(api, &game, boris).await;
    game
}
