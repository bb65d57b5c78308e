//! Several `caissa serve` nodes on one PostgreSQL database, as processes: a
//! game owned by one node is played through the others (moves forwarded,
//! durable before they are acknowledged, exactly once under races), followed
//! live by a player and a spectator on other nodes, and goes on when its
//! owner is SIGKILLed — adopted by another node within the lease, with every
//! acknowledged move there and the clock of the player on move not charged
//! for the outage. PostgreSQL is the server `CAISSA_TEST_POSTGRES` names
//! (`scripts/test.sh` starts one); without it these tests say so and pass.

mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caissa_store::scratch;
use futures_util::StreamExt;
use serde_json::Value;
use support::{
    accounts, follow, follow_closable, free_port, start_with, until, Api, ServerProcess,
};

/// The lease the nodes of these tests hold (seconds).
const LEASE_SECS: f64 = 3.0;

/// A game's moves, all legal from the start (a Ruy Lopez).
const MOVES: [&str; 24] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6a5", "b3c2", "c7c5", "d2d4", "d8c7", "b1d2", "c5d4",
];

fn node(db: &str) -> (ServerProcess, Api) {
    let port = free_port();
    let lease = LEASE_SECS.to_string();
    let server = start_with(db, port, &["--lease-secs", &lease]);
    let api = Api {
        base: format!("http://127.0.0.1:{port}"),
        client: reqwest::Client::new(),
    };
    (server, api)
}

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_str()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// Plays `uci` for `token` on `api`, waiting out 503s (a game changing hands)
/// as `Retry-After` asks, for at most 20 s: the answer, and how many 503s.
async fn play(api: &Api, game: &str, uci: &str, token: &str) -> ((u16, Value), u32) {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_across_nodes_and_survives_its_owner_being_killed() {
    let Some(db) = scratch::postgres_url("cluster_game").await.unwrap() else {
        return;
    };
    // The schema, then the accounts, before any node serves.
    drop(caissa_store::Store::open(&db).await.unwrap());
    let tokens = accounts(&db, &["Anna".into(), "Boris".into(), "Vera".into()]).await;
    let (anna, boris, vera) = (&tokens["Anna"], &tokens["Boris"], &tokens["Vera"]);
    let (owner, a) = node(&db);
    let (_b_server, b) = node(&db);
    let (_c_server, c) = node(&db);

    // Anna challenges Boris on node C (Anna White, 10 minutes): Boris hears it on
    // node B, where his event stream is, and accepts it on node A, which starts
    // the game and owns it.
    let mut boris_events = follow(&b, "/api/stream/event", Some(boris)).await;
    let game = challenge_boris(&c, anna).await;
    until(&mut boris_events, |l| l["type"] == "challenge").await;
    accept(&a, &game, boris).await;
    until(&mut boris_events, |l| {
        l["type"] == "gameStart" && l["game"]["gameId"] == game.as_str()
    })
    .await;

    // Boris follows the game on node B, Vera watches on node C.
    let boris_path = format!("/api/board/game/stream/{game}");
    let (mut boris_board, boris_reading) = follow_closable(&b, &boris_path, Some(boris)).await;
    let mut vera_watch = follow(&c, &format!("/api/stream/game/{game}"), Some(vera)).await;
    let full = until(&mut boris_board, |l| l["type"] == "gameFull").await;
    assert!(full.last().unwrap()["state"]["moves"] == "");

    // The first 12 plies: Anna plays on B, Boris on C; each acknowledged move
    // reaches Boris's stream on B in order, and Vera's on C.
    let mut acknowledged = Vec::new();
    for (ply, uci) in MOVES[..12].iter().enumerate() {
        let (api, token) = if ply % 2 == 0 {
            (&b, anna)
        } else {
            (&c, boris)
        };
        let ((status, body), _) = play(api, &game, uci, token).await;
        assert_eq!(status, 200, "ply {ply} {uci} through another node: {body}");
        acknowledged.push(uci.to_string());
        let lines = until(&mut boris_board, |l| moves_of(l).len() == ply + 1).await;
        for line in &lines {
            let moves = moves_of(line);
            assert_eq!(moves, acknowledged[..moves.len()], "moves in order on B");
        }
    }
    let watched = until(&mut vera_watch, |l| moves_of(l).len() == 12).await;
    for line in &watched {
        let moves = moves_of(line);
        assert_eq!(moves, acknowledged[..moves.len()], "moves in order on C");
    }

    // Whether a player is there is known on every node: Boris leaves node B,
    // and Anna, connected to node C, hears that he is gone; he comes back on
    // node B, and she hears that too.
    let mut anna_board = follow(&c, &boris_path, Some(anna)).await;
    until(&mut anna_board, |l| l["type"] == "gameFull").await;
    boris_reading.abort();
    drop(boris_board);
    until(&mut anna_board, |l| {
        l["type"] == "opponentGone" && l["gone"] == true
    })
    .await;
    let mut boris_board = follow(&b, &boris_path, Some(boris)).await;
    until(&mut boris_board, |l| l["type"] == "gameFull").await;
    until(&mut anna_board, |l| {
        l["type"] == "opponentGone" && l["gone"] == false
    })
    .await;

    // A race: the same move sent to two nodes at once is played once.
    let racing = format!("/api/board/game/{game}/move/{}", MOVES[12]);
    let race_b = b.post(&racing, anna, &[]);
    let race_c = c.post(&racing, anna, &[]);
    let (first, second) = tokio::join!(race_b, race_c);
    let mut statuses = [first.0, second.0];
    statuses.sort();
    assert_eq!(statuses[0], 200, "{first:?} {second:?}");
    assert!(
        statuses[1] == 409 || statuses[1] == 400,
        "the loser is refused: {first:?} {second:?}"
    );
    acknowledged.push(MOVES[12].to_string());
    let state = until(&mut boris_board, |l| moves_of(l).len() == 13).await;
    let before_kill = state.last().unwrap().clone();

    // Node A, the game's owner, is killed while Boris is to move.
    let owner_pid = owner.0.id();
    let killed_at = Instant::now();
    drop(owner);
    eprintln!("killed node A (pid {owner_pid})");
    let ((status, body), waited) = play(&c, &game, MOVES[13], boris).await;
    let resumed_after = killed_at.elapsed();
    assert_eq!(status, 200, "after the owner was lost: {body}");
    assert!(waited > 0, "the game was unavailable while nobody owned it");
    acknowledged.push(MOVES[13].to_string());
    eprintln!(
        "the game went on {resumed_after:?} after its owner was killed ({waited} answers 503)"
    );
    assert!(
        resumed_after < Duration::from_secs_f64(LEASE_SECS + 5.0),
        "adopted within the lease and a few seconds: {resumed_after:?}"
    );
    // Boris's clock ran only until the owner was lost, and again once the
    // game was adopted: he is not charged for the outage.
    let state = until(&mut boris_board, |l| moves_of(l).len() == 14).await;
    let after = state.last().unwrap();
    assert_eq!(moves_of(after), acknowledged);
    let used = before_kill["btime"].as_u64().unwrap() - after["btime"].as_u64().unwrap();
    assert!(
        (used as f64) < resumed_after.as_millis() as f64 - LEASE_SECS * 1000.0 + 1500.0,
        "Boris was charged {used} ms over an outage of {resumed_after:?}"
    );

    // The rest of the game through the nodes that are left, then Anna resigns.
    for (ply, uci) in MOVES.iter().enumerate().skip(14) {
        let (api, token) = if ply % 2 == 0 {
            (&b, anna)
        } else {
            (&c, boris)
        };
        let ((status, body), _) = play(api, &game, uci, token).await;
        assert_eq!(status, 200, "ply {ply} {uci}: {body}");
        acknowledged.push(uci.to_string());
    }
    let (status, body) = c
        .post(&format!("/api/board/game/{game}/resign"), anna, &[])
        .await;
    assert_eq!(status, 200, "{body}");
    let end = until(&mut boris_board, |l| l["status"] == "resign").await;
    assert_eq!(moves_of(end.last().unwrap()), acknowledged);
    until(&mut boris_events, |l| l["type"] == "gameFinish").await;

    // Every acknowledged move is in the stored game, once, as any node exports it.
    let exported: Value = b
        .client
        .get(format!("{}/game/export/{game}", b.base))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        exported["moves"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .count(),
        MOVES.len()
    );
    assert_eq!(exported["winner"], "black");
}

/// The port of the node that owns `game` now, and whether its lease runs.
async fn owner_port(store: &caissa_store::Store, game: &str) -> (u16, bool) {
    let owner = store
        .owner_of(game)
        .await
        .unwrap()
        .expect("the game has an owner");
    let port = owner.address.rsplit(':').next().unwrap().parse().unwrap();
    (port, owner.alive)
}

/// The moves of `game` as stored.
async fn stored_moves(store: &caissa_store::Store, game: &str) -> Vec<String> {
    let stored = store.game(game).await.unwrap().unwrap();
    stored
        .events
        .iter()
        .filter_map(|e| serde_json::from_str::<Value>(e).ok())
        .filter(|e| e["type"] == "moved")
        .filter_map(|e| e["uci"].as_str().map(String::from))
        .collect()
}

/// Anna's challenge to Boris (Anna White, 10 minutes) made on `api`: its id.
async fn challenge_boris(api: &Api, anna: &str) -> String {
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
async fn accept(api: &Api, game: &str, boris: &str) {
    let (status, body) = api
        .post(&format!("/api/challenge/{game}/accept"), boris, &[])
        .await;
    assert_eq!(status, 200, "accepting {game}: {body}");
}

/// A game between Anna (White) and Boris started on `api`: its id.
async fn start_game(api: &Api, anna: &str, boris: &str) -> String {
    let game = challenge_boris(api, anna).await;
    accept(api, &game, boris).await;
    game
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_owner_again_and_again_loses_no_acknowledged_move() {
    let Some(db) = scratch::postgres_url("cluster_kills").await.unwrap() else {
        return;
    };
    let store = caissa_store::Store::open(&db).await.unwrap();
    let tokens = accounts(&db, &["Anna".into(), "Boris".into()]).await;
    let (anna, boris) = (&tokens["Anna"], &tokens["Boris"]);
    let lease = LEASE_SECS.to_string();
    let ports: Vec<u16> = (0..3).map(|_| free_port()).collect();
    let mut nodes: Vec<Option<ServerProcess>> = ports
        .iter()
        .map(|&port| Some(start_with(&db, port, &["--lease-secs", &lease])))
        .collect();
    let apis: Vec<Api> = ports
        .iter()
        .map(|port| Api {
            base: format!("http://127.0.0.1:{port}"),
            client: reqwest::Client::new(),
        })
        .collect();
    let game = start_game(&apis[0], anna, boris).await;
    let mut acknowledged: Vec<String> = Vec::new();
    let mut kills = 0;
    for (ply, uci) in MOVES.iter().enumerate() {
        // Every fifth ply, the owner is killed (and started again at once, at
        // its address: it rejoins without taking back what others adopted).
        if ply % 5 == 4 {
            let (port, alive) = owner_port(&store, &game).await;
            assert!(alive, "the owner runs");
            let index = ports.iter().position(|&p| p == port).unwrap();
            drop(nodes[index].take());
            kills += 1;
            let survivor = &apis[(index + 1) % 3];
            let token = if ply % 2 == 0 { anna } else { boris };
            let ((status, body), waited) = play(survivor, &game, uci, token).await;
            assert_eq!(status, 200, "kill {kills}, ply {ply}: {body}");
            assert!(
                waited > 0,
                "kill {kills}: the game was unavailable for a while"
            );
            acknowledged.push(uci.to_string());
            let (new_owner, _) = owner_port(&store, &game).await;
            assert_ne!(new_owner, port, "adopted by another node");
            nodes[index] = Some(start_with(&db, port, &["--lease-secs", &lease]));
            continue;
        }
        // Through any node, the owner or not.
        let api = &apis[ply % 3];
        let token = if ply % 2 == 0 { anna } else { boris };
        let ((status, body), _) = play(api, &game, uci, token).await;
        assert_eq!(status, 200, "ply {ply} {uci} on node {}: {body}", ply % 3);
        acknowledged.push(uci.to_string());
    }
    assert_eq!(kills, 4);
    assert_eq!(
        stored_moves(&store, &game).await,
        acknowledged,
        "0 acknowledged moves lost, none twice"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_past_its_lease_has_its_late_writes_refused_and_follows_the_new_owner() {
    let Some(db) = scratch::postgres_url("cluster_pause").await.unwrap() else {
        return;
    };
    let store = caissa_store::Store::open(&db).await.unwrap();
    let tokens = accounts(&db, &["Anna".into(), "Boris".into()]).await;
    let (anna, boris) = (&tokens["Anna"], &tokens["Boris"]);
    let (paused, a) = node(&db);
    let (_b_server, b) = node(&db);
    let game = start_game(&a, anna, boris).await;
    for (ply, uci) in MOVES[..2].iter().enumerate() {
        let token = if ply % 2 == 0 { anna } else { boris };
        assert_eq!(play(&b, &game, uci, token).await.0 .0, 200);
    }
    // Node A, the owner, stops (a partition, a long pause) past its lease: node
    // B adopts the game and it goes on there.
    let pid = paused.0.id().to_string();
    let signal = |name: &str| {
        let done = std::process::Command::new("kill")
            .args([name, &pid])
            .status()
            .unwrap();
        assert!(done.success());
    };
    signal("-STOP");
    let ((status, body), waited) = play(&b, &game, MOVES[2], anna).await;
    assert_eq!(status, 200, "{body}");
    assert!(waited > 0);
    assert_eq!(
        owner_port(&store, &game).await.0,
        b.base.rsplit(':').next().unwrap().parse::<u16>().unwrap()
    );
    // A comes back still believing it owns the game: the move sent to it is
    // not written under its old lease (refused, then forwarded to B once A
    // follows), and nothing A does lands in the log twice or out of turn.
    signal("-CONT");
    let ((status, body), _) = play(&a, &game, MOVES[3], boris).await;
    assert_eq!(status, 200, "through the node that was paused: {body}");
    let ((status, body), _) = play(&a, &game, MOVES[4], anna).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(stored_moves(&store, &game).await, MOVES[..5]);
    let exported = a.get_text(&format!("/game/export/{game}")).await.unwrap();
    assert!(exported.contains("3. Bb5"), "{exported}");
    drop(paused);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_one_for_every_node_and_moves_on_when_its_node_is_lost() {
    let Some(db) = scratch::postgres_url("cluster_lobby").await.unwrap() else {
        return;
    };
    drop(caissa_store::Store::open(&db).await.unwrap());
    let tokens = accounts(&db, &["Anna".into(), "Boris".into(), "Vera".into()]).await;
    let (anna, boris, vera) = (&tokens["Anna"], &tokens["Boris"], &tokens["Vera"]);
    // The first node started is the oldest: it keeps the lobby.
    let (hub, a) = node(&db);
    let (_b_server, b) = node(&db);
    let mut anna_events = follow(&b, "/api/stream/event", Some(anna)).await;
    let mut boris_events = follow(&b, "/api/stream/event", Some(boris)).await;

    // Anna seeks on node B; Boris sees the seek on node B and on node A, and
    // takes it on node B: both hear that the game started.
    let seek = b
        .client
        .post(format!("{}/api/board/seek", b.base))
        .bearer_auth(anna)
        .form(&[("time", "5"), ("increment", "0"), ("color", "white")])
        .send()
        .await
        .unwrap();
    assert_eq!(seek.status(), 200);
    let listed = |api: &Api| {
        let api_base = api.base.clone();
        let client = api.client.clone();
        async move {
            let deadline = Instant::now() + Duration::from_secs(5);
            loop {
                let seeks: Value = client
                    .get(format!("{api_base}/api/lobby/seeks"))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                let seeks = seeks["seeks"].as_array().cloned().unwrap_or_default();
                if !seeks.is_empty() || Instant::now() > deadline {
                    return seeks;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    };
    let on_b = listed(&b).await;
    assert_eq!(on_b.len(), 1, "{on_b:?}");
    assert_eq!(on_b[0]["username"], "Anna");
    assert_eq!(listed(&a).await, on_b, "one lobby, whichever node is asked");
    let seek_id = on_b[0]["id"].as_str().unwrap().to_string();
    let (status, body) = b
        .post(&format!("/api/lobby/seeks/{seek_id}/accept"), boris, &[])
        .await;
    assert_eq!(status, 200, "{body}");
    let game = body["gameId"].as_str().unwrap().to_string();
    for events in [&mut anna_events, &mut boris_events] {
        until(events, |l| {
            l["type"] == "gameStart" && l["game"]["gameId"] == game.as_str()
        })
        .await;
    }
    drop(seek);
    // The game is played through node B.
    assert_eq!(play(&b, &game, "e2e4", anna).await.0 .0, 200);

    // The lobby's node is lost: node B takes its place (once A's lease ran
    // out) and a new seek is kept there.
    drop(hub);
    let deadline = Instant::now() + Duration::from_secs(20);
    let seek = loop {
        let seek = b
            .client
            .post(format!("{}/api/board/seek", b.base))
            .bearer_auth(vera)
            .form(&[("time", "5"), ("increment", "0")])
            .send()
            .await
            .unwrap();
        if seek.status() == 200 || Instant::now() > deadline {
            break seek;
        }
        assert_eq!(seek.status(), 503, "while the lobby has no node");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(seek.status(), 200);
    let on_b = listed(&b).await;
    assert_eq!(on_b.len(), 1, "{on_b:?}");
    assert_eq!(on_b[0]["username"], "Vera");
    // And the game of the lost node goes on there.
    assert_eq!(play(&b, &game, "e7e5", boris).await.0 .0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_rate_limit_is_one_budget_whatever_node_they_use() {
    let Some(db) = scratch::postgres_url("cluster_limits").await.unwrap() else {
        return;
    };
    drop(caissa_store::Store::open(&db).await.unwrap());
    let tokens = accounts(&db, &["Anna".into(), "Boris".into()]).await;
    let (anna, boris) = (&tokens["Anna"], &tokens["Boris"]);
    let (_a_server, a) = node(&db);
    let (_b_server, b) = node(&db);
    let game = start_game(&a, anna, boris).await;
    let chat = format!("/api/board/game/{game}/chat");
    let line = |n: usize| {
        [
            ("room", "player".to_string()),
            ("text", format!("line {n}")),
        ]
    };
    // Five chat lines at once is the budget (then one every 2 s): all five
    // said on node A...
    for n in 0..5 {
        let (status, body) = a.post(&chat, anna, &line(n)).await;
        assert_eq!(status, 200, "line {n} on A: {body}");
    }
    // ... and node B knows it within a tenth of a second or so.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let (status, body) = b.post(&chat, anna, &line(5)).await;
    assert_eq!(status, 429, "a sixth line at once on B: {body}");
    assert!(body["error"].as_str().unwrap().contains("chat"), "{body}");
    // Boris's budget is his own.
    let (status, body) = b
        .post(
            &chat,
            boris,
            &[("room", "player".into()), ("text", "hi".into())],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // A token comes back after 2 s, on either node.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    let (status, body) = b.post(&chat, anna, &line(6)).await;
    assert_eq!(status, 200, "{body}");

    // Failed logins lock a name from an address on every node: five wrong
    // passwords on A, and B refuses even the right one.
    let login = |api: &Api, password: &str| {
        api.client
            .post(format!("{}/api/login", api.base))
            .json(&serde_json::json!({ "username": "clara", "password": password }))
            .send()
    };
    let registered = a
        .client
        .post(format!("{}/api/register", a.base))
        .json(&serde_json::json!({ "username": "Clara", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(registered.status().as_u16(), 200);
    for n in 0..5 {
        let status = login(&a, "wrong").await.unwrap().status().as_u16();
        assert_eq!(status, 401, "wrong password {n} on A");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let refused = login(&b, "correct horse").await.unwrap();
    assert_eq!(refused.status().as_u16(), 429);
    let body: Value = refused.json().await.unwrap();
    assert!(
        body["error"].as_str().unwrap().contains("failed logins"),
        "{body}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tv_shows_the_best_game_whichever_node_plays_it() {
    let Some(db) = scratch::postgres_url("cluster_tv").await.unwrap() else {
        return;
    };
    drop(caissa_store::Store::open(&db).await.unwrap());
    let tokens = accounts(&db, &["Anna".into(), "Boris".into()]).await;
    let (anna, boris) = (&tokens["Anna"], &tokens["Boris"]);
    // Node A is the hub (it keeps TV); the game is started on, and owned by,
    // node B, and nobody on A has looked at it.
    let (_a_server, a) = node(&db);
    let (_b_server, b) = node(&db);
    // A stream on A following Anna and Boris hears of the game B plays.
    let following = a
        .client
        .post(format!("{}/api/stream/games-by-users", a.base))
        .body("Anna,Boris")
        .send()
        .await
        .unwrap();
    assert_eq!(following.status(), 200);
    let mut following = following.bytes_stream();
    let game = start_game(&b, anna, boris).await;
    let told = tokio::time::timeout(Duration::from_secs(10), async {
        let mut text = Vec::new();
        while !text.contains(&b'\n') {
            text.extend_from_slice(&following.next().await.unwrap().unwrap());
        }
        serde_json::from_slice::<Value>(text.split(|&c| c == b'\n').next().unwrap()).unwrap()
    })
    .await
    .expect("the game's start was told on A");
    assert_eq!(told["id"], game.as_str(), "{told}");
    assert_eq!(told["players"]["white"]["userId"], "anna", "{told}");
    play(&b, &game, "e2e4", anna).await;
    for api in [&a, &b] {
        let (status, tv) = api.get_json("/api/tv").await;
        assert_eq!(status, 200, "{tv}");
        assert_eq!(tv["id"], game, "{tv}");
        let (status, channels) = api.get_json("/api/tv/channels").await;
        assert_eq!(status, 200, "{channels}");
        let shown = channels.as_object().unwrap().values();
        assert!(
            shown.map(|c| &c["gameId"]).any(|id| *id == game),
            "{channels}"
        );
    }
    // What a node asks another is for the nodes only.
    let (status, body) = b.get_json("/internal/on-board").await;
    assert_eq!(status, 403, "{body}");
}

/// A tournament player on several nodes: plays each of its games (White
/// e2e4, Black e7e5, White resigns), asking the first node that answers.
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
    let Some(db) = scratch::postgres_url("cluster_tournament").await.unwrap() else {
        return;
    };
    drop(caissa_store::Store::open(&db).await.unwrap());
    let names: Vec<String> = ["P1", "P2", "P3", "P4", "Organiser"]
        .map(String::from)
        .into();
    let tokens = accounts(&db, &names).await;
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_online_on_one_node_is_online_on_every_node() {
    let Some(db) = scratch::postgres_url("cluster_bots").await.unwrap() else {
        return;
    };
    drop(caissa_store::Store::open(&db).await.unwrap());
    let tokens = accounts(&db, &["Robo".into(), "Anna".into()]).await;
    let (_a_server, a) = node(&db);
    let (_b_server, b) = node(&db);
    let (status, body) = a
        .post("/api/bot/account/upgrade", &tokens["Robo"], &[])
        .await;
    assert_eq!(status, 200, "{body}");
    let online = |api: &Api| {
        let url = format!("{}/api/bot/online", api.base);
        let client = api.client.clone();
        async move {
            let text = client.get(url).send().await.unwrap().text().await.unwrap();
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()["username"].clone())
                .collect::<Vec<_>>()
        }
    };
    assert!(online(&a).await.is_empty());
    // Robo listens on B; Anna (not a bot) on A.
    let (_robo, robo_stream) =
        follow_closable(&b, "/api/stream/event", Some(&tokens["Robo"])).await;
    let _anna = follow(&a, "/api/stream/event", Some(&tokens["Anna"])).await;
    for api in [&a, &b] {
        assert_eq!(online(api).await, ["Robo"], "on {}", api.base);
    }
    // Robo's stream closes: nobody lists him.
    robo_stream.abort();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for api in [&a, &b] {
        assert!(online(api).await.is_empty(), "on {}", api.base);
    }
}
