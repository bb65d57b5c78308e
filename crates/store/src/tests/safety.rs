//! Closing accounts, changing passwords, blocks and reports, on both backends.

use super::*;

on_both_backends!(
    a_closed_account_loses_its_sessions_tokens_and_challenges_but_keeps_its_name,
    a_new_password_can_end_every_other_session,
    a_block_is_one_way_and_given_once,
    reports_are_numbered_in_order_and_closed_once,
    a_learner_keeps_the_most_stars_earned_in_each_exercise,
);

async fn a_learner_keeps_the_most_stars_earned_in_each_exercise(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", None, 1).await.unwrap();
    assert!(store.record_stars(anna.id, "rook", 0, 2, 10).await.unwrap());
    assert!(store.record_stars(anna.id, "rook", 0, 3, 11).await.unwrap());
    assert!(
        !store.record_stars(anna.id, "rook", 0, 1, 12).await.unwrap(),
        "fewer stars are not kept"
    );
    assert!(store
        .record_stars(anna.id, "bishop", 2, 1, 13)
        .await
        .unwrap());
    assert_eq!(
        store.lesson_progress(anna.id).await.unwrap(),
        [("bishop".to_string(), 2, 1), ("rook".to_string(), 0, 3)]
    );
}

async fn a_closed_account_loses_its_sessions_tokens_and_challenges_but_keeps_its_name(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", Some("h"), 1).await.unwrap();
    let boris = store.create_user("Boris", Some("h"), 1).await.unwrap();
    store.create_session("s1", anna.id, "c", 10).await.unwrap();
    store
        .create_token(&StoredToken {
            hash: "t1".into(),
            user_id: anna.id,
            scopes: "board:play".into(),
            description: String::new(),
            created_at: 10,
        })
        .await
        .unwrap();
    store
        .save_challenge(&StoredChallenge {
            id: "c1".into(),
            challenger_id: boris.id,
            dest_id: Some(anna.id),
            terms: "{}".into(),
            created_at: 10,
        })
        .await
        .unwrap();

    assert!(store.close_account(anna.id, 50).await.unwrap());
    assert!(
        !store.close_account(anna.id, 60).await.unwrap(),
        "closed once"
    );
    assert!(store.session("s1", 0).await.unwrap().is_none());
    assert!(store.user_by_token("t1").await.unwrap().is_none());
    assert!(store.challenge("c1").await.unwrap().is_none());
    let closed = store.user_by_name("anna").await.unwrap().unwrap();
    assert_eq!(closed.closed_at, Some(50));
    assert!(matches!(
        store.create_user("ANNA", None, 70).await,
        Err(StoreError::NameTaken(_))
    ));
    assert_eq!(
        store.user_by_id(boris.id).await.unwrap().unwrap().closed_at,
        None
    );
}

async fn a_new_password_can_end_every_other_session(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", Some("old"), 1).await.unwrap();
    for s in ["here", "phone", "laptop"] {
        store.create_session(s, anna.id, "c", 10).await.unwrap();
    }
    store.set_password(anna.id, "new").await.unwrap();
    assert_eq!(
        store
            .delete_sessions_of(anna.id, Some("here"))
            .await
            .unwrap(),
        2
    );
    assert!(store.session("here", 0).await.unwrap().is_some());
    assert!(store.session("phone", 0).await.unwrap().is_none());
    let user = store.user_by_id(anna.id).await.unwrap().unwrap();
    assert_eq!(user.password_hash.as_deref(), Some("new"));
}

async fn a_block_is_one_way_and_given_once(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", None, 1).await.unwrap();
    let boris = store.create_user("boris", None, 1).await.unwrap();
    let carl = store.create_user("Carl", None, 1).await.unwrap();
    assert!(store.block(anna.id, carl.id, 5).await.unwrap());
    assert!(store.block(anna.id, boris.id, 6).await.unwrap());
    assert!(!store.block(anna.id, boris.id, 7).await.unwrap());
    assert!(store.blocks(anna.id, boris.id).await.unwrap());
    assert!(!store.blocks(boris.id, anna.id).await.unwrap(), "one way");
    let names: Vec<String> = store
        .blocked_by(anna.id)
        .await
        .unwrap()
        .into_iter()
        .map(|u| u.name)
        .collect();
    assert_eq!(names, ["boris", "Carl"], "by name, whatever the case");
    assert!(store.unblock(anna.id, boris.id).await.unwrap());
    assert!(!store.unblock(anna.id, boris.id).await.unwrap());
    assert!(!store.blocks(anna.id, boris.id).await.unwrap());
}

async fn reports_are_numbered_in_order_and_closed_once(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", None, 1).await.unwrap();
    let boris = store.create_user("Boris", None, 1).await.unwrap();
    let report = |reason: &str, game: Option<&str>| Report {
        id: 0,
        reporter_id: anna.id,
        suspect_id: boris.id,
        reason: reason.into(),
        text: "said something rude".into(),
        game_id: game.map(str::to_string),
        created_at: 100,
        closed_at: None,
    };
    let first = store
        .add_report(&report("abuse", Some("g1")))
        .await
        .unwrap();
    let second = store.add_report(&report("cheat", None)).await.unwrap();
    assert!(second > first);
    assert!(store.close_report(first, 200).await.unwrap());
    assert!(!store.close_report(first, 300).await.unwrap());
    assert!(!store.close_report(second + 100, 300).await.unwrap());
    let open = store.reports(true, 10).await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].reason, "cheat");
    let all = store.reports(false, 10).await.unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].game_id.as_deref(), Some("g1"));
    assert_eq!(all[0].closed_at, Some(200));
}
