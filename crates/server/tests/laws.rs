//! The Laws as a player reaches them through the Board API.

use super::*;

/// A fide-rapid game of `limit` seconds a side between Anna (White) and Boris,
/// its id.
async fn rapid_game(server: &Server, anna: &str, boris: &str, limit: &str) -> String {
    let form = [
        ("clock.limit", limit),
        ("clock.increment", "0"),
        ("color", "white"),
        ("ruleset", "fide-rapid"),
    ];
    boris_accepts(server, anna, boris, &form).await
}

#[tokio::test]
async fn a_5_3_in_rapid_a_fallen_flag_waits_for_the_opponents_claim() {
    let db = temp_db("claim-flag");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = rapid_game(&server, &anna, &boris, "1").await;
    let claim = |token: &str| {
        let url = server.url(&format!("/api/board/game/{id}/claim-flag"));
        let client = client.clone();
        let token = token.to_string();
        async move { post(&client, url, &token, &[]).await }
    };
    // Nothing has fallen yet.
    let (status, body) = claim(&boris).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("not fallen"),
        "{body}"
    );
    // White's second runs out; nobody claims, so the game goes on.
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    let game = exported(&server, &id).await;
    assert_eq!(game["status"], "started", "{game}");
    // The flagged player cannot claim the other's flag.
    let (status, _) = claim(&anna).await;
    assert_eq!(status, 400);
    // Black claims: won on time.
    let (status, body) = claim(&boris).await;
    assert_eq!(status, 200, "{body}");
    let game = exported(&server, &id).await;
    assert_eq!(game["status"], "outoftime", "{game}");
    assert_eq!(game["winner"], "black", "{game}");
    // Someone else's claim is not theirs to make.
    let carla = user_with_token(&db, "Carla").await;
    let other = rapid_game(&server, &anna, &boris, "60").await;
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{other}/claim-flag")),
        &carla,
        &[],
    )
    .await;
    assert_eq!(status, 403);
}

/// The first line of a game's Board API stream (`gameFull`), read as `token`.
async fn game_full(server: &Server, token: &str, id: &str) -> Value {
    let stream = reqwest::Client::new()
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    read_lines(stream, |_| true).await.remove(0)
}

#[tokio::test]
async fn art_6_3_a_time_control_of_several_periods_from_the_timecontrol_field() {
    let db = temp_db("periods");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    // Two moves in 90 s, then 30 s for the rest; 5 s a move from move 1.
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("timeControl", "2/90+5:30+5"),
            ("color", "white"),
            ("ruleset", "fide-rapid"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(
        challenge["timeControl"]["pgn"], "2/90+5:30+5",
        "{challenge}"
    );
    let id = challenge["id"].as_str().unwrap().to_string();
    post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    let full = game_full(&server, &anna, &id).await;
    // The clock runs from the start (fide-rapid): 90 s less a few ms.
    let wtime = full["state"]["wtime"].as_u64().unwrap();
    assert!(wtime > 85_000 && wtime <= 90_000, "{full}");
    assert_eq!(
        full["state"]["movesToControl"],
        serde_json::json!({ "white": 2, "black": 2 }),
        "{full}"
    );
    for (token, mv) in [(&anna, "e2e4"), (&boris, "e7e5"), (&anna, "g1f3")] {
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    // White made the control: 30 s more, now in sudden death, so no count.
    let full = game_full(&server, &boris, &id).await;
    let state = &full["state"];
    assert!(state.get("movesToControl").is_none(), "{state}");
    let wtime = state["wtime"].as_u64().unwrap();
    assert!(wtime > 120_000 && wtime <= 130_000, "{state}");
    let pgn = client
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(pgn.contains("[TimeControl \"2/90+5:30+5\"]"), "{pgn}");
}

#[tokio::test]
async fn a_clock_given_twice_wrongly_or_unknown_is_refused_by_name() {
    let db = temp_db("clock-fields");
    let anna = user_with_token(&db, "Anna").await;
    user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    for (form, named) in [
        (
            vec![("timeControl", "40/5400:1800"), ("clock.limit", "300")],
            "clock.limit",
        ),
        (vec![("timeControl", "40/abc")], "timeControl"),
        (vec![("timeControl", "0/60:60")], "at least one move"),
        (
            vec![("clock.limit", "300"), ("clock.limt", "60")],
            "clock.limt",
        ),
    ] {
        let (status, body) = post(&client, server.url("/api/challenge/Boris"), &anna, &form).await;
        assert_eq!(status, 400, "{form:?}: {body}");
        let error = body["error"].as_str().unwrap();
        assert!(error.contains(named), "{form:?}: {error}");
    }
    let (status, body) = post(
        &client,
        server.url("/api/board/seek"),
        &anna,
        &[("timeControl", "300+3"), ("time", "5")],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("time"), "{body}");
}
