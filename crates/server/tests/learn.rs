//! Learn chess over HTTP: the lessons in three languages, a learner's moves
//! judged by the rules (never an answer list), and a signed-in learner's stars.

use caissa_learn::{solve, unsolving_move, Goal, Lessons};
use serde_json::{json, Value};

use super::*;

async fn answer(
    client: &reqwest::Client,
    server: &Server,
    token: Option<&str>,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let mut request = client.post(server.url(path)).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let resp = request.send().await.unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_lessons_come_in_three_languages_without_giving_quiz_answers_away() {
    let db = temp_db("learn-lessons");
    let server = Server::start(&db).await;
    let body: Value = reqwest::get(server.url("/api/learn"))
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let lessons = body["lessons"].as_array().unwrap();
    assert_eq!(lessons.len(), Lessons::bundled().all().len());
    for lesson in lessons {
        for lang in ["en", "zh-Hans", "zh-Hant"] {
            assert!(
                lesson["title"][lang]
                    .as_str()
                    .is_some_and(|t| !t.is_empty()),
                "{lesson}"
            );
        }
        for exercise in lesson["exercises"].as_array().unwrap() {
            assert!(exercise["instruction"]["zh-Hant"].is_string(), "{exercise}");
            assert!(exercise["goal"].get("answer").is_none(), "{exercise}");
        }
    }
    server.task.abort();
}

#[tokio::test]
async fn a_learners_moves_are_judged_by_the_rules_and_their_stars_kept() {
    let db = temp_db("learn-check");
    let anna = user_with_token(&db, "Anna").await;
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let lessons = Lessons::bundled();
    let (lesson, n, exercise) = lessons
        .all()
        .iter()
        .flat_map(|l| l.exercises.iter().enumerate().map(move |(n, e)| (l, n, e)))
        .find(|(_, _, e)| matches!(e.goal, Goal::MateInOne))
        .expect("a mate in one");
    let path = format!("/api/learn/{}/{n}", lesson.id);
    let solution = solve(exercise).expect("solvable");
    let wrong = unsolving_move(exercise).expect("a move that does not mate");

    let (status, judged) = answer(
        &client,
        &server,
        Some(&anna),
        &path,
        json!({ "moves": wrong }),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(judged["state"], "wrong", "{judged}");
    let (_, judged) = answer(
        &client,
        &server,
        Some(&anna),
        &path,
        json!({ "moves": "a1a1" }),
    )
    .await;
    assert_eq!(judged["state"], "illegal", "{judged}");
    assert!(judged["reason"].is_string(), "{judged}");

    let (_, judged) = answer(
        &client,
        &server,
        Some(&anna),
        &path,
        json!({ "moves": solution.join(" ") }),
    )
    .await;
    assert_eq!(
        (&judged["state"], &judged["stars"], &judged["recorded"]),
        (&json!("solved"), &json!(3), &json!(true)),
        "{judged}"
    );
    let (_, judged) = answer(
        &client,
        &server,
        Some(&anna),
        &path,
        json!({ "moves": solution.join(" ") }),
    )
    .await;
    assert_eq!(judged["recorded"], false, "the same stars again: {judged}");
    // A guest is judged the same, and keeps the stars in the browser.
    let (_, judged) = answer(
        &client,
        &server,
        None,
        &path,
        json!({ "moves": solution.join(" ") }),
    )
    .await;
    assert_eq!(
        (&judged["state"], &judged["recorded"]),
        (&json!("solved"), &json!(false))
    );

    let progress: Value = client
        .get(server.url("/api/learn/progress"))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        progress["lessons"][&lesson.id][n.to_string()],
        3,
        "{progress}"
    );

    let (status, body) = answer(&client, &server, None, &path, json!({})).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = answer(
        &client,
        &server,
        None,
        "/api/learn/no-such-lesson/0",
        json!({ "moves": "e2e4" }),
    )
    .await;
    assert_eq!(status, 404);
    assert!(
        body["error"].as_str().unwrap().contains("no-such-lesson"),
        "{body}"
    );
    let (status, _) = answer(
        &client,
        &server,
        None,
        &format!("/api/learn/{}/99", lesson.id),
        json!({ "moves": "e2e4" }),
    )
    .await;
    assert_eq!(status, 404);
    server.task.abort();
}

#[tokio::test]
async fn a_quiz_is_answered_by_its_choice() {
    let db = temp_db("learn-quiz");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let (lesson, n, quiz) = Lessons::bundled()
        .all()
        .iter()
        .flat_map(|l| l.exercises.iter().enumerate().map(move |(n, e)| (l, n, e)))
        .find_map(|(l, n, e)| match &e.goal {
            Goal::Quiz(q) if q.rule.is_some() => Some((l, n, q)),
            _ => None,
        })
        .expect("a quiz decided by the rules");
    let path = format!("/api/learn/{}/{n}", lesson.id);
    let right = quiz.answer;
    let other = (right + 1) % quiz.choices.len();
    let (_, judged) = answer(&client, &server, None, &path, json!({ "choice": other })).await;
    assert_eq!(judged["state"], "wrong", "{judged}");
    let (_, judged) = answer(&client, &server, None, &path, json!({ "choice": right })).await;
    assert_eq!(judged["state"], "solved", "{judged}");
    server.task.abort();
}

#[tokio::test]
async fn a_basic_mate_is_answered_by_the_computer_with_the_verdict() {
    let db = temp_db("learn-basic-mate");
    let server = Server::start(&db).await;
    let client = reqwest::Client::new();
    let lesson = Lessons::bundled().get("basic-mates").unwrap();
    let (n, exercise) = lesson
        .exercises
        .iter()
        .enumerate()
        .find(|(_, e)| e.goal == Goal::Checkmate)
        .unwrap();
    let start = caissa_rules::Position::from_fen(exercise.fen.as_deref().unwrap()).unwrap();
    // Any first move that keeps the pieces: the computer answers it.
    let first = start
        .legal_moves()
        .iter()
        .map(|&m| start.to_uci(m))
        .find(|uci| !matches!(exercise.check(&[uci]), caissa_learn::Progress::Wrong { .. }))
        .unwrap();
    let path = format!("/api/learn/basic-mates/{n}");
    let (status, body) = answer(&client, &server, None, &path, json!({ "moves": first })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["state"], "going", "{body}");
    let reply = body["reply"].as_str().expect("the computer's answer");
    // The answer is legal, and the learner is to move again.
    let verdict = exercise.check(&[&first, reply]);
    assert!(
        matches!(
            verdict,
            caissa_learn::Progress::Going {
                defender_to_move: false,
                ..
            }
        ),
        "{verdict:?}"
    );
    assert_eq!(
        body["fen"].as_str().unwrap().split(' ').nth(1),
        Some(start.fen().split(' ').nth(1).unwrap())
    );
    assert!(body.get("defenderToMove").is_none(), "{body}");
    server.task.abort();
}
