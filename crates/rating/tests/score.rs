//! Game scores (Laws of Chess 10.1: a win 1, a draw ½, a loss 0).

use caissa_rating::{Outcome, Score};

const ALL: [Outcome; 7] = [
    Outcome::Win,
    Outcome::Draw,
    Outcome::Loss,
    Outcome::WinByForfeit,
    Outcome::LossByForfeit,
    Outcome::DoubleForfeit,
    Outcome::Void,
];

#[test]
fn score_win_one_draw_half_loss_zero() {
    assert_eq!(Outcome::Win.score(), Some(Score(2)));
    assert_eq!(Outcome::Draw.score(), Some(Score(1)));
    assert_eq!(Outcome::Loss.score(), Some(Score(0)));
    assert_eq!(Score(2).value(), 1.0);
    assert_eq!(Score(1).value(), 0.5);
    assert_eq!(Score(0).value(), 0.0);
}

#[test]
fn score_forfeits() {
    assert_eq!(Outcome::WinByForfeit.score(), Some(Score(2)));
    assert_eq!(Outcome::LossByForfeit.score(), Some(Score(0)));
    assert_eq!(Outcome::DoubleForfeit.score(), Some(Score(0)));
}

#[test]
fn score_void_is_not_scored() {
    assert_eq!(Outcome::Void.score(), None);
    assert_eq!(Outcome::Void.rating_score(), None);
}

#[test]
fn score_only_played_games_are_rated() {
    assert_eq!(Outcome::Win.rating_score(), Some(1.0));
    assert_eq!(Outcome::Draw.rating_score(), Some(0.5));
    assert_eq!(Outcome::Loss.rating_score(), Some(0.0));
    assert_eq!(Outcome::WinByForfeit.rating_score(), None);
    assert_eq!(Outcome::LossByForfeit.rating_score(), None);
    assert_eq!(Outcome::DoubleForfeit.rating_score(), None);
}

#[test]
fn score_rating_score_agrees_with_score_for_played_games() {
    for o in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
        assert_eq!(o.rating_score(), o.score().map(Score::value), "{o:?}");
    }
}

#[test]
fn score_opposite() {
    assert_eq!(Outcome::Win.opposite(), Outcome::Loss);
    assert_eq!(Outcome::Loss.opposite(), Outcome::Win);
    assert_eq!(Outcome::Draw.opposite(), Outcome::Draw);
    assert_eq!(Outcome::WinByForfeit.opposite(), Outcome::LossByForfeit);
    assert_eq!(Outcome::LossByForfeit.opposite(), Outcome::WinByForfeit);
    assert_eq!(Outcome::DoubleForfeit.opposite(), Outcome::DoubleForfeit);
    assert_eq!(Outcome::Void.opposite(), Outcome::Void);
    for o in ALL {
        assert_eq!(o.opposite().opposite(), o, "{o:?}");
    }
}

#[test]
fn score_both_sides_of_a_game_share_one_point() {
    for o in ALL {
        let total = o.score().zip(o.opposite().score()).map(|(a, b)| a + b);
        let expected = match o {
            Outcome::Void => None,
            Outcome::DoubleForfeit => Some(Score(0)),
            _ => Some(Score(2)),
        };
        assert_eq!(total, expected, "{o:?}");
    }
}

#[test]
fn score_display() {
    assert_eq!(Score(0).to_string(), "0");
    assert_eq!(Score(1).to_string(), "½");
    assert_eq!(Score(2).to_string(), "1");
    assert_eq!(Score(3).to_string(), "1½");
    assert_eq!(Score(4).to_string(), "2");
    assert_eq!(Score(5).to_string(), "2½");
    assert_eq!(Score(21).to_string(), "10½");
}

#[test]
fn score_sums_over_a_tournament() {
    let results = [
        Outcome::Win,
        Outcome::Draw,
        Outcome::Void,
        Outcome::Loss,
        Outcome::WinByForfeit,
        Outcome::Draw,
        Outcome::Draw,
    ];
    let total: Score = results.iter().filter_map(|o| o.score()).sum();
    assert_eq!(total, Score(7));
    assert_eq!(total.to_string(), "3½");
    assert_eq!(total.value(), 3.5);
    let empty: Score = [].into_iter().sum();
    assert_eq!(empty, Score(0));
    assert_eq!(Score::default(), Score(0));
}

#[test]
fn score_orders_by_points() {
    assert!(Score(1) < Score(2));
    assert!(Score(5) > Score(4));
    let mut scores = vec![Score(3), Score(0), Score(5), Score(1)];
    scores.sort();
    assert_eq!(scores, vec![Score(0), Score(1), Score(3), Score(5)]);
}
