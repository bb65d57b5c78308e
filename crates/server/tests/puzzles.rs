//! Puzzles over HTTP, as lichess's API serves them: the daily puzzle, one by
//! id, the next one near the player's rating, batches by theme, results that
//! move both Glicko-2 ratings, the activity and the dashboard.

use caissa_rules::Position;
use caissa_store::StoredPuzzle;
use serde_json::{json, Value};

use super::*;

/// Scholar's mate: Black's 3...Nf6?? then 4.Qxf7#.
const MATE: (&str, &str) = (
    "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
    "g8f6 h5f7",
);
/// A knight fork: 1...Qc6?? 2.Ne7+ Kf8 3.Nxc6.
const FORK: (&str, &str) = (
    "6k1/5ppp/q7/3N4/8/8/5PPP/6K1 b - - 0 1",
    "a6c6 d5e7 g8f8 e7c6",
);

fn puzzle(id: &str, rating: f64, (fen, moves): (&str, &str), themes: &str) -> StoredPuzzle {
    StoredPuzzle {
        id: id.into(),
        fen: fen.into(),
        moves: moves.into(),
        rating,
        deviation: 80.0,
        volatility: 0.09,
        popularity: 0,
        plays: 0,
        themes: themes.into(),
        game_url: String::new(),
        opening_tags: String::new(),
    }
}

/// A server whose database holds these puzzles (so no starter set is
/// loaded), and a token of Anna's with lichess's puzzle scopes.
async fn server_with(name: &str, puzzles: &[StoredPuzzle]) -> (Server, String) {
    let db = temp_db(name);
    let store = Store::open(&db).await.unwrap();
    let anna = store.create_user("Anna", None, 0).await.unwrap();
    let scopes = auth::parse_scopes("puzzle:read puzzle:write").unwrap();
    let token = auth::issue_token(&store, anna.id, &scopes, "tests")
        .await
        .unwrap();
    Store::open(&db)
        .await
        .unwrap()
        .add_puzzles(puzzles)
        .await
        .unwrap();
    (Server::start(&db).await, token)
}

