//! The operators' desk as a process: `caissa reports` lists what users
//! reported, `caissa reports close` marks one dealt with, and `caissa user
//! close` closes an account.

use std::process::{Command, Output};

use caissa_store::{scratch, Report, Store};

fn caissa(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout_of(args: &[&str]) -> String {
    let out = caissa(args);
    assert!(
        out.status.success(),
        "caissa {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[tokio::test]
async fn operators_list_and_close_reports_and_close_an_account() {
    let db = scratch::sqlite_url("cli-reports");
    let store = Store::open(&db).await.unwrap();
    let anna = store.create_user("Anna", Some("h"), 1).await.unwrap();
    let boris = store.create_user("Boris", Some("h"), 1).await.unwrap();
    for (reason, game, text) in [
        ("comm", Some("g1"), "called me names in the chat"),
        ("stall", None, "let the clock run in a lost position"),
    ] {
        store
            .add_report(&Report {
                id: 0,
                reporter_id: anna.id,
                suspect_id: boris.id,
                reason: reason.into(),
                text: text.into(),
                game_id: game.map(str::to_string),
                created_at: 1_796_474_419_000,
                closed_at: None,
            })
            .await
            .unwrap();
    }
    let listed = stdout_of(&["reports", "--db", &db]);
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "{listed}");
    assert_eq!(
        lines[0],
        "#1 2026-12-05 12:40 UTC Anna reports Boris for comm in game g1: called me names in the chat"
    );
    assert!(
        lines[1].starts_with("#2 ") && lines[1].contains("for stall:"),
        "{listed}"
    );

    assert_eq!(
        stdout_of(&["reports", "close", "1", "--db", &db]).trim(),
        "closed report 1"
    );
    let again = caissa(&["reports", "close", "1", "--db", &db]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("no open report numbered 1"));
    let open = stdout_of(&["reports", "--db", &db]);
    assert_eq!(open.lines().count(), 1, "{open}");
    let all = stdout_of(&["reports", "--all", "--json", "--db", &db]);
    let first: serde_json::Value = serde_json::from_str(all.lines().next().unwrap()).unwrap();
    assert_eq!(first["suspect"], "Boris");
    assert!(first["closedAt"].is_i64(), "{first}");

    let closed = stdout_of(&["user", "close", "boris", "--db", &db]);
    assert_eq!(closed.trim(), "closed the account of Boris");
    let boris = store.user_by_name("Boris").await.unwrap().unwrap();
    assert!(boris.closed_at.is_some());
    let missing = caissa(&["user", "close", "nobody", "--db", &db]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no user named"));
}
