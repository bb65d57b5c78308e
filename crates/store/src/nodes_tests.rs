//! Several nodes on one database: leases, taking games over, fencing, and
//! messages between nodes (PostgreSQL); one node owning everything (SQLite).

use std::time::Duration;

use super::*;

fn game(id: &str, white: i64, black: i64) -> StoredGame {
    StoredGame {
        id: id.into(),
        white_id: white,
        black_id: black,
        setup: "{}".into(),
        created_at: 1,
        finished: false,
        result: None,
        rated: false,
        source: "friend".into(),
        events: vec!["start".into()],
    }
}

#[tokio::test]
async fn a_node_whose_lease_lapses_loses_its_games_and_its_late_writes_are_refused() {
    let Some(url) = scratch::postgres_url("lease_lapses").await.unwrap() else {
        return;
    };
    let (a, b) = (
        Store::open(&url).await.unwrap(),
        Store::open(&url).await.unwrap(),
    );
    // A long lease first, so that a slow machine cannot let it lapse before the
    // checks that need it running; the renewal below shortens it.
    let lease_a = a
        .join("a:1", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    let lease_b = b
        .join("b:1", Duration::from_secs(30))
        .await
        .unwrap()
        .unwrap();
    assert_ne!(lease_a.generation, lease_b.generation);
    assert_eq!(
        b.running_nodes()
            .await
            .unwrap()
            .iter()
            .map(|l| l.generation)
            .collect::<Vec<_>>(),
        [lease_a.generation, lease_b.generation]
    );
    let anna = a.create_user("Anna", None, 1).await.unwrap();
    let boris = a.create_user("Boris", None, 1).await.unwrap();
    a.create_game(&game("g1", anna.id, boris.id)).await.unwrap();
    let owner = b.owner_of("g1").await.unwrap().unwrap();
    assert_eq!(
        (owner.generation, owner.address.as_str(), owner.alive),
        (lease_a.generation, "a:1", true)
    );
    // While A's lease runs, nobody takes its game, and B may not write it.
    assert!(b.take_over(100).await.unwrap().is_empty());
    assert!(matches!(
        b.append_events("g1", 1, &["b".into()], None).await,
        Err(StoreError::Fenced { .. })
    ));
    a.append_events("g1", 1, &["e4".into()], None)
        .await
        .unwrap();
    assert!(a.renew(Duration::from_millis(300)).await.unwrap());
    // A stops renewing (a partition, a pause): its lease runs out.
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert!(!a.renew(Duration::from_millis(300)).await.unwrap());
    assert_eq!(
        b.running_nodes().await.unwrap(),
        std::slice::from_ref(&lease_b)
    );
    let taken = b.take_over(100).await.unwrap();
    assert_eq!(taken.len(), 1);
    assert_eq!(taken[0].game.events, ["start", "e4"]);
    assert!(taken[0].last_seen.is_some());
    assert!(b.take_over(100).await.unwrap().is_empty(), "taken once");
    // A's late write is refused; B's goes on from where the log is.
    let late = a.append_events("g1", 2, &["late".into()], None).await;
    assert!(
        matches!(&late, Err(StoreError::Fenced { game }) if game == "g1"),
        "{late:?}"
    );
    b.append_events("g1", 2, &["e5".into()], Some("1-0"))
        .await
        .unwrap();
    let stored = b.game("g1").await.unwrap().unwrap();
    assert_eq!(stored.events, ["start", "e4", "e5"]);
    assert_eq!(
        b.owner_of("g1").await.unwrap().unwrap().generation,
        lease_b.generation
    );
    // A node that left is taken over at once, without waiting for its lease.
    let c = Store::open(&url).await.unwrap();
    c.join("c:1", Duration::from_secs(30)).await.unwrap();
    c.create_game(&game("g2", anna.id, boris.id)).await.unwrap();
    c.leave().await.unwrap();
    let taken = b.take_over(100).await.unwrap();
    assert_eq!(
        taken.iter().map(|t| t.game.id.as_str()).collect::<Vec<_>>(),
        ["g2"]
    );
    // And a running server's installation is not taken for a copy.
    assert!(!b.claim_exclusive().await.unwrap());
}

#[tokio::test]
async fn nodes_hear_what_any_node_publishes_and_share_one_secret() {
    let Some(url) = scratch::postgres_url("publish").await.unwrap() else {
        return;
    };
    let (a, b) = (
        Store::open(&url).await.unwrap(),
        Store::open(&url).await.unwrap(),
    );
    let mut hears = b.listen().await.unwrap().unwrap();
    a.publish("{\"game\":\"g1\"}").await.unwrap();
    a.publish("second").await.unwrap();
    let next = tokio::time::timeout(Duration::from_secs(5), hears.next());
    assert_eq!(
        next.await.unwrap().unwrap(),
        Heard::Message("{\"game\":\"g1\"}".into())
    );
    assert_eq!(hears.next().await.unwrap(), Heard::Message("second".into()));
    assert_eq!(a.cluster_secret("first").await.unwrap(), "first");
    assert_eq!(b.cluster_secret("second").await.unwrap(), "first");
}

#[tokio::test]
async fn one_sqlite_node_takes_over_what_its_last_run_left_once() {
    let url = scratch::sqlite_url("sqlite_take_over");
    let store = Store::open(&url).await.unwrap();
    assert_eq!(
        store.join("x:1", Duration::from_secs(5)).await.unwrap(),
        None
    );
    let anna = store.create_user("Anna", None, 1).await.unwrap();
    let boris = store.create_user("Boris", None, 1).await.unwrap();
    store
        .create_game(&game("g1", anna.id, boris.id))
        .await
        .unwrap();
    store
        .create_game(&game("g2", anna.id, boris.id))
        .await
        .unwrap();
    store
        .append_events("g2", 1, &[], Some("0-1"))
        .await
        .unwrap();
    store.beat(777).await.unwrap();
    drop(store);
    let store = Store::open(&url).await.unwrap();
    let taken = store.take_over(100).await.unwrap();
    assert_eq!(taken.len(), 1);
    assert_eq!(
        (taken[0].game.id.as_str(), taken[0].last_seen),
        ("g1", Some(777))
    );
    assert!(store.take_over(100).await.unwrap().is_empty());
    assert_eq!(store.owner_of("g1").await.unwrap(), None);
    assert!(store.listen().await.unwrap().is_none());
}
