//! The computer as an opponent: its level in the game's shape, and its stated
//! policy on takebacks and draw offers.

use std::time::Duration;

use serde_json::Value;

use super::*;

/// The export of game `id` once `done` holds for it (within 15 s).
async fn export_when(
    server: &Server,
    client: &reqwest::Client,
    id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let game: Value = client
            .get(server.url(&format!("/game/export/{id}?format=json")))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if done(&game) {
            return game;
        }
        assert!(std::time::Instant::now() < deadline, "{game}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A game against the computer at `level`, Anna White, from `fen` if given.
async fn computer_game(
    server: &Server,
    client: &reqwest::Client,
    token: &str,
    level: &str,
    fen: Option<&str>,
) -> String {
    let mut form = vec![("level", level.to_string()), ("color", "white".to_string())];
    if let Some(fen) = fen {
        form.push(("fen", fen.to_string()));
    }
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let (status, game) = post(client, server.url("/api/challenge/ai"), token, &form).await;
    assert_eq!(status, 200, "{game}");
    game["id"].as_str().unwrap().to_string()
}

fn plies(game: &Value) -> usize {
    game["moves"]
        .as_str()
        .unwrap_or("")
        .split_whitespace()
        .count()
}

#[tokio::test]
async fn the_computer_grants_takebacks_at_low_levels_and_a_draw_only_when_it_stands_worse() {
    let db = temp_db("computer-policy");
    let anna = user_with_token(&db, "Anna").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    for (level, granted) in [("2", true), ("6", false)] {
        let id = computer_game(&server, &client, &anna, level, None).await;
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/e2e4")),
            &anna,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{body}");
        let game = export_when(&server, &client, &id, |g| plies(g) == 2).await;
        assert_eq!(
            game["players"]["black"]["aiLevel"],
            level.parse::<u64>().unwrap()
        );
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/takeback/yes")),
            &anna,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{body}");
        if granted {
            export_when(&server, &client, &id, |g| plies(g) == 0).await;
        } else {
            // Refused: the offer goes, the moves stay.
            tokio::time::sleep(Duration::from_millis(500)).await;
            let full = super::lichess_compat::game_full(&server, &client, &id, &anna).await;
            assert_eq!(full["state"]["wtakeback"], false, "{full}");
            assert_eq!(plies(&full["state"]), 2, "{full}");
        }
    }
    // A queen down, it takes the draw; a queen up, it plays on.
    // (A draw may be agreed once both have moved, 5.2.3.)
    for (fen, first, drawn) in [
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "e1e2", true),
        ("3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "e1f2", false),
    ] {
        let id = computer_game(&server, &client, &anna, "8", Some(fen)).await;
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/move/{first}")),
            &anna,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{body}");
        export_when(&server, &client, &id, |g| plies(g) == 2).await;
        let (status, body) = post(
            &client,
            server.url(&format!("/api/board/game/{id}/draw/yes")),
            &anna,
            &[],
        )
        .await;
        assert_eq!(status, 200, "{body}");
        if drawn {
            let game = export_when(&server, &client, &id, |g| g["status"] == "draw").await;
            assert_eq!(plies(&game), 2);
        } else {
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let full = super::lichess_compat::game_full(&server, &client, &id, &anna).await;
            assert_eq!(full["state"]["status"], "started", "{full}");
            assert_eq!(full["state"]["wdraw"], false, "{full}");
        }
    }
    server.task.abort();
}
