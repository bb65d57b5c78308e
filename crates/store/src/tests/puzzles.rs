//! Puzzles, picking them for a player, rounds and ratings, on both backends.

use super::*;

on_both_backends!(
    puzzles_are_added_once_and_listed_by_id,
    a_pick_keeps_to_the_rating_window_the_theme_the_colour_and_what_is_unseen,
    a_round_moves_both_ratings_and_is_listed_newest_first,
);

fn puzzle(id: &str, rating: f64, fen: &str, themes: &str) -> StoredPuzzle {
    StoredPuzzle {
        id: id.into(),
        fen: fen.into(),
        moves: "g8f6 h5f7".into(),
        rating,
        deviation: 80.0,
        volatility: 0.09,
        popularity: 90,
        plays: 0,
        themes: themes.into(),
        game_url: String::new(),
        opening_tags: "Italian_Game".into(),
    }
}

const BLACK_MOVES: &str = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";
const WHITE_MOVES: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";

async fn puzzles_are_added_once_and_listed_by_id(url: String) {
    let store = Store::open(&url).await.unwrap();
    let added = store
        .add_puzzles(&[
            puzzle("b2", 1500.0, BLACK_MOVES, "mate mateIn1"),
            puzzle("a1", 1200.0, BLACK_MOVES, "fork"),
        ])
        .await
        .unwrap();
    assert_eq!(added, 2);
    let again = store
        .add_puzzles(&[puzzle("a1", 900.0, BLACK_MOVES, "pin")])
        .await
        .unwrap();
    assert_eq!(again, 0, "an id already there is skipped");
    assert_eq!(store.puzzle_count().await.unwrap(), 2);
    let a1 = store.puzzle("a1").await.unwrap().unwrap();
    assert_eq!((a1.rating, a1.themes.as_str()), (1200.0, "fork"));
    assert_eq!(store.puzzle_by_rank(1).await.unwrap().unwrap().id, "b2");
    let ids: Vec<_> = store
        .puzzles_after("", 10)
        .await
        .unwrap()
        .into_iter()
        .map(|p| p.id)
        .collect();
    assert_eq!(ids, ["a1", "b2"]);
    assert!(store.puzzles_after("b2", 10).await.unwrap().is_empty());
    assert!(store.puzzle("zz").await.unwrap().is_none());
}

async fn a_pick_keeps_to_the_rating_window_the_theme_the_colour_and_what_is_unseen(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", None, 1).await.unwrap();
    store
        .add_puzzles(&[
            puzzle("low", 800.0, BLACK_MOVES, "mate mateIn1"),
            puzzle("mid", 1500.0, BLACK_MOVES, "fork short"),
            puzzle("mid2", 1550.0, WHITE_MOVES, "forkish"),
            puzzle("high", 2400.0, BLACK_MOVES, "fork"),
        ])
        .await
        .unwrap();
    let pick = |theme: Option<&str>, solver_white, unseen_by| PuzzlePick {
        rating: 1500.0,
        window: 200.0,
        theme: theme.map(String::from),
        unseen_by,
        solver_white,
        limit: 10,
    };
    let ids = |v: Vec<StoredPuzzle>| {
        let mut ids: Vec<String> = v.into_iter().map(|p| p.id).collect();
        ids.sort();
        ids
    };
    assert_eq!(
        ids(store.pick_puzzles(&pick(None, None, None)).await.unwrap()),
        ["mid", "mid2"]
    );
    assert_eq!(
        ids(store
            .pick_puzzles(&pick(Some("fork"), None, None))
            .await
            .unwrap()),
        ["mid"],
        "a theme is a whole word"
    );
    assert_eq!(
        ids(store
            .pick_puzzles(&pick(Some("Italian_Game"), None, None))
            .await
            .unwrap()),
        ["mid", "mid2"],
        "an opening tag picks too"
    );
    assert_eq!(
        ids(store
            .pick_puzzles(&pick(None, Some(true), None))
            .await
            .unwrap()),
        ["mid"],
        "Black moves first, so White solves"
    );
    assert_eq!(
        ids(store
            .pick_puzzles(&pick(None, Some(false), None))
            .await
            .unwrap()),
        ["mid2"]
    );
    store
        .finish_round(
            &PuzzleRound {
                user_id: anna.id,
                puzzle_id: "mid".into(),
                played_at: 5,
                win: true,
                rated: false,
                puzzle_rating: 1500.0,
                rating_after: 1500.0,
            },
            None,
            None,
        )
        .await
        .unwrap();
    assert_eq!(
        ids(store
            .pick_puzzles(&pick(None, None, Some(anna.id)))
            .await
            .unwrap()),
        ["mid2"],
        "a puzzle played is not picked again for that player"
    );
}

async fn a_round_moves_both_ratings_and_is_listed_newest_first(url: String) {
    let store = Store::open(&url).await.unwrap();
    let anna = store.create_user("Anna", None, 1).await.unwrap();
    store
        .add_puzzles(&[
            puzzle("p1", 1500.0, BLACK_MOVES, "mate"),
            puzzle("p2", 1600.0, BLACK_MOVES, "fork"),
        ])
        .await
        .unwrap();
    for (at, id, win, after) in [(10, "p1", true, 1650.0), (20, "p2", false, 1600.0)] {
        let rating = StoredRating {
            rating: after,
            deviation: 300.0,
            volatility: 0.09,
            games: at / 10,
            last_played: at,
        };
        store
            .finish_round(
                &PuzzleRound {
                    user_id: anna.id,
                    puzzle_id: id.into(),
                    played_at: at,
                    win,
                    rated: true,
                    puzzle_rating: 1500.0,
                    rating_after: after,
                },
                Some((1480.0, 250.0, 0.09)),
                Some(&rating),
            )
            .await
            .unwrap();
    }
    let p1 = store.puzzle("p1").await.unwrap().unwrap();
    assert_eq!((p1.plays, p1.rating, p1.deviation), (1, 1480.0, 250.0));
    let mine = store.rating(anna.id, "puzzle").await.unwrap().unwrap();
    assert_eq!((mine.rating, mine.games), (1600.0, 2));
    let rounds = store.puzzle_rounds(anna.id, 0, i64::MAX, 10).await.unwrap();
    let seen: Vec<_> = rounds
        .iter()
        .map(|(r, p)| (r.puzzle_id.as_str(), r.win, p.id.as_str()))
        .collect();
    assert_eq!(seen, [("p2", false, "p2"), ("p1", true, "p1")]);
    assert_eq!(
        store
            .puzzle_rounds(anna.id, 15, i64::MAX, 10)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        store.puzzle_rounds(anna.id, 0, 20, 10).await.unwrap().len(),
        1
    );
}
