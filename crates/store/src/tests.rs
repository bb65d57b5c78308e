//! The store's tests, on real SQLite files.

use super::*;

fn temp_db(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("caissa-store-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("test.db").display())
}

#[tokio::test]
async fn events_are_appended_once_and_survive_reopening() {
    let url = temp_db("events");
    let store = Store::open(&url).await.unwrap();
    let a = store.create_user("Anna", None, 1).await.unwrap();
    let b = store.create_user("Boris", Some("hash"), 2).await.unwrap();
    assert!(matches!(
        store.create_user("anna", None, 3).await,
        Err(StoreError::NameTaken(_))
    ));
    let game = StoredGame {
        id: "g1".into(),
        white_id: a.id,
        black_id: b.id,
        setup: "{}".into(),
        created_at: 5,
        finished: false,
        result: None,
        rated: true,
        source: "arena:t1".into(),
        events: vec!["e0".into()],
    };
    store.create_game(&game).await.unwrap();
    store
        .append_events("g1", 1, &["e1".into(), "e2".into()], None)
        .await
        .unwrap();
    assert!(matches!(
        store.append_events("g1", 2, &["x".into()], None).await,
        Err(StoreError::Conflict { seq: 2, .. })
    ));
    assert_eq!(store.live_games().await.unwrap().len(), 1);
    store
        .append_events("g1", 3, &["e3".into()], Some("1-0"))
        .await
        .unwrap();
    drop(store);
    let store = Store::open(&url).await.unwrap();
    let back = store.game("g1").await.unwrap().unwrap();
    assert_eq!(back.events, vec!["e0", "e1", "e2", "e3"]);
    assert!(back.finished);
    assert_eq!(back.result.as_deref(), Some("1-0"));
    assert_eq!(back.source, "arena:t1");
    assert!(store.live_games().await.unwrap().is_empty());
    let finished = GameFilter::default();
    assert_eq!(
        store.game_ids_of_user(b.id, &finished).await.unwrap(),
        ["g1"]
    );
    let filters = [
        GameFilter {
            finished: false,
            ongoing: true,
            ..finished.clone()
        },
        GameFilter {
            color_white: Some(true),
            ..finished.clone()
        },
        GameFilter {
            vs: Some(b.id + 100),
            ..finished.clone()
        },
        GameFilter {
            rated: Some(false),
            ..finished.clone()
        },
        GameFilter {
            since: Some(6),
            ..finished.clone()
        },
        GameFilter {
            until: Some(4),
            ..finished.clone()
        },
    ];
    for filter in filters {
        let ids = store.game_ids_of_user(b.id, &filter).await.unwrap();
        assert!(ids.is_empty(), "{filter:?}: {ids:?}");
    }
    let as_black = GameFilter {
        color_white: Some(false),
        vs: Some(a.id),
        rated: Some(true),
        since: Some(5),
        until: Some(5),
        ..finished
    };
    assert_eq!(
        store.game_ids_of_user(b.id, &as_black).await.unwrap(),
        ["g1"]
    );
    let token = StoredToken {
        hash: "h".into(),
        user_id: a.id,
        scopes: "board:play".into(),
        description: "my board".into(),
        created_at: 9,
    };
    store.create_token(&token).await.unwrap();
    assert_eq!(store.tokens_of(a.id).await.unwrap(), [token]);
    assert!(store.tokens_of(b.id).await.unwrap().is_empty());
    assert_eq!(
        store.user_by_token("h").await.unwrap().unwrap().0.name,
        "Anna"
    );
    assert_eq!(store.user_by_name("ANNA").await.unwrap().unwrap().id, a.id);
    assert!(!store.delete_token(b.id, "h").await.unwrap());
    assert!(store.delete_token(a.id, "h").await.unwrap());
    assert!(store.user_by_token("h").await.unwrap().is_none());
    assert!(!store.delete_token(a.id, "h").await.unwrap());
}

#[tokio::test]
async fn chat_lines_survive_reopening_room_by_room_newest_kept() {
    let url = temp_db("chat");
    let store = Store::open(&url).await.unwrap();
    let a = store.create_user("Anna", None, 1).await.unwrap();
    let b = store.create_user("Boris", None, 1).await.unwrap();
    let game = StoredGame {
        id: "g1".into(),
        white_id: a.id,
        black_id: b.id,
        setup: "{}".into(),
        created_at: 1,
        finished: false,
        result: None,
        rated: false,
        source: "friend".into(),
        events: vec![],
    };
    store.create_game(&game).await.unwrap();
    let line = |room: &str, text: &str, at| ChatLine {
        room: room.into(),
        username: "Anna".into(),
        text: text.into(),
        at,
    };
    for (i, text) in ["hi", "good luck", "thanks"].iter().enumerate() {
        store
            .add_chat_line("g1", &line("player", text, i as i64))
            .await
            .unwrap();
    }
    store
        .add_chat_line("g1", &line("spectator", "nice", 9))
        .await
        .unwrap();
    assert!(store
        .add_chat_line("g1", &line("lobby", "x", 10))
        .await
        .is_err());
    drop(store);
    let store = Store::open(&url).await.unwrap();
    let last_two = store.chat_lines("g1", "player", 2).await.unwrap();
    assert_eq!(
        last_two,
        [line("player", "good luck", 1), line("player", "thanks", 2)]
    );
    assert_eq!(
        store.chat_lines("g1", "spectator", 10).await.unwrap(),
        [line("spectator", "nice", 9)]
    );
    assert!(store
        .chat_lines("g2", "player", 10)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_group_commit_is_all_or_nothing_and_names_the_event_taken() {
    let store = Store::open(&temp_db("batch")).await.unwrap();
    let a = store.create_user("Anna", None, 1).await.unwrap();
    let b = store.create_user("Boris", None, 1).await.unwrap();
    for id in ["g1", "g2"] {
        let game = StoredGame {
            id: id.into(),
            white_id: a.id,
            black_id: b.id,
            setup: "{}".into(),
            created_at: 1,
            finished: false,
            result: None,
            rated: false,
            source: "friend".into(),
            events: vec!["start".into()],
        };
        store.create_game(&game).await.unwrap();
    }
    let append = |game: &str, first_seq: u64, n: usize, result: Option<&str>| Append {
        game_id: game.into(),
        first_seq,
        events: (0..n)
            .map(|i| format!("{game}-{}", first_seq as usize + i))
            .collect(),
        result: result.map(str::to_string),
    };
    // More events than one insert statement takes.
    store
        .append_batch(&[
            append("g1", 1, 1_500, None),
            append("g2", 1, 700, Some("0-1")),
        ])
        .await
        .unwrap();
    let g1 = store.game("g1").await.unwrap().unwrap();
    assert_eq!(g1.events.len(), 1_501);
    assert_eq!(g1.events[1_500], "g1-1500");
    let g2 = store.game("g2").await.unwrap().unwrap();
    assert_eq!((g2.events.len(), g2.finished), (701, true));
    // One taken number (g2's 700) sinks the whole batch, and is the one named.
    let taken = store
        .append_batch(&[
            append("g1", 1_501, 3, Some("1-0")),
            append("g2", 699, 3, None),
        ])
        .await;
    assert!(
        matches!(&taken, Err(StoreError::Conflict { game, seq: 699 }) if game == "g2"),
        "{taken:?}"
    );
    let g1 = store.game("g1").await.unwrap().unwrap();
    assert_eq!((g1.events.len(), g1.finished), (1_501, false));
    // The same for a batch small enough to be a single statement.
    let taken = store
        .append_batch(&[append("g1", 1_501, 3, None), append("g2", 700, 1, None)])
        .await;
    assert!(
        matches!(&taken, Err(StoreError::Conflict { game, seq: 700 }) if game == "g2"),
        "{taken:?}"
    );
    assert_eq!(store.game("g1").await.unwrap().unwrap().events.len(), 1_501);
    store
        .append_batch(&[append("g1", 1_501, 3, None)])
        .await
        .unwrap();
    assert_eq!(store.game("g1").await.unwrap().unwrap().events.len(), 1_504);
}

#[tokio::test]
async fn a_challenge_waits_across_reopening_until_it_is_answered() {
    let url = temp_db("challenges");
    let store = Store::open(&url).await.unwrap();
    let a = store.create_user("Anna", None, 1).await.unwrap();
    let b = store.create_user("Boris", None, 1).await.unwrap();
    let direct = StoredChallenge {
        id: "c1".into(),
        challenger_id: a.id,
        dest_id: Some(b.id),
        terms: "{}".into(),
        created_at: 5,
    };
    let open = StoredChallenge {
        id: "c2".into(),
        dest_id: None,
        created_at: 6,
        ..direct.clone()
    };
    store.save_challenge(&direct).await.unwrap();
    store.save_challenge(&open).await.unwrap();
    assert!(
        store.save_challenge(&direct).await.is_err(),
        "ids are unique"
    );
    drop(store);
    let store = Store::open(&url).await.unwrap();
    assert_eq!(store.challenges().await.unwrap(), [direct, open.clone()]);
    store.delete_challenge("c1").await.unwrap();
    assert_eq!(store.challenges().await.unwrap(), [open]);
}

#[tokio::test]
async fn the_last_heartbeat_survives_reopening() {
    let url = temp_db("beat");
    let store = Store::open(&url).await.unwrap();
    assert_eq!(store.last_beat().await.unwrap(), None);
    store.beat(1_000).await.unwrap();
    store.beat(2_000).await.unwrap();
    drop(store);
    let store = Store::open(&url).await.unwrap();
    assert_eq!(store.last_beat().await.unwrap(), Some(2_000));
}

#[tokio::test]
async fn a_busy_event_log_keeps_the_write_ahead_log_bounded() {
    let url = temp_db("wal");
    let store = Store::open(&url).await.unwrap();
    let a = store.create_user("Anna", None, 1).await.unwrap();
    let b = store.create_user("Boris", None, 1).await.unwrap();
    let games = 50;
    for g in 0..games {
        let game = StoredGame {
            id: format!("g{g}"),
            white_id: a.id,
            black_id: b.id,
            setup: "{}".into(),
            created_at: 1,
            finished: false,
            result: None,
            rated: false,
            source: "friend".into(),
            events: vec!["start".into()],
        };
        store.create_game(&game).await.unwrap();
    }
    // Group commits of a few games each, one after another as under load,
    // each event a page or so: about 160 MiB through the log.
    let event = "x".repeat(3_000);
    let commits = 12_000;
    for c in 0..commits {
        let batch: Vec<Append> = (0..4)
            .map(|i| {
                let g = (c * 4 + i) % games;
                Append {
                    game_id: format!("g{g}"),
                    first_seq: 1 + ((c * 4 + i) / games) as u64,
                    events: vec![event.clone()],
                    result: None,
                }
            })
            .collect();
        store.append_batch(&batch).await.unwrap();
    }
    let path = url.strip_prefix("sqlite://").unwrap();
    let wal = std::fs::metadata(format!("{path}-wal")).unwrap().len();
    // A log copied back only beside the writer would never start afresh.
    let bound = 2 * u64::from(CHECKPOINT_PAGES) * 4096;
    assert!(wal < bound, "write-ahead log of {wal} bytes, over {bound}");
    let last = store
        .game(&format!("g{}", games - 1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(last.events.len(), 1 + commits * 4 / games);
    drop(store);
    let _ = std::fs::remove_dir_all(std::path::Path::new(path).parent().unwrap());
}

#[tokio::test]
async fn an_online_backup_is_consistent_while_moves_are_being_written() {
    let url = temp_db("backup");
    let store = Store::open(&url).await.unwrap();
    let a = store.create_user("Anna", None, 1).await.unwrap();
    let b = store.create_user("Boris", None, 2).await.unwrap();
    let game = StoredGame {
        id: "g1".into(),
        white_id: a.id,
        black_id: b.id,
        setup: "{}".into(),
        created_at: 5,
        finished: false,
        result: None,
        rated: false,
        source: "friend".into(),
        events: vec!["e0".into()],
    };
    store.create_game(&game).await.unwrap();
    // A writer keeps appending while the backups are taken.
    let writer = {
        let store = store.clone();
        tokio::spawn(async move {
            for seq in 1..400u64 {
                let events = [format!("e{seq}")];
                store.append_events("g1", seq, &events, None).await.unwrap();
            }
        })
    };
    let dir = std::path::PathBuf::from(url.strip_prefix("sqlite://").unwrap())
        .parent()
        .unwrap()
        .to_path_buf();
    let mut backups = Vec::new();
    for i in 0..3 {
        let target = dir.join(format!("backup-{i}.db"));
        let backup = store.backup_to(&target).await.unwrap();
        assert_eq!(backup.path, target);
        assert!(backup.bytes > 0);
        assert!(!dir.join(format!("backup-{i}.db.partial")).exists());
        let users = backup.rows.iter().find(|(t, _)| t == "users").unwrap().1;
        assert_eq!(users, 2);
        backups.push((target, backup));
    }
    writer.await.unwrap();
    for (target, backup) in backups {
        let copy = Store::open(&format!("sqlite://{}", target.display()))
            .await
            .unwrap();
        let events = copy.game("g1").await.unwrap().unwrap().events;
        // A prefix of the log, in order, with nothing missing in between.
        let expected: Vec<String> = (0..events.len()).map(|i| format!("e{i}")).collect();
        assert_eq!(events, expected);
        let counted = backup
            .rows
            .iter()
            .find(|(t, _)| t == "game_events")
            .unwrap()
            .1;
        assert_eq!(counted as usize, events.len());
    }
    // An existing file is never overwritten.
    let taken = dir.join("backup-0.db");
    let e = store.backup_to(&taken).await.unwrap_err();
    assert!(e.to_string().contains("already exists"), "{e}");
}
