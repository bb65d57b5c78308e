//! Arena: lichess's scoring (streaks, berserk, quick draws, draw streaks) and pairing
//! (neighbours in the ranking, no immediate rematch, colours by history).

use caissa_tournament::arena::{
    self, ArenaGame, ArenaResult, ArenaRules, ArenaSheet, ColourHistory, ScoreFlag, Waiting,
};
use caissa_tournament::{Board, Colour, PlayerId};
use std::collections::HashSet;

use ArenaResult::{Draw, Loss, Win};

fn game(result: ArenaResult, plies: u16) -> ArenaGame {
    ArenaGame {
        opponent: 2,
        opponent_rating: 1500,
        colour: Colour::White,
        result,
        plies,
        berserk: false,
    }
}

fn berserk(result: ArenaResult, plies: u16) -> ArenaGame {
    ArenaGame {
        berserk: true,
        ..game(result, plies)
    }
}

/// The points of each game, recorded in order on a fresh sheet.
fn points(rules: ArenaRules, games: &[ArenaGame]) -> Vec<u32> {
    let mut sheet = ArenaSheet::new(1, rules);
    let points: Vec<u32> = games.iter().map(|&g| sheet.record(g).points).collect();
    assert_eq!(sheet.score(), points.iter().sum::<u32>());
    points
}

fn lichess(games: &[ArenaGame]) -> Vec<u32> {
    points(ArenaRules::default(), games)
}

#[test]
fn scoring_win_two_draw_one_loss_nothing() {
    assert_eq!(
        lichess(&[
            game(Win, 40),
            game(Loss, 40),
            game(Draw, 40),
            game(Loss, 40)
        ]),
        [2, 0, 1, 0]
    );
}

#[test]
fn streak_after_two_wins_doubles_until_a_game_is_not_won() {
    let games = [
        game(Win, 40),
        game(Win, 40),
        game(Win, 40),
        game(Win, 40),
        game(Loss, 40),
        game(Win, 40),
        game(Win, 40),
        game(Win, 40),
    ];
    assert_eq!(lichess(&games), [2, 2, 4, 4, 0, 2, 2, 4]);
    let mut sheet = ArenaSheet::new(1, ArenaRules::default());
    assert!(!sheet.is_on_fire());
    sheet.record(game(Win, 40));
    assert!(!sheet.is_on_fire());
    sheet.record(game(Win, 40));
    assert!(sheet.is_on_fire());
    assert_eq!(sheet.record(game(Win, 40)).flag, ScoreFlag::Double);
    sheet.record(game(Loss, 40));
    assert!(!sheet.is_on_fire());
}

#[test]
fn streak_a_draw_on_fire_scores_double_and_ends_the_streak() {
    // Lichess's example: two wins then a draw is 2 + 2 + 2.
    assert_eq!(
        lichess(&[game(Win, 40), game(Win, 40), game(Draw, 40)]),
        [2, 2, 2]
    );
    assert_eq!(
        lichess(&[game(Win, 40), game(Win, 40), game(Draw, 40), game(Win, 40)]),
        [2, 2, 2, 2]
    );
}

#[test]
fn streaks_off_never_doubles() {
    let rules = ArenaRules {
        streaks: false,
        ..ArenaRules::default()
    };
    assert_eq!(
        points(
            rules,
            &[game(Win, 40), game(Win, 40), game(Win, 40), game(Draw, 40)]
        ),
        [2, 2, 2, 1]
    );
}

#[test]
fn berserk_bonus_only_for_a_win_of_at_least_14_plies() {
    assert_eq!(lichess(&[berserk(Win, 14)]), [3]);
    // Lichess counts its "7 moves" as 14 plies: a win on ply 13 earns no bonus.
    assert_eq!(lichess(&[berserk(Win, 13)]), [2]);
    assert_eq!(lichess(&[berserk(Draw, 40), berserk(Loss, 40)]), [1, 0]);
    let mut sheet = ArenaSheet::new(1, ArenaRules::default());
    let scored = sheet.record(berserk(Win, 30));
    assert!(scored.berserk_bonus);
    assert!(!sheet.record(berserk(Win, 10)).berserk_bonus);
    // On fire: 4 + 1, the bonus is not doubled.
    assert_eq!(sheet.record(berserk(Win, 30)).points, 5);
    assert_eq!(sheet.score(), 3 + 2 + 5);
}

#[test]
fn early_draw_scores_nothing_even_on_fire() {
    assert_eq!(lichess(&[game(Draw, 19)]), [0]);
    assert_eq!(lichess(&[game(Draw, 20)]), [1]);
    let mut sheet = ArenaSheet::new(1, ArenaRules::default());
    sheet.record(game(Win, 40));
    sheet.record(game(Win, 40));
    let quick = sheet.record(berserk(Draw, 8));
    assert_eq!((quick.points, quick.flag), (0, ScoreFlag::QuickDraw));
    // And it ends the streak.
    assert!(!sheet.is_on_fire());
    assert_eq!(sheet.record(game(Win, 40)).points, 2);
}

