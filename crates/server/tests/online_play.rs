//! Online play beyond the Board API basics: takebacks, rematches, the lobby's seek
//! list with rating ranges, disconnect notices and rate limits.

use std::time::Duration;

use serde_json::Value;

use super::*;

/// A game as `/game/export/{id}?format=json` gives it.
async fn exported(server: &Server, client: &reqwest::Client, id: &str) -> Value {
    client
        .get(server.url(&format!("/game/export/{id}?format=json")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap()
}

async fn moves(server: &Server, client: &reqwest::Client, id: &str) -> String {
    exported(server, client, id).await["moves"]
        .as_str()
        .unwrap()
        .to_string()
}

async fn play(server: &Server, client: &reqwest::Client, id: &str, line: &[(&str, &str)]) {
    for (token, mv) in line {
        let (status, body) = post(
            client,
            server.url(&format!("/api/board/game/{id}/move/{mv}")),
            token,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{mv}: {body}");
    }
}

#[tokio::test]
async fn a_takeback_needs_the_opponents_consent() {
    let db = temp_db("takeback");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    play(
        &server,
        &client,
        &id,
        &[(&anna, "e2e4"), (&boris, "e7e5"), (&anna, "g1f3")],
    )
    .await;
    let stream = client
        .get(server.url(&format!("/api/board/game/stream/{id}")))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap();
    // Anna asks to take back Nf3; the stream shows her proposal.
    let url = |answer: &str| server.url(&format!("/api/board/game/{id}/takeback/{answer}"));
    assert_eq!(post(&client, url("yes"), &anna, &[]).await.0, 200);
    let lines = read_lines(stream, |l| l["wtakeback"] == true).await;
    assert_eq!(lines.last().unwrap()["btakeback"], false);
    // Boris declines: nothing changes. Asked again, he agrees.
    assert_eq!(post(&client, url("no"), &boris, &[]).await.0, 200);
    assert_eq!(moves(&server, &client, &id).await, "e2e4 e7e5 g1f3");
    assert_eq!(post(&client, url("yes"), &anna, &[]).await.0, 200);
    assert_eq!(post(&client, url("yes"), &boris, &[]).await.0, 200);
    assert_eq!(moves(&server, &client, &id).await, "e2e4 e7e5");
    // Anna is to move again; Boris cannot move for her (409: not his turn).
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/move/b8c6")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 409);
    play(&server, &client, &id, &[(&anna, "f1c4")]).await;
    assert_eq!(moves(&server, &client, &id).await, "e2e4 e7e5 f1c4");
    // Declining a proposal nobody made changes nothing, as on lichess.
    let (status, body) = post(&client, url("no"), &anna, &[]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(moves(&server, &client, &id).await, "e2e4 e7e5 f1c4");
    server.task.abort();
}

#[tokio::test]
async fn a_rematch_swaps_colours_and_keeps_the_terms() {
    let db = temp_db("rematch");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let url = |who: &str| server.url(&format!("/api/board/game/{id}/rematch/{who}"));
    // Not before the game is over.
    let (status, body) = post(&client, url("yes"), &anna, &[]).await;
    assert_eq!(status, 400, "{body}");
    play(&server, &client, &id, &[(&anna, "e2e4"), (&boris, "e7e5")]).await;
    let (status, _) = post(
        &client,
        server.url(&format!("/api/board/game/{id}/resign")),
        &anna,
        &[],
    )
    .await;
    assert_eq!(status, 200);
    let boris_events = client
        .get(server.url("/api/stream/event"))
        .bearer_auth(&boris)
        .send()
        .await
        .unwrap();
    let (status, offer) = post(&client, url("yes"), &anna, &[]).await;
    assert_eq!(status, 200, "{offer}");
    let lines = read_lines(boris_events, |l| l["type"] == "challenge").await;
    let challenge = &lines.last().unwrap()["challenge"];
    assert_eq!(challenge["rematchOf"], id.as_str());
    assert_eq!(challenge["challenger"]["name"], "Anna");
    // Boris agrees: a new game, Boris White this time, same clock.
    let (status, answer) = post(&client, url("yes"), &boris, &[]).await;
    assert_eq!(status, 200, "{answer}");
    let rematch = answer["gameId"].as_str().unwrap();
    assert_ne!(rematch, id);
    let game: Value = exported(&server, &client, rematch).await;
    assert_eq!(game["players"]["white"]["user"]["name"], "Boris");
    assert_eq!(game["players"]["black"]["user"]["name"], "Anna");
    // Exported as lichess exports it, in seconds.
    assert_eq!(game["clock"]["initial"], 300);
    assert_eq!(game["clock"]["increment"], 2);
    assert_eq!(game["clock"]["totalTime"], 380);
    server.task.abort();
}

#[tokio::test]
async fn the_lobby_lists_open_seeks_and_a_player_takes_one() {
    let db = temp_db("lobby");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    // Anna seeks 3+2 against players rated 1600-1900: a newcomer (1500) may not take it.
    let seek = client
        .post(server.url("/api/board/seek"))
        .bearer_auth(&anna)
        .form(&[
            ("time", "3"),
            ("increment", "2"),
            ("ratingRange", "1600-1900"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(seek.status().as_u16(), 200);
    let list: Value = client
        .get(server.url("/api/lobby/seeks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let seeks = list["seeks"].as_array().unwrap();
    assert_eq!(seeks.len(), 1, "{list}");
    assert_eq!(seeks[0]["username"], "Anna");
    assert_eq!(seeks[0]["increment"], 2);
    assert_eq!(seeks[0]["ratingRange"], "1600-1900");
    let seek_id = seeks[0]["id"].as_str().unwrap().to_string();
    let accept = server.url(&format!("/api/lobby/seeks/{seek_id}/accept"));
    let (status, body) = post(&client, accept.clone(), &boris, &[]).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("1600-1900"),
        "{body}"
    );
    // Anna cannot take her own seek.
    let (status, _) = post(&client, accept.clone(), &anna, &[]).await;
    assert_eq!(status, 400);
    drop(seek);
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    // Her request is gone, so is the seek.
    let list: Value = client
        .get(server.url("/api/lobby/seeks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["seeks"].as_array().unwrap().len(), 0, "{list}");
    // An open seek is taken from the list and the game starts for both.
    let seek = client
        .post(server.url("/api/board/seek"))
        .bearer_auth(&anna)
        .form(&[("time", "5"), ("increment", "3"), ("color", "black")])
        .send()
        .await
        .unwrap();
    let list: Value = client
        .get(server.url("/api/lobby/seeks"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let seek_id = list["seeks"][0]["id"].as_str().unwrap().to_string();
    let (status, body) = post(
        &client,
        server.url(&format!("/api/lobby/seeks/{seek_id}/accept")),
        &boris,
        &[],
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let game = body["gameId"].as_str().unwrap();
    // Anna's waiting request ends; she plays Black as she asked.
    let _ = tokio::time::timeout(Duration::from_secs(5), seek.bytes())
        .await
        .expect("the seek's request ends when it is taken");
    let started = exported(&server, &client, game).await;
    assert_eq!(started["players"]["black"]["user"]["name"], "Anna");
    server.task.abort();
}

#[tokio::test]
async fn a_player_hears_when_the_opponent_leaves_and_comes_back() {
    let db = temp_db("gone-notice");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let id = challenge_and_accept(&server, &client, &anna, &boris, "Boris").await;
    let stream_of = |token: &str| {
        client
            .get(server.url(&format!("/api/board/game/stream/{id}")))
            .bearer_auth(token)
            .send()
    };
    let boris_stream = stream_of(&boris).await.unwrap();
    let anna_stream = stream_of(&anna).await.unwrap();
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(boris_stream);
    // Anna's stream tells her, with the seconds until she may claim the game.
    let lines = read_lines(anna_stream, |l| l["type"] == "opponentGone").await;
    let gone = lines.last().unwrap();
    assert_eq!(gone["gone"], true, "{gone}");
    let seconds = gone["claimWinInSeconds"].as_u64().unwrap();
    assert!((25..=30).contains(&seconds), "{gone}");
    // Reconnecting, Anna learns at once that Boris is still away; when he is back,
    // she hears that too.
    let anna_stream = stream_of(&anna).await.unwrap();
    let mut notices = Vec::new();
    let mut boris_again = None;
    read_lines(anna_stream, |l| {
        if l["type"] == "opponentGone" {
            notices.push(l["gone"].clone());
            if boris_again.is_none() {
                boris_again = Some(tokio::spawn(stream_of(&boris)));
            }
        }
        notices.len() == 2
    })
    .await;
    assert_eq!(notices, [true, false]);
    server.task.abort();
}

#[tokio::test]
async fn a_flood_of_challenges_is_refused_with_the_wait() {
    let db = temp_db("flood");
    let anna = user_with_token(&db, "Anna").await;
    let _boris = user_with_token(&db, "Boris").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let mut statuses = Vec::new();
    let mut last = Value::Null;
    for _ in 0..12 {
        let (status, body) = post(
            &client,
            server.url("/api/challenge/Boris"),
            &anna,
            &[("clock.limit", "60")],
        )
        .await;
        statuses.push(status);
        last = body;
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 200).count(),
        10,
        "{statuses:?}"
    );
    assert_eq!(statuses[11], 429);
    assert!(
        last["error"].as_str().unwrap().contains("try again"),
        "{last}"
    );
    server.task.abort();
}

#[tokio::test]
async fn an_open_challenge_link_is_taken_by_the_first_who_accepts() {
    let db = temp_db("open-challenge");
    let anna = user_with_token(&db, "Anna").await;
    let boris = user_with_token(&db, "Boris").await;
    let clara = user_with_token(&db, "Clara").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, challenge) = post(
        &client,
        server.url("/api/challenge/open"),
        &anna,
        &[
            ("clock.limit", "180"),
            ("clock.increment", "2"),
            ("color", "black"),
        ],
    )
    .await;
    assert_eq!(status, 200, "{challenge}");
    let id = challenge["id"].as_str().unwrap().to_string();
    assert_eq!(challenge["url"], format!("/challenge/{id}"));
    assert!(challenge["destUser"].is_null());
    // Its page shows it to anyone.
    let shown: Value = client
        .get(server.url(&format!("/api/challenge/{id}/show")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(shown["challenger"]["name"], "Anna");
    let accept = server.url(&format!("/api/challenge/{id}/accept"));
    assert_eq!(post(&client, accept.clone(), &anna, &[]).await.0, 400);
    assert_eq!(post(&client, accept.clone(), &boris, &[]).await.0, 200);
    // Taken: Clara is too late.
    assert_eq!(post(&client, accept, &clara, &[]).await.0, 404);
    let game: Value = exported(&server, &client, &id).await;
    assert_eq!(game["players"]["white"]["user"]["name"], "Boris");
    assert_eq!(game["players"]["black"]["user"]["name"], "Anna");
    server.task.abort();
}

#[tokio::test]
async fn the_analysis_board_gets_the_engines_evaluation() {
    let db = temp_db("cloud-eval");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let eval = |fen: &str, multipv: &str| {
        client
            .get(server.url("/api/cloud-eval"))
            .query(&[("fen", fen), ("multiPv", multipv)])
            .send()
    };
    // White to move mates in one (Rd8#); the score is from White's side.
    let white_mates = eval("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "1")
        .await
        .unwrap();
    assert_eq!(white_mates.status().as_u16(), 200);
    let answer: Value = white_mates.json().await.unwrap();
    assert_eq!(answer["pvs"][0]["mate"], 1, "{answer}");
    assert!(answer["pvs"][0]["moves"]
        .as_str()
        .unwrap()
        .starts_with("d1d8"));
    // The same with Black to mate: a negative mate for White.
    let black_mates: Value = eval("3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "1")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(black_mates["pvs"][0]["mate"], -1, "{black_mates}");
    // Several lines on request, best first.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let lines: Value = eval(start, "3").await.unwrap().json().await.unwrap();
    let pvs = lines["pvs"].as_array().unwrap();
    assert_eq!(pvs.len(), 3, "{lines}");
    assert!(pvs[0]["cp"].as_i64().unwrap().abs() < 150, "{lines}");
    // Bad input is answered in words.
    let bad = eval("not a fen", "1").await.unwrap();
    assert_eq!(bad.status().as_u16(), 400);
    let body: Value = bad.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("fen"), "{body}");
    server.task.abort();
}

#[tokio::test]
async fn the_evaluation_of_the_position_shown_deepens_until_the_search_ends() {
    let db = temp_db("analysis-stream");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let stream = |fen: &str, multipv: &str| {
        client
            .get(server.url("/api/analysis/stream"))
            .query(&[("fen", fen), ("multiPv", multipv)])
            .send()
    };
    // The Italian game, two lines: a line per completed depth, each deeper.
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3";
    let resp = stream(fen, "2").await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(resp.headers()["content-type"], "application/x-ndjson");
    let text = resp.text().await.unwrap();
    let answers: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(answers.len() >= 5, "{text}");
    let depths: Vec<i64> = answers
        .iter()
        .map(|a| a["depth"].as_i64().unwrap())
        .collect();
    assert!(
        depths.windows(2).all(|w| w[0] < w[1]),
        "depth rises: {depths:?}"
    );
    for answer in &answers {
        assert_eq!(answer["fen"], fen);
        let pvs = answer["pvs"].as_array().unwrap();
        assert_eq!(pvs.len(), 2, "{answer}");
        assert_ne!(pvs[0]["moves"], pvs[1]["moves"], "{answer}");
    }
    // The deepest answer is what the quick evaluation gives from now on.
    let quick: Value = client
        .get(server.url("/api/cloud-eval"))
        .query(&[("fen", fen), ("multiPv", "2")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(&quick, answers.last().unwrap());
    // A mate in one is found with White's sign, and a finished position has one answer.
    let text = stream("3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "1")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last["pvs"][0]["mate"], -1, "{last}");
    let mated = stream("3R2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", "1")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(mated.lines().count(), 1, "{mated}");
    let bad = stream("8/8/8/8/8/8/8/8 w - - 0 1", "1").await.unwrap();
    assert_eq!(bad.status().as_u16(), 400);
    server.task.abort();
}
