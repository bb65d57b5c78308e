//! The arbiter's seat through the API (Laws 12, Guidelines I): who may act, every
//! action recorded and shown, results only an arbiter gives, adjournment with a
//! sealed move kept secret.

use super::*;

/// A fide-standard game of `limit` seconds and no increment, White Anna
/// against Boris, `arbiters` named by Anna; its id.
async fn arbitrated(
    server: &Server,
    anna: &str,
    boris: &str,
    limit: &str,
    arbiters: &str,
) -> String {
    let form = [
        ("clock.limit", limit),
        ("clock.increment", "0"),
        ("color", "white"),
        ("ruleset", "fide-standard"),
        ("arbiters", arbiters),
    ];
    boris_accepts(server, anna, boris, &form).await
}

async fn play(server: &Server, id: &str, token: &str, mv: &str) {
    let (status, body) = post(
        &reqwest::Client::new(),
        server.url(&format!("/api/board/game/{id}/move/{mv}")),
        token,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{mv}: {body}");
}

async fn arbiter(
    server: &Server,
    id: &str,
    token: &str,
    action: &str,
    form: &[(&str, &str)],
) -> (u16, Value) {
    post(
        &reqwest::Client::new(),
        server.url(&format!("/api/arbiter/game/{id}/{action}")),
        token,
        form,
    )
    .await
}

async fn pgn(server: &Server, id: &str) -> String {
    let text = reqwest::Client::new()
        .get(server.url(&format!("/game/export/{id}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `state` of the game in the arbiter's list (the live `gameState`).
async fn listed_state(server: &Server, token: &str, id: &str) -> Value {
    let list: Value = reqwest::Client::new()
        .get(server.url("/api/arbiter/games"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("game {id} not listed: {list}"))["state"]
        .clone()
}

#[tokio::test]
async fn art_12_a_named_arbiter_acts_and_nobody_else_can() {
    let db = temp_db("seat-named");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let ruth = user_with_token(&db, "Ruth").await;
    let olga = user_with_token(&db, "Olga").await;
    let server = Server::start(&db).await;
    let id = arbitrated(&server, &anna, &boris, "600", "Ruth").await;
    play(&server, &id, &anna, "e2e4").await;
    play(&server, &id, &boris, "e7e5").await;

    // Nobody but Ruth may act: not a stranger, not a player.
    for token in [&olga, &anna, &boris] {
        let (status, body) = arbiter(&server, &id, token, "pause", &[]).await;
        assert_eq!(status, 403, "{body}");
    }
    let (status, body) = arbiter(&server, &id, &ruth, "pause", &[("reason", "noise")]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(listed_state(&server, &ruth, &id).await["paused"], true);
    let (status, _) = arbiter(&server, &id, &ruth, "resume", &[]).await;
    assert_eq!(status, 200);

    // Time added, removed and set, a warning, a time penalty.
    fn white<'a>(form: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
        let mut all = vec![("color", "white")];
        all.extend_from_slice(form);
        all
    }
    for (action, form) in [
        (
            "add-time",
            white(&[("seconds", "30"), ("reason", "clock fault")]),
        ),
        ("remove-time", white(&[("seconds", "10")])),
        ("set-time", white(&[("seconds", "500")])),
        ("warn", vec![("color", "black"), ("reason", "talking")]),
        (
            "penalty",
            vec![
                ("color", "black"),
                ("penalty", "time"),
                ("seconds", "120"),
                ("reason", "phone rang (11.3.2)"),
            ],
        ),
    ] {
        let (status, body) = arbiter(&server, &id, &ruth, action, &form).await;
        assert_eq!(status, 200, "{action}: {body}");
    }
    let state = listed_state(&server, &ruth, &id).await;
    assert_eq!(state["warnings"]["black"], 1, "{state}");
    // White's clock was set to 500 s, then got 120 s for Black's phone.
    let wtime = state["wtime"].as_u64().unwrap();
    assert!(wtime > 610_000 && wtime <= 620_000, "{state}");
    let notes = state["arbiter"].as_array().unwrap();
    assert_eq!(notes.len(), 7, "{state}");
    assert_eq!(notes[0]["arbiter"], "Ruth");
    assert_eq!(notes[0]["action"], "paused the clocks");
    assert_eq!(notes[0]["reason"], "noise");
    assert_eq!(notes[6]["action"], "added 120 s to White's clock");

    // A field missing or wrong is named; an unknown action or field is refused.
    let (status, body) = arbiter(&server, &id, &ruth, "add-time", &[("seconds", "5")]).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("color"), "{body}");
    let (status, _) = arbiter(&server, &id, &ruth, "dance", &[]).await;
    assert_eq!(status, 404);
    let (status, body) = arbiter(&server, &id, &ruth, "pause", &[("colour", "white")]).await;
    assert_eq!(status, 400, "{body}");

    // The position set back one half-move (Art. 7): Black is to move again.
    let (status, body) = arbiter(&server, &id, &ruth, "set-back", &[("plies", "1")]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(exported(&server, &id).await["moves"], "e2e4");
    play(&server, &id, &boris, "c7c5").await;

    // Both lose (0-0): a score PGN cannot write, shown as `score`.
    let (status, body) = arbiter(
        &server,
        &id,
        &ruth,
        "result",
        &[("result", "0-0"), ("reason", "both players used phones")],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = exported(&server, &id).await;
    assert_eq!(game["score"], "0-0", "{game}");
    assert!(game["winner"].is_null());
    let text = pgn(&server, &id).await;
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(
        text.contains("{Arbiter Ruth: declared the result 0-0 (both players used phones)}"),
        "{text}"
    );
    assert!(
        text.contains("{Arbiter Ruth: warned Black (talking)}"),
        "{text}"
    );

    // Over: only the result can still be corrected.
    let (status, _) = arbiter(&server, &id, &ruth, "pause", &[]).await;
    assert_eq!(status, 409);
    let (status, body) = arbiter(
        &server,
        &id,
        &ruth,
        "correct-result",
        &[("result", "1/2-1/2"), ("reason", "scoresheet error")],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = exported(&server, &id).await;
    assert!(game["score"].is_null(), "{game}");
    assert!(pgn(&server, &id).await.contains("[Result \"1/2-1/2\"]"));
    let (status, _) = arbiter(&server, &id, &olga, "correct-result", &[("result", "1-0")]).await;
    assert_eq!(status, 403);
}

#[tokio::test]
async fn art_12_an_operators_arbiter_sees_every_game_and_can_forfeit_a_player() {
    let db = temp_db("seat-granted");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let olga = user_with_token(&db, "Olga").await;
    {
        let store = Store::open(&db).await.unwrap();
        let olga_id = store.user_by_name("Olga").await.unwrap().unwrap().id;
        assert!(store.grant_right(olga_id, "arbiter", 0).await.unwrap());
    }
    let server = Server::start(&db).await;
    let id = arbitrated(&server, &anna, &boris, "600", "").await;
    play(&server, &id, &anna, "e2e4").await;
    let list: Value = reqwest::Client::new()
        .get(server.url("/api/arbiter/games"))
        .bearer_auth(&olga)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["arbiter"], true);
    assert_eq!(list["games"][0]["id"], id, "{list}");
    // A player's own list has nothing to arbitrate.
    let mine: Value = reqwest::Client::new()
        .get(server.url("/api/arbiter/games"))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(mine["games"].as_array().unwrap().len(), 0, "{mine}");
    let (status, body) = arbiter(
        &server,
        &id,
        &olga,
        "penalty",
        &[
            ("color", "black"),
            ("penalty", "loss"),
            ("reason", "11.3.2"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = exported(&server, &id).await;
    assert_eq!(game["winner"], "white", "{game}");
}

#[tokio::test]
async fn guidelines_i_a_sealed_move_stays_secret_until_the_agreed_resumption() {
    let db = temp_db("seat-adjourn");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let ruth = user_with_token(&db, "Ruth").await;
    let server = Server::start(&db).await;
    let id = arbitrated(&server, &anna, &boris, "600", "Ruth").await;
    play(&server, &id, &anna, "e2e4").await;
    play(&server, &id, &boris, "e7e5").await;
    // The arbiter adjourns: White must seal instead of moving.
    let (status, _) = arbiter(
        &server,
        &id,
        &ruth,
        "adjourn",
        &[("reason", "session over")],
    )
    .await;
    assert_eq!(status, 200);
    let client = reqwest::Client::new();
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/g1f3")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("seal"), "{body}");
    let (status, body) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/seal")),
        &anna,
        &[("move", "Nf3")],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    // Nobody sees the sealed move: not the export, not the state.
    let state = listed_state(&server, &ruth, &id).await;
    assert_eq!(state["adjourned"]["sealedBy"], "white", "{state}");
    assert_eq!(state["moves"], "e2e4 e7e5");
    assert!(!state.to_string().contains("Nf3") && !state.to_string().contains("g1f3"));
    assert!(!pgn(&server, &id).await.contains("Nf3"));
    // Both players agree on a time; the game resumes then by itself.
    let at = (caissa_server::now_ms() + 1_500).to_string();
    for token in [&anna, &boris] {
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/resume")),
            token,
            &[("at", &at)],
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let state = listed_state(&server, &ruth, &id).await;
    assert_eq!(state["adjourned"]["resumeAt"].to_string(), at, "{state}");
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    assert_eq!(exported(&server, &id).await["moves"], "e2e4 e7e5 g1f3");
    play(&server, &id, &boris, "b8c6").await;
}

#[tokio::test]
async fn guidelines_iii_claims_wait_for_the_arbiters_decision() {
    let db = temp_db("seat-claims");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let ruth = user_with_token(&db, "Ruth").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = arbitrated(&server, &anna, &boris, "90", "Ruth").await;
    play(&server, &id, &anna, "e2e4").await;
    play(&server, &id, &boris, "e7e5").await;
    // Under two minutes, White claims Black cannot win by normal means (III.5).
    let url = server.url(&format!("/api/board/game/{id}/claim-no-progress"));
    let (status, body) = post(&client, url, &anna, &[]).await;
    assert_eq!(status, 200, "{body}");
    let state = listed_state(&server, &ruth, &id).await;
    assert_eq!(state["pending"]["noProgressClaim"], "white", "{state}");
    let (status, body) = arbiter(&server, &id, &ruth, "decide-claim", &[]).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("accept"), "{body}");
    let (status, body) = arbiter(
        &server,
        &id,
        &ruth,
        "decide-claim",
        &[
            ("accept", "false"),
            ("reason", "Black still has winning chances"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(listed_state(&server, &ruth, &id).await["pending"].is_null());
    // Nothing left to decide: a second decision is refused with the reason.
    let (status, body) = arbiter(&server, &id, &ruth, "decide-claim", &[("accept", "true")]).await;
    assert_eq!(status, 400, "{body}");
    // White asks for the 5-second increment (III.4); Black declines the draw the
    // request counts as, and the arbiter grants it.
    let url = server.url(&format!("/api/board/game/{id}/request-increment"));
    let (status, body) = post(&client, url, &anna, &[]).await;
    assert_eq!(status, 200, "{body}");
    let state = listed_state(&server, &ruth, &id).await;
    assert_eq!(state["pending"]["incrementRequest"], "white", "{state}");
    let url = server.url(&format!("/api/board/game/{id}/draw/no"));
    assert_eq!(post(&client, url, &boris, &[]).await.0, 200);
    let (status, body) = arbiter(&server, &id, &ruth, "grant-increment", &[]).await;
    assert_eq!(status, 200, "{body}");
    let state = listed_state(&server, &ruth, &id).await;
    assert!(state["pending"].is_null(), "{state}");
    let notes: Vec<&str> = state["arbiter"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        notes,
        [
            "rejected the claim: play on",
            "granted the 5-second increment"
        ]
    );
}

#[tokio::test]
async fn art_6_7_the_arbiter_forfeits_an_absent_player_and_can_void_a_game() {
    let db = temp_db("seat-forfeit");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let ruth = user_with_token(&db, "Ruth").await;
    let server = Server::start(&db).await;
    let id = arbitrated(&server, &anna, &boris, "600", "Ruth").await;
    // White never moves: forfeited (the default time of fide-standard is 0).
    let (status, body) = arbiter(&server, &id, &ruth, "forfeit", &[("color", "white")]).await;
    assert_eq!(status, 200, "{body}");
    let game = exported(&server, &id).await;
    assert_eq!(game["status"], "noStart", "{game}");
    assert_eq!(game["winner"], "black");
    // Another game, voided by the arbiter.
    let id = arbitrated(&server, &anna, &boris, "600", "Ruth").await;
    play(&server, &id, &anna, "e2e4").await;
    let (status, body) = arbiter(&server, &id, &ruth, "void", &[("reason", "wrong pairing")]).await;
    assert_eq!(status, 200, "{body}");
    let text = pgn(&server, &id).await;
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(
        text.contains("declared the result void (wrong pairing)"),
        "{text}"
    );
    // The arbiter sets the time an adjourned game resumes.
    let id = arbitrated(&server, &anna, &boris, "600", "Ruth").await;
    play(&server, &id, &anna, "e2e4").await;
    let url = server.url(&format!("/api/board/game/{id}/seal"));
    let (status, body) = post(&reqwest::Client::new(), url, &boris, &[("move", "e5")]).await;
    assert_eq!(status, 200, "{body}");
    let at = (caissa_server::now_ms() + 800).to_string();
    let (status, body) = arbiter(&server, &id, &ruth, "resume-adjourned", &[("at", &at)]).await;
    assert_eq!(status, 200, "{body}");
    tokio::time::sleep(Duration::from_millis(1_300)).await;
    assert_eq!(exported(&server, &id).await["moves"], "e2e4 e7e5");
}

#[tokio::test]
async fn art_12_a_player_cannot_appoint_the_arbiter_of_a_rated_game_and_tokens_need_board_play() {
    let db = temp_db("seat-rated");
    let anna = user_with_token(&db, "Anna").await;
    let _boris = user_with_token(&db, "Boris").await;
    let _ruth = user_with_token(&db, "Ruth").await;
    let reader = {
        let store = Store::open(&db).await.unwrap();
        let ruth = store.user_by_name("Ruth").await.unwrap().unwrap();
        auth::issue_token(&store, ruth.id, &[auth::Scope::ChallengeRead], "reader")
            .await
            .unwrap()
    };
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, body) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "600"),
            ("clock.increment", "0"),
            ("rated", "true"),
            ("arbiters", "Ruth"),
        ],
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("Ruth"), "{body}");
    // A casual challenge shows its arbiters to the one challenged.
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/Boris"),
        &anna,
        &[
            ("clock.limit", "600"),
            ("clock.increment", "0"),
            ("arbiters", "Ruth"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    assert_eq!(challenge["arbiters"][0], "Ruth", "{challenge}");
    // A token without board:play cannot act as arbiter.
    let id = challenge["id"].as_str().unwrap();
    let (status, body) = arbiter(&server, id, &reader, "pause", &[]).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("board:play"),
        "{body}"
    );
}