async fn get_json(client: &reqwest::Client, url: String, token: Option<&str>) -> (u16, Value) {
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let resp = request.send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

async fn solve(
    client: &reqwest::Client,
    server: &Server,
    token: &str,
    body: Value,
) -> (u16, Value) {
    let resp = client
        .post(server.url("/api/puzzle/batch/mix"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_puzzle_has_lichess_fields_and_the_position_the_solver_faces() {
    let (server, _) = server_with(
        "puzzle-shape",
        &[puzzle("mate1", 1200.0, MATE, "mate mateIn1 oneMove")],
    )
    .await;
    let client = reqwest::Client::new();
    let (status, body) = get_json(&client, server.url("/api/puzzle/mate1"), None).await;
    assert_eq!(status, 200, "{body}");
    let p = &body["puzzle"];
    assert_eq!(p["id"], "mate1");
    assert_eq!(p["rating"], 1200);
    assert_eq!(p["plays"], 0);
    assert_eq!(p["solution"], json!(["h5f7"]));
    assert_eq!(p["themes"], json!(["mate", "mateIn1", "oneMove"]));
    assert_eq!(p["lastMove"], "g8f6");
    // The position after the opponent's move, and the ply of that move.
    let mut after = Position::from_fen(MATE.0).unwrap();
    after.play(after.parse_uci("g8f6").unwrap()).unwrap();
    assert_eq!(p["fen"], after.fen());
    assert_eq!(p["initialPly"], 5);
    assert_eq!(body["game"]["pgn"], "", "no source game: an empty pgn");
    for key in ["id", "perf", "rated", "players", "clock"] {
        assert!(body["game"].get(key).is_some(), "game.{key} in {body}");
    }
    let (status, body) = get_json(&client, server.url("/api/puzzle/daily"), None).await;
    assert_eq!((status, &body["puzzle"]["id"]), (200, &json!("mate1")));
    let (status, body) = get_json(&client, server.url("/api/puzzle/nosuch"), None).await;
    assert_eq!(status, 404, "{body}");
    server.task.abort();
}

#[tokio::test]
async fn the_next_puzzle_is_near_the_rating_by_theme_and_needs_puzzle_read_from_a_token() {
    let (server, token) = server_with(
        "puzzle-next",
        &[
            puzzle("easy", 800.0, MATE, "mate mateIn1"),
            puzzle("mid", 1500.0, FORK, "fork short"),
            puzzle("hard", 2600.0, MATE, "mate"),
        ],
    )
    .await;
    let client = reqwest::Client::new();
    // A guest starts at 1500.
    let (status, body) = get_json(&client, server.url("/api/puzzle/next"), None).await;
    assert_eq!(
        (status, &body["puzzle"]["id"]),
        (200, &json!("mid")),
        "{body}"
    );
    let (_, body) = get_json(
        &client,
        server.url("/api/puzzle/next?difficulty=easiest"),
        None,
    )
    .await;
    assert_eq!(body["puzzle"]["id"], "easy");
    let (_, body) = get_json(&client, server.url("/api/puzzle/next?rating=2500"), None).await;
    assert_eq!(body["puzzle"]["id"], "hard");
    let (_, body) = get_json(&client, server.url("/api/puzzle/batch/mate?nb=5"), None).await;
    let ids: Vec<&str> = body["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["puzzle"]["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["easy", "hard"],
        "only the theme asked for, easiest first"
    );
    assert!(body.get("glicko").is_none(), "a guest has no rating");
    for (query, named) in [
        ("difficulty=impossible", "difficulty"),
        ("color=green", "color"),
        ("angle=no%20spaces", "angle"),
        ("rating=9000", "rating"),
    ] {
        let (status, body) = get_json(
            &client,
            server.url(&format!("/api/puzzle/next?{query}")),
            None,
        )
        .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert!(body["error"].as_str().unwrap().contains(named), "{body}");
    }
    let (status, _) = get_json(&client, server.url("/api/puzzle/batch/mix?nb=51"), None).await;
    assert_eq!(status, 400);
    // The solver's colour: White solves where Black moves first.
    let (_, body) = get_json(
        &client,
        server.url("/api/puzzle/batch/mix?nb=5&color=black"),
        None,
    )
    .await;
    assert_eq!(
        body["puzzles"].as_array().unwrap().len(),
        0,
        "every puzzle here is solved by White: {body}"
    );

    // A token without puzzle:read is refused; with it, the player gets their glicko.
    let store_db = existing_db("puzzle-next");
    let store = Store::open(&store_db).await.unwrap();
    let boris = store.create_user("Boris", None, 0).await.unwrap();
    let narrow = auth::issue_token(&store, boris.id, &[auth::Scope::BoardPlay], "t")
        .await
        .unwrap();
    let (status, body) = get_json(&client, server.url("/api/puzzle/next"), Some(&narrow)).await;
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("puzzle:read"),
        "{body}"
    );
    let (status, _) = get_json(&client, server.url("/api/puzzle/daily"), Some(&narrow)).await;
    assert_eq!(status, 200, "the daily puzzle is public");
    let (status, body) = get_json(
        &client,
        server.url("/api/puzzle/batch/mix?nb=1"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["glicko"]["rating"], 1500.0);
    server.task.abort();
}

#[tokio::test]
async fn a_solved_puzzle_raises_the_players_rating_and_lowers_the_puzzles() {
    let (server, token) = server_with(
        "puzzle-solve",
        &[
            puzzle("p1", 1500.0, MATE, "mate mateIn1"),
            puzzle("p2", 1500.0, FORK, "fork"),
        ],
    )
    .await;
    let client = reqwest::Client::new();
    let (status, body) = solve(
        &client,
        &server,
        &token,
        json!({"solutions": [{"id": "p1", "win": true}]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let diff = body["rounds"][0]["ratingDiff"].as_i64().unwrap();
    assert!(diff > 0, "{body}");
    assert_eq!(
        body["rounds"][0],
        json!({"id": "p1", "win": true, "ratingDiff": diff})
    );
    assert!((body["glicko"]["rating"].as_f64().unwrap() - (1500.0 + diff as f64)).abs() <= 1.0);
    let (_, p1) = get_json(&client, server.url("/api/puzzle/p1"), None).await;
    assert!(p1["puzzle"]["rating"].as_i64().unwrap() < 1500, "{p1}");
    assert_eq!(p1["puzzle"]["plays"], 1);

    // A failure lowers it; an unrated round changes nothing but the plays.
    let rating = body["glicko"]["rating"].as_f64().unwrap();
    let (_, body) = solve(
        &client,
        &server,
        &token,
        json!({"solutions": [{"id": "p2", "win": false}]}),
    )
    .await;
    assert!(
        body["rounds"][0]["ratingDiff"].as_i64().unwrap() < 0,
        "{body}"
    );
    let after_loss = body["glicko"]["rating"].as_f64().unwrap();
    assert!(after_loss < rating);
    let (_, body) = solve(
        &client,
        &server,
        &token,
        json!({"solutions": [{"id": "p2", "win": true, "rated": false}]}),
    )
    .await;
    assert_eq!(body["rounds"][0]["ratingDiff"], 0);
    assert_eq!(body["glicko"]["rating"].as_f64().unwrap(), after_loss);

    // Activity: newest first, NDJSON, with the position.
    let text = client
        .get(server.url("/api/puzzle/activity?max=10"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let seen: Vec<(&str, bool)> = lines
        .iter()
        .map(|l| {
            (
                l["puzzle"]["id"].as_str().unwrap(),
                l["win"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(seen, [("p2", true), ("p2", false), ("p1", true)]);
    assert!(lines[0]["puzzle"]["fen"].is_string() && lines[0]["date"].is_number());

    // Dashboard: p1 won at the first try, p2 at a replay.
    let (status, body) = get_json(
        &client,
        server.url("/api/puzzle/dashboard/30"),
        Some(&token),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["days"], 30);
    assert_eq!(body["global"]["nb"], 2);
    assert_eq!(body["global"]["firstWins"], 1);
    assert_eq!(body["global"]["replayWins"], 1);
    assert_eq!(body["themes"]["fork"]["results"]["replayWins"], 1);
    assert_eq!(body["themes"]["mateIn1"]["theme"], "Mate in 1");
    let (status, _) = get_json(&client, server.url("/api/puzzle/dashboard/0"), Some(&token)).await;
    assert_eq!(status, 400);

    // The next puzzle for Anna is not one she played while others are left.
    let (_, body) = get_json(&client, server.url("/api/puzzle/next"), Some(&token)).await;
    assert!(
        body["puzzle"]["id"].is_string(),
        "with all played, one is still given: {body}"
    );
    server.task.abort();
}

#[tokio::test]
async fn bad_results_are_refused_naming_what_is_wrong() {
    let (server, token) = server_with("puzzle-bad", &[puzzle("p1", 1500.0, MATE, "mate")]).await;
    let client = reqwest::Client::new();
    let (status, body) = solve(
        &client,
        &server,
        &token,
        json!({"solutions": [{"id": "p1"}]}),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("win"), "{body}");
    let (status, body) = solve(
        &client,
        &server,
        &token,
        json!({"solutions": [{"id": "nope", "win": true}]}),
    )
    .await;
    assert_eq!(status, 404, "{body}");
    let resp = client
        .post(server.url("/api/puzzle/batch/mix"))
        .json(&json!({"solutions": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401, "results need a player");
    let (status, _) = get_json(&client, server.url("/api/puzzle/activity"), None).await;
    assert_eq!(status, 401);
    server.task.abort();
}

#[tokio::test]
async fn an_empty_database_gets_the_starter_set_and_every_puzzle_replays() {
    let db = temp_db("puzzle-starter");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (status, body) = get_json(&client, server.url("/api/puzzle/daily"), None).await;
    assert_eq!(status, 200, "{body}");
    let shipped = caissa_puzzles::starter_set().unwrap();
    let count = Store::open(&existing_db("puzzle-starter"))
        .await
        .unwrap()
        .puzzle_count()
        .await
        .unwrap();
    assert_eq!(count as usize, shipped.len());
    // The daily puzzle's line is legal from its position.
    let mut pos = Position::from_fen(body["puzzle"]["fen"].as_str().unwrap()).unwrap();
    for mv in body["puzzle"]["solution"].as_array().unwrap() {
        let mv = pos.parse_uci(mv.as_str().unwrap()).unwrap();
        pos.play(mv).unwrap();
    }
    server.task.abort();
}
