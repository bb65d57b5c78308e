//! The browser's rules API, asked as the browser asks it: JSON in, JSON out.

use caissa_wasm::answer;
use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    let text = answer(request.to_string().as_bytes());
    serde_json::from_str(&text).expect("the answer is JSON")
}

fn ok(request: Value) -> Value {
    let reply = ask(request.clone());
    assert!(reply.get("error").is_none(), "{request} -> {reply}");
    reply["ok"].clone()
}

fn error(request: Value) -> String {
    let reply = ask(request.clone());
    reply["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{request} should fail: {reply}"))
        .to_string()
}

#[test]
fn the_initial_position_has_twenty_moves_from_ten_squares() {
    let pos = ok(json!({"op": "position"}));
    assert_eq!(
        pos["fen"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(pos["turn"], "white");
    assert_eq!(pos["check"], Value::Null);
    let dests = pos["dests"].as_object().unwrap();
    assert_eq!(dests.len(), 10);
    let count: usize = dests.values().map(|d| d.as_array().unwrap().len()).sum();
    assert_eq!(count, 20);
    assert_eq!(pos["dests"]["g1"], json!(["f3", "h3"]));
}

#[test]
fn art_3_8_2_a_castling_king_goes_to_its_square_or_onto_its_rook() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let pos = ok(json!({"op": "position", "fen": fen}));
    let king: Vec<&str> = pos["dests"]["e1"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    for square in ["c1", "a1", "g1", "h1"] {
        assert!(king.contains(&square), "{square} in {king:?}");
    }
    // Both ways of writing it castle; the answer writes it as UCI does.
    for uci in ["e1g1", "e1h1", "O-O"] {
        let played = ok(json!({"op": "play", "fen": fen, "move": uci}));
        assert_eq!(played["san"], "O-O");
        assert_eq!(played["uci"], "e1g1");
        assert_eq!(played["fen"], "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    }
}

#[test]
fn a_move_in_check_says_which_king_is_checked() {
    let played = ok(json!({"op": "play", "fen": "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "move": "Rh8"}));
    assert_eq!(played["san"], "Rh8+");
    assert_eq!(played["check"], "e8");
    assert_eq!(played["position"]["turn"], "black");
}

#[test]
fn art_5_1_1_checkmate_ends_the_game_and_names_the_winner() {
    let line = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qxf7#"].map(String::from);
    let replayed = ok(json!({"op": "replay", "moves": line}));
    assert_eq!(replayed["moves"][6]["san"], "Qxf7#");
    assert_eq!(replayed["position"]["end"]["result"], "1-0");
    assert_eq!(replayed["position"]["end"]["reason"], "checkmate");
    assert_eq!(replayed["position"]["dests"], json!({}));
}

#[test]
fn art_9_2_a_position_there_for_the_third_time_may_be_claimed() {
    let line = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"].map(String::from);
    let replayed = ok(json!({"op": "replay", "moves": line[..7]}));
    assert_eq!(replayed["position"]["claims"], json!([]));
    let replayed = ok(json!({"op": "replay", "moves": line}));
    assert_eq!(
        replayed["position"]["claims"],
        json!(["threefold_repetition"])
    );
}

#[test]
fn an_illegal_move_is_refused_with_its_number_and_reason() {
    let message = error(json!({"op": "replay", "moves": ["e4", "e5", "Ke3"]}));
    assert!(message.starts_with("2. Ke3"), "{message}");
    let message = error(json!({"op": "play", "move": "e2e5"}));
    assert!(message.contains("e2e5"), "{message}");
    let message = error(json!({"op": "position", "fen": "8/8/8/8 w - - 0 1"}));
    assert!(message.contains("FEN"), "{message}");
    let message = error(json!({"op": "fly"}));
    assert!(message.starts_with("bad request"), "{message}");
    let reply = answer(b"not json at all");
    assert!(reply.contains("bad request"), "{reply}");
}

#[test]
fn chess960_castling_is_written_king_onto_rook() {
    let fen = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1";
    let played = ok(json!({"op": "play", "fen": fen, "chess960": true, "move": "O-O-O"}));
    assert_eq!(played["uci"], "e1b1");
    assert_eq!(played["san"], "O-O-O");
    assert!(played["fen"]
        .as_str()
        .unwrap()
        .starts_with("4k3/8/8/8/8/8/8/2KR2R1 b"));
    let pos = ok(json!({"op": "position", "fen": fen, "chess960": true}));
    let king = pos["dests"]["e1"].as_array().unwrap();
    assert!(
        king.contains(&json!("b1")) && !king.contains(&json!("c1")),
        "{king:?}"
    );
}

const ANNOTATED: &str = r#"[Event "Annotated"]
[Site "?"]
[Date "2026.12.05"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

{Before the first move} 1. e4 {[%clk 0:05:00]} e5 2. Nf3 $1 (2. Bc4 {Bishop's opening} Nf6 (2... Bc5 3. Qh5 $2) 3. d3) 2... Nc6 3. Bb5 a6 {The Morphy defence} (3... Nf6 $14 4. O-O) 4. Ba4 1-0

[Event "Second"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

1. e4 Kd7 *
"#;

#[test]
fn a_pgn_with_nested_variations_comments_and_nags_reads_into_a_tree() {
    let read = ok(json!({"op": "readPgn", "pgn": ANNOTATED}));
    let games = read["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let game = &games[0];
    assert_eq!(game["comments"], json!(["Before the first move"]));
    assert_eq!(game["result"], "1-0");
    let moves = game["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 7);
    assert_eq!(moves[0]["clock"], 300_000);
    assert_eq!(moves[2]["nags"], json!([1]));
    let bishop = &moves[2]["variations"][0]["moves"];
    assert_eq!(bishop[0]["san"], "Bc4");
    assert_eq!(bishop[0]["comments"], json!(["Bishop's opening"]));
    assert_eq!(bishop[1]["variations"][0]["moves"][1]["san"], "Qh5");
    assert_eq!(bishop[1]["variations"][0]["moves"][1]["nags"], json!([2]));
    assert_eq!(moves[5]["variations"][0]["moves"][0]["nags"], json!([14]));
    assert_eq!(moves[5]["variations"][0]["moves"][1]["san"], "O-O");
    assert_eq!(games[1]["fen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(games[1]["moves"][1]["san"], "Kd7");
}

/// The read tree turned back into the writer's input, as the browser does.
fn to_write(game: &Value) -> Value {
    fn line(moves: &Value) -> Value {
        Value::Array(
            moves
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    json!({
                        "san": m["san"],
                        "nags": m["nags"],
                        "comments": m["comments"],
                        "variations": m["variations"].as_array().unwrap().iter().map(|v| json!({
                            "comments": v["comments"], "moves": line(&v["moves"]),
                        })).collect::<Vec<_>>(),
                    })
                })
                .collect(),
        )
    }
    json!({
        "tags": game["tags"],
        "comments": game["comments"],
        "moves": line(&game["moves"]),
        "result": game["result"],
    })
}

#[test]
fn a_pgn_read_and_written_back_keeps_every_variation_comment_and_nag() {
    let read = ok(json!({"op": "readPgn", "pgn": ANNOTATED}));
    let game = &read["games"][0];
    let written = ok(json!({"op": "writePgn", "game": to_write(game)}));
    let text = written.as_str().unwrap();
    // Lines wrap at 80 columns; a move after a comment carries its number.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for part in [
        "{Before the first move}",
        "{[%clk 0:05:00]} 1... e5",
        "$1",
        "(2. Bc4 {Bishop's opening} 2... Nf6 (2... Bc5 3. Qh5 $2) 3. d3)",
        "{The Morphy defence}",
        "$14",
        "4. O-O",
        "1-0",
    ] {
        assert!(flat.contains(part), "{part} missing from\n{text}");
    }
    // Read again, the tree is the same.
    let again = ok(json!({"op": "readPgn", "pgn": text}));
    assert_eq!(again["games"][0]["moves"], game["moves"]);
    assert_eq!(again["games"][0]["comments"], game["comments"]);
}

#[test]
fn a_game_that_cannot_be_read_is_listed_with_why_and_the_others_are_kept() {
    let pgn = "[Event \"Bad\"]\n\n1. e4 e5 2. Ke3 *\n\n[Event \"Good\"]\n\n1. d4 *\n";
    let read = ok(json!({"op": "readPgn", "pgn": pgn}));
    let games = read["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    let why = games[0]["error"].as_str().unwrap();
    assert!(why.contains("game 1") && why.contains("2. Ke3"), "{why}");
    assert_eq!(games[1]["moves"][0]["san"], "d4");
}

#[test]
fn writing_a_pgn_with_an_illegal_move_names_it() {
    let game = json!({"moves": [{"san": "e4"}, {"san": "e4"}]});
    let message = error(json!({"op": "writePgn", "game": game}));
    assert!(message.contains("ply 2"), "{message}");
    let game = json!({"moves": [{"san": "Zz9"}]});
    let message = error(json!({"op": "writePgn", "game": game}));
    assert!(message.contains("Zz9"), "{message}");
}