#[test]
fn draw_streak_a_short_draw_after_a_draw_without_a_win_scores_nothing() {
    assert_eq!(lichess(&[game(Draw, 40), game(Draw, 40)]), [1, 0]);
    // Losses do not break a draw streak, a win does.
    assert_eq!(
        lichess(&[
            game(Draw, 40),
            game(Loss, 40),
            game(Draw, 40),
            game(Win, 40),
            game(Draw, 40)
        ]),
        [1, 0, 0, 2, 1]
    );
    // A long draw (60 plies) still scores; a quick draw counts as a draw.
    assert_eq!(lichess(&[game(Draw, 40), game(Draw, 60)]), [1, 1]);
    assert_eq!(lichess(&[game(Draw, 10), game(Draw, 40)]), [0, 0]);
    let rules = ArenaRules {
        draw_streaks: false,
        ..ArenaRules::default()
    };
    assert_eq!(points(rules, &[game(Draw, 40), game(Draw, 40)]), [1, 1]);
}

#[test]
fn performance_is_the_mean_of_opponent_rating_plus_or_minus_500() {
    let mut sheet = ArenaSheet::new(1, ArenaRules::default());
    let against = |rating, result| ArenaGame {
        opponent_rating: rating,
        ..game(result, 40)
    };
    sheet.record(against(1600, Win));
    sheet.record(against(1400, Draw));
    assert_eq!(sheet.performance(), None);
    sheet.record(against(1500, Loss));
    assert_eq!(sheet.performance(), Some((2100 + 1400 + 1000) / 3));
}

#[test]
fn standings_rank_by_score_then_performance() {
    let mut a = ArenaSheet::new(1, ArenaRules::default());
    let mut b = ArenaSheet::new(2, ArenaRules::default());
    let mut c = ArenaSheet::new(3, ArenaRules::default());
    for _ in 0..3 {
        a.record(ArenaGame {
            opponent_rating: 1200,
            ..game(Draw, 80)
        });
        b.record(ArenaGame {
            opponent_rating: 1800,
            ..game(Draw, 80)
        });
    }
    c.record(game(Win, 40));
    let sheets = [a, b, c];
    let order: Vec<PlayerId> = arena::standings(&sheets)
        .iter()
        .map(|s| s.player())
        .collect();
    assert_eq!(order, [2, 1, 3]);
}

fn waiting(id: PlayerId, score: u32, rating: u16) -> Waiting {
    Waiting {
        id,
        score,
        rating,
        last_opponent: None,
        colours: ColourHistory::default(),
    }
}

fn pairs(boards: &[Board]) -> Vec<(PlayerId, PlayerId)> {
    boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect()
}

#[test]
fn pairing_pairs_neighbours_by_score_then_rating() {
    let players = [
        waiting(1, 0, 1500),
        waiting(2, 6, 1400),
        waiting(3, 6, 1900),
        waiting(4, 2, 2000),
        waiting(5, 9, 1000),
        waiting(6, 2, 1100),
    ];
    // Ranked: 5 (9), 3 (6, 1900), 2 (6, 1400), 4 (2, 2000), 6 (2, 1100), 1 (0).
    assert_eq!(pairs(&arena::pair(&players)), [(3, 5), (2, 4), (1, 6)]);
}

#[test]
fn pairing_avoids_the_last_opponent() {
    let mut players: Vec<Waiting> = (1..=6).map(|id| waiting(id, 100 - id, 1500)).collect();
    players[2].last_opponent = Some(4);
    players[3].last_opponent = Some(3);
    // 1-2, then 3 and 4 just met: 3-5, 4-6.
    assert_eq!(pairs(&arena::pair(&players)), [(1, 2), (3, 5), (4, 6)]);
    // The last two just met: they are swapped into the board above.
    let mut players: Vec<Waiting> = (1..=4).map(|id| waiting(id, 100 - id, 1500)).collect();
    players[2].last_opponent = Some(4);
    players[3].last_opponent = Some(3);
    let boards = pairs(&arena::pair(&players));
    assert_eq!(boards.len(), 2);
    assert!(!boards.contains(&(3, 4)), "{boards:?}");
}

#[test]
fn pairing_repairs_two_who_just_met_only_when_they_are_the_only_ones_waiting() {
    let mut two = vec![waiting(1, 0, 1500), waiting(2, 0, 1500)];
    two[0].last_opponent = Some(2);
    two[1].last_opponent = Some(1);
    assert_eq!(pairs(&arena::pair(&two)), [(1, 2)]);
    // With a third waiting, one of them waits instead.
    two.push(waiting(3, 0, 1400));
    let boards = pairs(&arena::pair(&two));
    assert_eq!(boards, [(1, 3)]);
}

#[test]
fn pairing_an_odd_number_leaves_one_waiting() {
    let players: Vec<Waiting> = (1..=7).map(|id| waiting(id, 0, 2000 - id as u16)).collect();
    let boards = arena::pair(&players);
    assert_eq!(pairs(&boards), [(1, 2), (3, 4), (5, 6)]);
    assert!(arena::pair(&players[..1]).is_empty());
    assert!(arena::pair(&[]).is_empty());
}

