//! The Laws as a player reaches them through the Board API.

use super::*;

/// A fide-rapid game of `limit` seconds a side between Anna (White) and Boris,
/// its id.
async fn rapid_game(server: &Server, anna: &str, boris: &str, limit: &str) -> String {
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        anna,
        &[
            ("clock.limit", limit),
            ("clock.increment", "0"),
            ("color", "white"),
            ("ruleset", "fide-rapid"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_string();
    let (status, body) = post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    id
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
    assert!(body["error"].as_str().unwrap().contains("not fallen"), "{body}");
    // White's second runs out; nobody claims, so the game goes on.
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    let game: Value = client
        .get(server.url(&format!("/game/export/{id}")))
        .header("Accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(game["status"], "started", "{game}");
    // The flagged player cannot claim the other's flag.
    let (status, _) = claim(&anna).await;
    assert_eq!(status, 400);
    // Black claims: won on time.
    let (status, body) = claim(&boris).await;
    assert_eq!(status, 200, "{body}");
    let game: Value = client
        .get(server.url(&format!("/game/export/{id}")))
        .header("Accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
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
