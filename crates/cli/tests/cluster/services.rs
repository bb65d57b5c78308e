//! What the nodes share besides games: the lobby, each player's rate
//! limit, TV and a bot's presence are the same whichever node is asked.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::Value;

use crate::support::{follow, follow_closable, until, Api};
use crate::{cluster_db, node, play, start_game};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_one_for_every_node_and_moves_on_when_its_node_is_lost() {
    let Some((db, tokens)) = cluster_db("cluster_lobby", &["Anna", "Boris", "Vera"]).await else {
        return;
    };
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
    let Some((db, tokens)) = cluster_db("cluster_limits", &["Anna", "Boris"]).await else {
        return;
    };
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
    let Some((db, tokens)) = cluster_db("cluster_tv", &["Anna", "Boris"]).await else {
        return;
    };
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
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_online_on_one_node_is_online_on_every_node() {
    let Some((db, tokens)) = cluster_db("cluster_bots", &["Robo", "Anna"]).await else {
        return;
    };
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
