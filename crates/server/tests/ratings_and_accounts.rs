//! Rated games moving ratings and ladder points, browsers' accounts with their
//! CSRF token, and the ladder's house rules.

use std::time::Duration;

use serde_json::Value;

use super::*;

#[tokio::test]
async fn a_rated_game_moves_both_ratings_and_ladder_points() {
    let db = temp_db("rated");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "300"),
            ("clock.increment", "0"),
            ("color", "white"),
            ("rated", "true"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["rated"], true);
    let id = challenge["id"].as_str().unwrap().to_string();
    post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    for (token, mv) in [
        (&anna, "f2f3"),
        (&boris, "e7e5"),
        (&anna, "g2g4"),
        (&boris, "d8h4"),
    ] {
        assert_eq!(
            post(
                &client,
                server.url(&format!("/api/board/game/{id}/move/{mv}")),
                token,
                &[]
            )
            .await
            .0,
            200
        );
    }
    // Ratings are written when the game ends; give the finishing task a moment.
    let mut boris_profile = Value::Null;
    for _ in 0..50 {
        boris_profile = client
            .get(server.url("/api/user/boris"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if boris_profile["perfs"]["blitz"]["games"] == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let anna_profile: Value = client
        .get(server.url("/api/user/anna"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let winner = boris_profile["perfs"]["blitz"]["rating"].as_f64().unwrap();
    let loser = anna_profile["perfs"]["blitz"]["rating"].as_f64().unwrap();
    assert!(
        winner > 1500.0 && loser < 1500.0,
        "{boris_profile} {anna_profile}"
    );
    assert_eq!(boris_profile["perfs"]["blitz"]["games"], 1);
    assert_eq!(boris_profile["perfs"]["blitz"]["prov"], true);
    // lichess's perf shape: progress over the last games, and the speeds
    // never played at their starting values.
    assert_eq!(
        boris_profile["perfs"]["blitz"]["prog"].as_f64().unwrap(),
        (winner - 1500.0).round()
    );
    assert_eq!(boris_profile["perfs"]["rapid"]["games"], 0);
    assert_eq!(boris_profile["perfs"]["rapid"]["prov"], true);
    // Equal ladder points: the winner gains 10 and the loser loses 10 (scheme A).
    assert_eq!(boris_profile["ladder"]["points"], 10);
    assert_eq!(anna_profile["ladder"]["points"], -10);
    assert_eq!(boris_profile["ladder"]["level"], 30);
    let history: Value = client
        .get(server.url("/api/user/boris/rating-history"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(history[0]["name"], "blitz");
    assert_eq!(history[0]["points"].as_array().unwrap().len(), 1);
    // One game leaves both ratings provisional: nobody on the leaderboard yet.
    let top: Value = client
        .get(server.url("/api/player/top/10/blitz"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(top["users"], serde_json::json!([]), "{top}");
    for bad in ["/api/player/top/0/blitz", "/api/player/top/10/atomic"] {
        let (status, body) = (
            client
                .get(server.url(bad))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16(),
            bad,
        );
        assert_eq!(status, 400, "{body}");
    }
    // The export says how far each rating moved (lichess's ratingDiff).
    let exported: Value = client
        .get(server.url(&format!("/game/export/{id}?format=json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let players = &exported["players"];
    assert_eq!(
        players["black"]["ratingDiff"].as_f64(),
        Some((winner - 1500.0).round()),
        "{exported}"
    );
    assert_eq!(
        players["white"]["ratingDiff"].as_f64(),
        Some((loser - 1500.0).round()),
        "{exported}"
    );
    // A casual game changes nothing.
    let unrated = user_with_token(&db, "Clara").await;
    let profile: Value = client
        .get(server.url("/api/user/clara"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(profile["ladder"]["level"], "unrated");
    drop(unrated);
    server.task.abort();
}

#[tokio::test]
async fn browsers_register_log_in_and_need_the_csrf_token_to_act() {
    let db = temp_db("accounts");
    let _boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let resp = client
        .post(server.url("/api/register"))
        .json(&serde_json::json!({ "username": "Clara", "password": "correct horse" }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    let session = cookie.split(';').next().unwrap().to_string();
    let body: Value = resp.json().await.unwrap();
    let csrf = body["csrf"].as_str().unwrap().to_string();
    let me: Value = client
        .get(server.url("/api/account"))
        .header("Cookie", &session)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["username"], "Clara");
    // A reloaded page recovers its CSRF token from the account.
    assert_eq!(me["csrf"], csrf.as_str());
    // A state change without the CSRF header is refused; with it, accepted.
    let url = server.url("/api/challenge/Boris");
    let refused = client
        .post(&url)
        .header("Cookie", &session)
        .form(&[("clock.limit", "60")])
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status().as_u16(), 403);
    let accepted = client
        .post(&url)
        .header("Cookie", &session)
        .header("X-CSRF-Token", &csrf)
        .form(&[("clock.limit", "60")])
        .send()
        .await
        .unwrap();
    assert_eq!(accepted.status().as_u16(), 200);
    // The name is taken, whatever the case.
    let again = client
        .post(server.url("/api/register"))
        .json(&serde_json::json!({ "username": "clara", "password": "another password" }))
        .send()
        .await
        .unwrap();
    // A taken name is a conflict.
    assert_eq!(again.status().as_u16(), 409);
    // Wrong passwords: 401, then 429 after five in a minute; the right one logs in.
    let login = |password: &'static str| {
        client
            .post(server.url("/api/login"))
            .json(&serde_json::json!({ "username": "Clara", "password": password }))
            .send()
    };
    assert_eq!(login("correct horse").await.unwrap().status().as_u16(), 200);
    for _ in 0..5 {
        assert_eq!(login("wrong").await.unwrap().status().as_u16(), 401);
    }
    assert_eq!(login("wrong").await.unwrap().status().as_u16(), 429);
    // Guests get a generated name.
    let guest: Value = client
        .post(server.url("/api/guest"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        guest["username"].as_str().unwrap().starts_with("Guest-"),
        "{guest}"
    );
    server.task.abort();
}

#[tokio::test]
async fn the_ladder_ruleset_with_a_per_move_limit_applies_the_house_rules() {
    let db = temp_db("ladder");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "600"),
            ("clock.perMove", "30"),
            ("color", "white"),
            ("ruleset", "ladder"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["ruleset"], "ladder");
    let id = challenge["id"].as_str().unwrap().to_string();
    post(
        &client,
        server.url(&format!("/api/challenge/{id}/accept")),
        &boris,
        &[],
    )
    .await;
    // The online game's rule: no resignation before 15 moves.
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("15 moves"),
        "{body}"
    );
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("ruleset", "chaos")],
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("unknown ruleset"),
        "{body}"
    );
    let pools: Value = client
        .get(server.url("/api/pools"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(pools["pools"].as_array().unwrap().len(), 9);
    assert_eq!(pools["pools"][2]["id"], "3+2");
    server.task.abort();
}
