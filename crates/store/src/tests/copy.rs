//! Copying a whole installation between backends (SQLite to PostgreSQL and back),
//! a second copy that changes nothing, and a copy into another installation refused.

use super::*;

/// An installation with something in every table.
async fn a_used_installation(store: &Store) {
    let (a, b) = two_players_and_a_game(store, "g1", 10).await;
    two_players_and_a_game(store, "g2", 11).await;
    store
        .append_events("g1", 2, &["e5".into(), "Nf3".into()], Some("1/2-1/2"))
        .await
        .unwrap();
    let token = StoredToken {
        hash: "tok".into(),
        user_id: a.id,
        scopes: "board:play challenge:read".into(),
        description: "my bot's \"token\"\nwith a newline".into(),
        created_at: 3,
    };
    store.create_token(&token).await.unwrap();
    store.create_session("s1", b.id, "csrf", 4).await.unwrap();
    store.grant_right(a.id, "arbiter", 5).await.unwrap();
    store.add_game_arbiters("g2", &[a.id]).await.unwrap();
    let challenge = StoredChallenge {
        id: "c1".into(),
        challenger_id: b.id,
        dest_id: None,
        terms: "{}".into(),
        created_at: 6,
    };
    store.save_challenge(&challenge).await.unwrap();
    let line = ChatLine {
        room: "spectator".into(),
        username: "Boris".into(),
        text: "gg 好棋".into(),
        at: 7,
    };
    store.add_chat_line("g1", &line).await.unwrap();
    let rating = StoredRating {
        rating: 1500.0 + 1.0 / 3.0,
        deviation: 350.0,
        volatility: 0.06,
        games: 1,
        last_played: 8,
    };
    let updates = [(a.id, "blitz".to_string(), rating, 1)];
    store.record_ratings("g1", 8, &updates).await.unwrap();
    let tournament = StoredTournament {
        id: "t1".into(),
        status: "finished".into(),
        created_by: a.id,
        created_at: 9,
        starts_at: 9,
        data: "{}".into(),
    };
    store.save_tournament(&tournament).await.unwrap();
    store.beat(12).await.unwrap();
}

/// Everything a reader sees of `store` (made by [`a_used_installation`]).
async fn what_it_holds(store: &Store) -> String {
    let a = store.user_by_name("Anna").await.unwrap().unwrap();
    let b = store.user_by_name("Boris").await.unwrap().unwrap();
    format!(
        "{a:?} {b:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        store.game("g1").await.unwrap(),
        store.game("g2").await.unwrap(),
        store.tokens_of(a.id).await.unwrap(),
        store.session("s1", 0).await.unwrap(),
        store.has_right(a.id, "arbiter").await.unwrap(),
        store.arbitrated_games(a.id, 10).await.unwrap(),
        store.challenges().await.unwrap(),
        store.chat_lines("g1", "spectator", 10).await.unwrap(),
        store.ratings(a.id).await.unwrap(),
        store.ladder(a.id).await.unwrap(),
        store.rating_history(a.id, "blitz").await.unwrap(),
        store.tournament("t1").await.unwrap(),
        store.last_beat().await.unwrap(),
        store.live_games().await.unwrap().len(),
    )
}

/// Copies an installation from one backend to the other and back, and checks
/// what a reader sees, that a second copy writes nothing, and that ids go on
/// after the copied ones.
async fn an_installation_copies_whole_and_a_second_copy_is_a_no_op(from_url: &str, to_url: &str) {
    let from = Store::open(from_url).await.unwrap();
    a_used_installation(&from).await;
    let to = Store::open(to_url).await.unwrap();
    let mut heard = Vec::new();
    let copied = from.copy_to(&to, |t| heard.push(t.table)).await.unwrap();
    assert_eq!(heard.len(), rows::Table::ALL.len());
    let events = copied
        .tables
        .iter()
        .find(|t| t.table == "game_events")
        .unwrap();
    assert_eq!((events.rows, events.new), (6, 6));
    assert_eq!(what_it_holds(&to).await, what_it_holds(&from).await);
    let again = from.copy_to(&to, |_| {}).await.unwrap();
    assert_eq!(again.new_rows(), 0);
    for (first, second) in copied.tables.iter().zip(&again.tables) {
        assert_eq!((first.rows, first.checksum), (second.rows, second.checksum));
    }
    // The next account gets an id after the copied ones.
    let c = to.create_user("Carl", None, 20).await.unwrap();
    let b = to.user_by_name("Boris").await.unwrap().unwrap();
    assert!(c.id > b.id, "{c:?} {b:?}");
}

#[tokio::test]
async fn sqlite_installation_copies_to_postgres_and_back() {
    let Some(pg) = scratch::postgres_url("copy_to_pg").await.unwrap() else {
        return;
    };
    let sqlite = scratch::sqlite_url("copy_from_sqlite");
    an_installation_copies_whole_and_a_second_copy_is_a_no_op(&sqlite, &pg).await;
    let Some(pg_source) = scratch::postgres_url("copy_from_pg").await.unwrap() else {
        return;
    };
    let back = scratch::sqlite_url("copy_to_sqlite");
    an_installation_copies_whole_and_a_second_copy_is_a_no_op(&pg_source, &back).await;
}

#[tokio::test]
async fn a_copy_into_another_installation_is_refused_by_the_check() {
    let first = scratch::sqlite_url("copy_first");
    let second = scratch::sqlite_url("copy_second");
    let from = Store::open(&first).await.unwrap();
    a_used_installation(&from).await;
    let to = Store::open(&second).await.unwrap();
    a_used_installation(&to).await;
    // Same keys, other rows: the second's token was made at another time.
    let a = to.user_by_name("Anna").await.unwrap().unwrap();
    to.create_session("s2", a.id, "x", 99).await.unwrap();
    let e = from.copy_to(&to, |_| {}).await.unwrap_err();
    assert!(
        matches!(
            &e,
            StoreError::Copy {
                table: "sessions",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("copy"), "{e}");
}
