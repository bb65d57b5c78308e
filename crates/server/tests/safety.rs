//! Safety between users: blocks (no challenges, no pairing, no chat from the
//! blocked), reports to the operators, changing a password and closing an
//! account.

use std::time::Duration;

use serde_json::{json, Value};

use super::*;

/// A user with a token that may also block (`follow:write`, as lichess's).
async fn user_who_may_block(db: &str, name: &str) -> String {
    let store = Store::open(db).await.unwrap();
    let user = store
        .create_user(name, Some(&auth::hash_password("secret").unwrap()), 0)
        .await
        .unwrap();
    let mut scopes = auth::SCOPES.to_vec();
    scopes.extend(auth::parse_scopes("follow:read follow:write").unwrap());
    auth::issue_token(&store, user.id, &scopes, "tests")
        .await
        .unwrap()
}

async fn get_json(client: &reqwest::Client, url: String, token: &str) -> (u16, Value) {
    let resp = client.get(url).bearer_auth(token).send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_blocked_user_cannot_challenge_the_blocker_whose_chat_hides_their_lines() {
    let db = temp_db("safety-block");
    let anna = user_who_may_block(&db, "Anna").await;
    let boris = user_who_may_block(&db, "Boris").await;
    let without_scope = user_with_token(&db, "Carl").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let game = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;

    // Blocking needs lichess's follow:write scope.
    let (status, body) = post(
        &client,
        server.url("/api/rel/block/Anna"),
        &without_scope,
        &[],
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("follow:write"),
        "{body}"
    );
    let (status, body) = post(&client, server.url("/api/rel/block/Boris"), &boris, &[]).await;
    assert_eq!(status, 400, "blocking yourself: {body}");
    let (status, _) = post(&client, server.url("/api/rel/block/nobody"), &boris, &[]).await;
    assert_eq!(status, 404);
    let (status, body) = post(&client, server.url("/api/rel/block/anna"), &boris, &[]).await;
    assert_eq!((status, &body), (200, &json!({ "ok": true })));

    let (_, seen) = get_json(&client, server.url("/api/user/Anna"), &boris).await;
    assert_eq!(seen["blocking"], true, "{seen}");
    let (_, seen) = get_json(&client, server.url("/api/user/Boris"), &anna).await;
    assert_eq!(seen["blocking"], false, "one way: {seen}");
    let (_, list) = get_json(&client, server.url("/api/rel/blocking"), &boris).await;
    assert_eq!(
        list,
        json!({ "blocking": [{ "id": "anna", "username": "Anna" }] })
    );

    // Boris's stream, opened after the block, carries his lines, not Anna's.
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{game}")))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();
    let chat = server.url(&format!("/api/board/game/{game}/chat"));
    let (status, _) = post(
        &client,
        chat.clone(),
        &anna,
        &[("room", "player"), ("text", "you are bad")],
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = post(
        &client,
        chat.clone(),
        &boris,
        &[("room", "player"), ("text", "good luck")],
    )
    .await;
    assert_eq!(status, 200);
    let lines = read_lines(stream, |l| {
        l["type"] == "chatLine" && l["username"] == "Boris"
    })
    .await;
    let said: Vec<&Value> = lines.iter().filter(|l| l["type"] == "chatLine").collect();
    assert_eq!(said.len(), 1, "{said:?}");
    // The chat's history: Boris does not see Anna's line; Anna sees both.
    let (_, history) = get_json(&client, chat.clone(), &boris).await;
    assert_eq!(history, json!([{ "user": "Boris", "text": "good luck" }]));
    let (_, history) = get_json(&client, chat, &anna).await;
    assert_eq!(history.as_array().unwrap().len(), 2, "{history}");

    // Anna can no longer challenge Boris; Boris can still challenge Anna.
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("does not accept challenges from you"),
        "{body}"
    );
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Anna"),
        &boris,
        &[("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let (status, _) = post(&client, server.url("/api/rel/unblock/Anna"), &boris, &[]).await;
    assert_eq!(status, 200);
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 200, "after the unblock: {body}");
    server.task.abort();
}

#[tokio::test]
async fn the_lobby_never_pairs_a_user_with_one_they_block() {
    let db = temp_db("safety-lobby");
    let anna = user_who_may_block(&db, "Anna").await;
    let boris = user_who_may_block(&db, "Boris").await;
    let carl = user_with_token(&db, "Carl").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, _) = post(&client, server.url("/api/rel/block/Anna"), &boris, &[]).await;
    assert_eq!(status, 200);
    let seek = |token: String| {
        let client = client.clone();
        let url = server.url("/api/board/seek");
        // The seek waits while its request is open: read it to the end.
        tokio::spawn(async move {
            let resp = client
                .post(url)
                .bearer_auth(&token)
                .form(&[("time", "10"), ("increment", "0"), ("rated", "false")])
                .send()
                .await
                .unwrap();
            let status = resp.status().as_u16();
            resp.text().await.unwrap();
            status
        })
    };
    let listed = || async {
        let (_, list) = get_json(&client, server.url("/api/lobby/seeks"), &carl).await;
        list["seeks"].as_array().unwrap().clone()
    };
    let listed_within = |n: usize| async move {
        for _ in 0..500 {
            if listed().await.len() >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "{n} seeks were not listed within 10 s: {:?}",
            listed().await
        );
    };
    let anna_waits = seek(anna.clone());
    listed_within(1).await;
    let _boris_waits = seek(boris.clone());
    listed_within(2).await;
    // Same terms, yet both wait: Boris blocks Anna.
    let seeks = listed().await;
    let boris_seek = seeks.iter().find(|s| s["username"] == "Boris").unwrap();
    let (status, body) = post(
        &client,
        server.url(&format!(
            "/api/lobby/seeks/{}/accept",
            boris_seek["id"].as_str().unwrap()
        )),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("does not accept games from you"),
        "{body}"
    );
    // Carl, who blocks nobody, is paired with the oldest seek: Anna's.
    let carl_paired = seek(carl.clone());
    assert_eq!(carl_paired.await.unwrap(), 200);
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(10), anna_waits)
            .await
            .unwrap()
            .unwrap(),
        200
    );
    let seeks = listed().await;
    assert_eq!(seeks.len(), 1, "{seeks:?}");
    assert_eq!(seeks[0]["username"], "Boris");
    server.task.abort();
}