#[test]
fn colours_white_to_who_had_black_more_often_then_last_black() {
    let mut black_more = ColourHistory::default();
    black_more.record(Colour::Black);
    black_more.record(Colour::Black);
    black_more.record(Colour::White);
    let mut white_last = ColourHistory::default();
    white_last.record(Colour::Black);
    white_last.record(Colour::White);
    let mut black_last = ColourHistory::default();
    black_last.record(Colour::White);
    black_last.record(Colour::Black);
    assert_eq!(black_last.last(), Some(Colour::Black));
    assert_eq!((black_more.balance, black_more.run), (-1, 1));

    let with = |id, colours| Waiting {
        colours,
        ..waiting(id, 10 - id, 1500)
    };
    let boards = arena::pair(&[with(1, white_last), with(2, black_more)]);
    assert_eq!(boards, [Board { white: 2, black: 1 }]);
    let boards = arena::pair(&[with(1, white_last), with(2, black_last)]);
    assert_eq!(boards, [Board { white: 2, black: 1 }]);
    // Even histories: the better-ranked player has White.
    let boards = arena::pair(&[
        with(2, ColourHistory::default()),
        with(1, ColourHistory::default()),
    ]);
    assert_eq!(boards, [Board { white: 1, black: 2 }]);
}

/// Pairs the sheets' players (all rated 1500), records each board with
/// `result(white, black)` from White's side, and returns the boards.
fn play_round(
    sheets: &mut [ArenaSheet],
    result: impl Fn(PlayerId, PlayerId) -> ArenaResult,
) -> Vec<Board> {
    let waiting: Vec<Waiting> = sheets.iter().map(|s| s.waiting(1500)).collect();
    let boards = arena::pair(&waiting);
    for board in &boards {
        let white_result = result(board.white, board.black);
        let black_result = match white_result {
            Win => Loss,
            Draw => Draw,
            Loss => Win,
        };
        for (player, opponent, colour, result) in [
            (board.white, board.black, Colour::White, white_result),
            (board.black, board.white, Colour::Black, black_result),
        ] {
            let sheet = sheets.iter_mut().find(|s| s.player() == player).unwrap();
            sheet.record(ArenaGame {
                opponent,
                colour,
                ..game(result, 80)
            });
        }
    }
    boards
}

fn colours_of(sheet: &ArenaSheet) -> Vec<Colour> {
    sheet.games().iter().map(|g| g.game.colour).collect()
}

#[test]
fn colours_alternate_game_after_game() {
    // Two players who keep meeting (they are the only ones waiting).
    let mut sheets: Vec<ArenaSheet> = (1..=2)
        .map(|id| ArenaSheet::new(id, ArenaRules::default()))
        .collect();
    for _ in 0..6 {
        play_round(&mut sheets, |_, _| Draw);
    }
    use Colour::{Black, White};
    assert_eq!(
        colours_of(&sheets[0]),
        [White, Black, White, Black, White, Black]
    );
    assert_eq!(
        colours_of(&sheets[1]),
        [Black, White, Black, White, Black, White]
    );

    // Four players: 1 beats 2 with White, 4 beats 3 with Black. Then 1 and 4 lead and
    // meet, 2 and 3 follow: each player gets the other colour.
    let mut sheets: Vec<ArenaSheet> = (1..=4)
        .map(|id| ArenaSheet::new(id, ArenaRules::default()))
        .collect();
    let first = play_round(&mut sheets, |white, _| if white == 1 { Win } else { Loss });
    assert_eq!(
        first,
        [Board { white: 1, black: 2 }, Board { white: 3, black: 4 }]
    );
    let second = play_round(&mut sheets, |_, _| Draw);
    assert_eq!(
        second,
        [Board { white: 4, black: 1 }, Board { white: 2, black: 3 }]
    );
    for sheet in &sheets {
        let colours = colours_of(sheet);
        assert_ne!(colours[0], colours[1], "player {}", sheet.player());
    }
}

#[test]
fn pairing_two_thousand_waiting_is_fast_and_sound() {
    let players: Vec<Waiting> = (1..=2001u32)
        .map(|id| {
            let mut w = waiting(id, id * 7 % 40, 1000 + (id * 37 % 1500) as u16);
            // Pairs (1, 2), (3, 4) ... just met.
            w.last_opponent = Some(if id % 2 == 1 { id + 1 } else { id - 1 });
            for _ in 0..id % 3 {
                w.colours.record(if id % 2 == 0 {
                    Colour::White
                } else {
                    Colour::Black
                });
            }
            w
        })
        .collect();
    let boards = arena::pair(&players);
    assert_eq!(boards.len(), 1000);
    let mut seen = HashSet::new();
    for board in &boards {
        assert!(seen.insert(board.white) && seen.insert(board.black));
        let white = &players[board.white as usize - 1];
        assert_ne!(white.last_opponent, Some(board.black));
    }
}
