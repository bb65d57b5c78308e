//! One game across the nodes: played through every node, followed live,
//! and carried on when its owner is killed, paused or killed again and again.

use std::time::{Duration, Instant};

use caissa_store::scratch;
use serde_json::Value;

use crate::support::{
    accounts, follow, follow_closable, free_port, start_with, until, Api, ServerProcess,
};
use crate::{accept, challenge_boris, cluster_db, node, play, start_game, LEASE_SECS, MOVES};

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_str()
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_is_played_across_nodes_and_survives_its_owner_being_killed() {
    let Some((db, tokens)) = cluster_db("cluster_game", &["Anna", "Boris", "Vera"]).await else {
        return;
    };
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