/// Registers `name` in a browser: the session cookie and the CSRF token.
async fn browser_register(
    server: &Server,
    client: &reqwest::Client,
    name: &str,
    password: &str,
) -> (String, String) {
    let resp = client
        .post(server.url("/api/register"))
        .json(&json!({ "username": name, "password": password }))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    session_of(resp).await
}

async fn session_of(resp: reqwest::Response) -> (String, String) {
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    let session = cookie.split(';').next().unwrap().to_string();
    let body: Value = resp.json().await.unwrap();
    (session, body["csrf"].as_str().unwrap().to_string())
}

async fn browser_login(
    server: &Server,
    client: &reqwest::Client,
    name: &str,
    password: &str,
) -> reqwest::Response {
    client
        .post(server.url("/api/login"))
        .json(&json!({ "username": name, "password": password }))
        .send()
        .await
        .unwrap()
}

/// A change from a browser session: (status, body).
async fn browser_post(
    client: &reqwest::Client,
    url: String,
    (session, csrf): &(String, String),
    body: Value,
) -> (u16, Value) {
    let resp = client
        .post(url)
        .header("Cookie", session)
        .header("X-CSRF-Token", csrf)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

async fn signed_in(server: &Server, client: &reqwest::Client, session: &str) -> bool {
    client
        .get(server.url("/api/account"))
        .header("Cookie", session)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
        == 200
}

#[tokio::test]
async fn a_new_password_needs_the_current_one_and_ends_the_other_sessions() {
    let db = temp_db("safety-password");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let here = browser_register(&server, &client, "Clara", "correct horse").await;
    let phone = session_of(browser_login(&server, &client, "Clara", "correct horse").await).await;
    let url = server.url("/api/account/password");
    let change =
        |current: &str, new: &str| json!({ "currentPassword": current, "newPassword": new });

    let (status, body) = browser_post(
        &client,
        url.clone(),
        &here,
        change("wrong horse", "battery staple"),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("currentPassword"),
        "{body}"
    );
    let (status, body) = browser_post(
        &client,
        url.clone(),
        &here,
        change("correct horse", "short"),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("newPassword"),
        "{body}"
    );
    let (status, body) = browser_post(
        &client,
        url.clone(),
        &here,
        change("correct horse", "battery staple"),
    )
    .await;
    assert_eq!((status, &body["sessionsEnded"]), (200, &json!(1)), "{body}");

    assert!(
        signed_in(&server, &client, &here.0).await,
        "the session asking goes on"
    );
    assert!(
        !signed_in(&server, &client, &phone.0).await,
        "the others end"
    );
    assert_eq!(
        browser_login(&server, &client, "Clara", "correct horse")
            .await
            .status()
            .as_u16(),
        401
    );
    assert_eq!(
        browser_login(&server, &client, "clara", "battery staple")
            .await
            .status()
            .as_u16(),
        200
    );
    // An app's token cannot change it.
    let token = user_with_token(&db, "Dora").await;
    let (status, _) = post(
        &client,
        url,
        &token,
        &[("currentPassword", "secret"), ("newPassword", "12345678")],
    )
    .await;
    assert_eq!(status, 403);
    server.task.abort();
}

#[tokio::test]
async fn a_closed_account_resigns_its_game_and_can_no_longer_sign_in() {
    let db = temp_db("safety-close");
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let clara = browser_register(&server, &client, "Clara", "correct horse").await;
    // Boris plays Clara (who accepts from her browser) and both move.
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Clara"),
        &boris,
        &[("clock.limit", "300"), ("color", "white")],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let game = challenge["id"].as_str().unwrap().to_string();
    let (status, body) = browser_post(
        &client,
        server.url(&format!("/api/challenge/{game}/accept")),
        &clara,
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{game}/move/e2e4")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = browser_post(
        &client,
        server.url(&format!("/api/board/game/{game}/move/e7e5")),
        &clara,
        json!({}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let url = server.url("/api/account/close");
    let (status, _) = browser_post(
        &client,
        url.clone(),
        &clara,
        json!({ "password": "wrong horse" }),
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) =
        browser_post(&client, url, &clara, json!({ "password": "correct horse" })).await;
    assert_eq!(status, 200, "{body}");

    let export = exported(&server, &game).await;
    assert_eq!(export["status"], "resign", "{export}");
    assert_eq!(export["winner"], "white", "{export}");
    assert!(!signed_in(&server, &client, &clara.0).await);
    let refused = browser_login(&server, &client, "Clara", "correct horse").await;
    assert_eq!(refused.status().as_u16(), 403);
    assert!(refused.text().await.unwrap().contains("closed"));
    let (_, shown) = get_json(&client, server.url("/api/user/Clara"), &boris).await;
    assert_eq!(shown["disabled"], true, "{shown}");
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Clara"),
        &boris,
        &[("clock.limit", "300")],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("closed"), "{body}");
    // The name stays taken.
    let again = client
        .post(server.url("/api/register"))
        .json(&json!({ "username": "clara", "password": "another one" }))
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 409);
    server.task.abort();
}

#[tokio::test]
async fn a_report_reaches_the_operators_with_its_game_and_bad_ones_are_named() {
    let db = temp_db("safety-report");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let _carl = user_with_token(&db, "Carl").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let game = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let url = server.url("/api/report");
    let report = |who: &str, reason: &str, game: &str| {
        vec![
            ("username".to_string(), who.to_string()),
            ("reason".to_string(), reason.to_string()),
            (
                "text".to_string(),
                "\"you are bad\" in the chat".to_string(),
            ),
            ("gameId".to_string(), game.to_string()),
        ]
    };
    let send = |form: Vec<(String, String)>| {
        let client = client.clone();
        let url = url.clone();
        let anna = anna.clone();
        async move {
            let resp = client
                .post(url)
                .bearer_auth(&anna)
                .form(&form)
                .send()
                .await
                .unwrap();
            let status = resp.status().as_u16();
            (status, resp.json::<Value>().await.unwrap())
        }
    };
    let (status, body) = send(report("Boris", "insults", &game)).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("reason"), "{body}");
    let (status, _) = send(report("Anna", "comm", &game)).await;
    assert_eq!(status, 400, "reporting yourself");
    let (status, body) = send(report("Carl", "comm", &game)).await;
    assert_eq!(status, 400, "Carl had no part in the game: {body}");
    assert!(body["error"].as_str().unwrap().contains("gameId"), "{body}");
    let (status, _) = send(report("nobody", "comm", "")).await;
    assert_eq!(status, 404);
    let (status, body) = send(report("boris", "comm", &game)).await;
    assert_eq!(status, 200, "{body}");
    let id = body["id"].as_i64().unwrap();

    let store = Store::open(&existing_db("safety-report")).await.unwrap();
    let open = store.reports(true, 10).await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].id, id);
    assert_eq!(open[0].reason, "comm");
    assert_eq!(open[0].game_id.as_deref(), Some(game.as_str()));
    assert_eq!(open[0].text, "\"you are bad\" in the chat");
    let boris_id = store.user_by_name("Boris").await.unwrap().unwrap().id;
    assert_eq!(open[0].suspect_id, boris_id);
    server.task.abort();
}
