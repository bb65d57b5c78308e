//! Round robin: the FIDE Berger tables (C.05 Annex 1) exactly as published, the
//! properties every table has, double round robins, and withdrawals (FIDE Tournament
//! Rules: fewer than half the games completed annuls, at least half forfeits the rest).

use caissa_tournament::round_robin::{
    self, berger_round, berger_table, schedule, WithdrawalAdjustment, WithdrawalRule, Withdrawn,
};
use caissa_tournament::{
    Board, Bye, Colour, Entry, GameResult, Pairing, PairingError, Player, PlayerId, Points,
    Tournament,
};
use std::collections::HashMap;

/// A round as the Handbook prints it: "1-4 2-3", White first.
fn parse_round(text: &str) -> Vec<Board> {
    text.split_whitespace()
        .map(|pair| {
            let (white, black) = pair.split_once('-').unwrap();
            Board {
                white: white.parse().unwrap(),
                black: black.parse().unwrap(),
            }
        })
        .collect()
}

fn assert_table(players: u32, published: &[&str]) {
    let table = berger_table(players);
    assert_eq!(
        table.len(),
        published.len(),
        "{players} players: number of rounds"
    );
    for (round, (pairing, text)) in table.iter().zip(published).enumerate() {
        assert_eq!(
            pairing.boards,
            parse_round(text),
            "{players} players, round {}",
            round + 1
        );
        assert_eq!(pairing.bye, None);
    }
}

const FOUR: [&str; 3] = ["1-4 2-3", "4-3 1-2", "2-4 3-1"];

const SIX: [&str; 5] = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
];

const EIGHT: [&str; 7] = [
    "1-8 2-7 3-6 4-5",
    "8-5 6-4 7-3 1-2",
    "2-8 3-1 4-7 5-6",
    "8-6 7-5 1-4 2-3",
    "3-8 4-2 5-1 6-7",
    "8-7 1-6 2-5 3-4",
    "4-8 5-3 6-2 7-1",
];

const TEN: [&str; 9] = [
    "1-10 2-9 3-8 4-7 5-6",
    "10-6 7-5 8-4 9-3 1-2",
    "2-10 3-1 4-9 5-8 6-7",
    "10-7 8-6 9-5 1-4 2-3",
    "3-10 4-2 5-1 6-9 7-8",
    "10-8 9-7 1-6 2-5 3-4",
    "4-10 5-3 6-2 7-1 8-9",
    "10-9 1-8 2-7 3-6 4-5",
    "5-10 6-4 7-3 8-2 9-1",
];

#[test]
fn c05_annex1_berger_table_for_3_or_4_players() {
    assert_table(4, &FOUR);
}

#[test]
fn c05_annex1_berger_table_for_5_or_6_players() {
    assert_table(6, &SIX);
}

#[test]
fn c05_annex1_berger_table_for_7_or_8_players() {
    assert_table(8, &EIGHT);
}

#[test]
fn c05_annex1_berger_table_for_9_or_10_players() {
    assert_table(10, &TEN);
}

#[test]
fn c05_annex1_with_an_odd_number_the_highest_number_counts_as_a_bye() {
    for (players, published) in [
        (3, &FOUR[..]),
        (5, &SIX[..]),
        (7, &EIGHT[..]),
        (9, &TEN[..]),
    ] {
        let dummy = players + 1;
        let table = berger_table(players);
        for (round, (pairing, text)) in table.iter().zip(published).enumerate() {
            let mut boards = parse_round(text);
            let at = boards
                .iter()
                .position(|b| b.white == dummy || b.black == dummy)
                .unwrap();
            let dummy_board = boards.remove(at);
            let bye = dummy_board.white + dummy_board.black - dummy;
            assert_eq!(
                pairing.boards,
                boards,
                "{players} players, round {}",
                round + 1
            );
            assert_eq!(
                pairing.bye,
                Some(bye),
                "{players} players, round {}",
                round + 1
            );
        }
    }
}

#[test]
fn a_berger_round_is_computed_on_its_own() {
    assert_eq!(
        berger_round(8, 2).unwrap().boards,
        parse_round("8-5 6-4 7-3 1-2")
    );
    assert_eq!(berger_round(8, 8), None);
    assert_eq!(berger_round(8, 0), None);
    assert_eq!(berger_round(1, 1), None);
    assert_eq!(berger_round(2, 1).unwrap().boards, parse_round("1-2"));
    assert!(berger_table(1).is_empty());
    // Twelve players: the circle rule still gives the published table's rounds.
    assert_eq!(
        berger_round(12, 2).unwrap().boards,
        parse_round("12-7 8-6 9-5 10-4 11-3 1-2")
    );
    assert_eq!(
        berger_round(12, 11).unwrap().boards,
        parse_round("6-12 7-5 8-4 9-3 10-2 11-1")
    );
}

/// Each player's colours game by game, byes skipped.
fn colour_sequences(rounds: &[Pairing], players: u32) -> HashMap<PlayerId, Vec<Colour>> {
    let mut sequences: HashMap<PlayerId, Vec<Colour>> =
        (1..=players).map(|p| (p, Vec::new())).collect();
    for pairing in rounds {
        for board in &pairing.boards {
            sequences.get_mut(&board.white).unwrap().push(Colour::White);
            sequences.get_mut(&board.black).unwrap().push(Colour::Black);
        }
    }
    sequences
}

fn longest_run(colours: &[Colour]) -> usize {
    let mut best = 0;
    let mut run = 0;
    for (i, colour) in colours.iter().enumerate() {
        run = if i > 0 && colours[i - 1] == *colour {
            run + 1
        } else {
            1
        };
        best = best.max(run);
    }
    best
}

fn whites(colours: &[Colour]) -> usize {
    colours.iter().filter(|&&c| c == Colour::White).count()
}

#[test]
fn c05_annex1_every_player_plays_once_a_round_and_meets_everyone_once() {
    for players in 3..=20u32 {
        let table = berger_table(players);
        assert_eq!(table.len() as u32, round_robin::rounds(players, false));
        let mut met: HashMap<(PlayerId, PlayerId), usize> = HashMap::new();
        for (round, pairing) in table.iter().enumerate() {
            let mut seen: Vec<PlayerId> = pairing
                .boards
                .iter()
                .flat_map(|b| [b.white, b.black])
                .collect();
            seen.extend(pairing.bye);
            seen.sort_unstable();
            assert_eq!(
                seen,
                (1..=players).collect::<Vec<_>>(),
                "{players} players, round {}",
                round + 1
            );
            assert_eq!(pairing.bye.is_some(), players % 2 == 1);
            for board in &pairing.boards {
                let key = (board.white.min(board.black), board.white.max(board.black));
                *met.entry(key).or_default() += 1;
            }
        }
        assert_eq!(
            met.len() as u32,
            players * (players - 1) / 2,
            "{players} players"
        );
        assert!(met.values().all(|&n| n == 1), "{players} players");
    }
}

#[test]
fn c05_annex1_with_an_odd_number_each_player_has_one_bye() {
    for players in (3..=19u32).step_by(2) {
        let mut byes: Vec<PlayerId> = berger_table(players).iter().filter_map(|p| p.bye).collect();
        byes.sort_unstable();
        assert_eq!(byes, (1..=players).collect::<Vec<_>>(), "{players} players");
    }
}

#[test]
fn berger_colours_even_number_one_colour_more_and_never_three_in_a_row() {
    for players in (4..=20u32).step_by(2) {
        let table = berger_table(players);
        for (player, colours) in colour_sequences(&table, players) {
            let white = whites(&colours) as i64;
            let black = colours.len() as i64 - white;
            assert_eq!(
                (white - black).abs(),
                1,
                "{players} players, player {player}"
            );
            assert!(
                longest_run(&colours) <= 2,
                "{players} players, player {player}"
            );
        }
        // The last player alternates, starting with Black.
        let last = &colour_sequences(&table, players)[&players];
        assert!(last.iter().enumerate().all(|(i, &c)| c
            == if i % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            }));
    }
}

#[test]
fn berger_colours_odd_number_balanced_and_alternating() {
    for players in (3..=19u32).step_by(2) {
        for (player, colours) in colour_sequences(&berger_table(players), players) {
            assert_eq!(
                2 * whites(&colours),
                colours.len(),
                "{players} players, player {player}"
            );
            assert_eq!(
                longest_run(&colours),
                1,
                "{players} players, player {player}"
            );
        }
    }
}

#[test]
fn c05_annex1_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle() {
    for players in 3..=20u32 {
        let table = berger_table(players);
        let double = schedule(players, true);
        let cycle = table.len();
        assert_eq!(double.len(), 2 * cycle);
        assert_eq!(double.len() as u32, round_robin::rounds(players, true));
        assert_eq!(double[..cycle - 2], table[..cycle - 2]);
        assert_eq!(double[cycle - 2], table[cycle - 1]);
        assert_eq!(double[cycle - 1], table[cycle - 2]);
        for (second, first) in double[cycle..].iter().zip(&table) {
            let reversed: Vec<Board> = first
                .boards
                .iter()
                .map(|b| Board {
                    white: b.black,
                    black: b.white,
                })
                .collect();
            assert_eq!(second.boards, reversed);
            assert_eq!(second.bye, first.bye);
        }
    }
}

#[test]
fn double_round_robin_meets_twice_once_with_each_colour_never_three_in_a_row() {
    for players in 2..=20u32 {
        let double = schedule(players, true);
        let mut games: HashMap<(PlayerId, PlayerId), usize> = HashMap::new();
        for board in double.iter().flat_map(|p| &p.boards) {
            *games.entry((board.white, board.black)).or_default() += 1;
        }
        assert_eq!(
            games.len() as u32,
            players * (players - 1),
            "{players} players"
        );
        assert!(games.values().all(|&n| n == 1), "{players} players");
        for (player, colours) in colour_sequences(&double, players) {
            assert_eq!(
                2 * whites(&colours),
                colours.len(),
                "{players} players, player {player}"
            );
            assert!(
                longest_run(&colours) <= 2,
                "{players} players, player {player}: {colours:?}"
            );
        }
    }
}

fn tournament(players: u32) -> Tournament {
    Tournament {
        players: (1..=players)
            .map(|id| Player {
                id,
                sex: String::new(),
                title: String::new(),
                name: format!("Player {id}"),
                rating: 2000,
                federation: String::new(),
                fide_id: None,
                birth: String::new(),
                points: Points::ZERO,
                rank: None,
                rounds: Vec::new(),
            })
            .collect(),
        ..Tournament::default()
    }
}

/// Records a round: `result(white, black)` from White's side; the bye as
/// pairing-allocated.
fn play(t: &mut Tournament, pairing: &Pairing, result: impl Fn(PlayerId, PlayerId) -> GameResult) {
    let round = t.rounds_played() + 1;
    let mut set = |id: PlayerId, entry: Entry| {
        let p = t.players.iter_mut().find(|p| p.id == id).unwrap();
        p.rounds.resize(round - 1, None);
        p.rounds.push(Some(entry));
    };
    for b in &pairing.boards {
        let r = result(b.white, b.black);
        set(
            b.white,
            Entry::Game {
                opponent: b.black,
                colour: Colour::White,
                result: r,
            },
        );
        set(
            b.black,
            Entry::Game {
                opponent: b.white,
                colour: Colour::Black,
                result: r.reversed(),
            },
        );
    }
    if let Some(bye) = pairing.bye {
        set(
            bye,
            Entry::Bye {
                bye: Bye::PairingAllocated,
            },
        );
    }
}

/// Plays `rounds` rounds with `pair`, White always winning.
fn played(players: u32, rounds: usize, double: bool) -> Tournament {
    let mut t = tournament(players);
    for _ in 0..rounds {
        let pairing = round_robin::pair(&t, double).unwrap();
        play(&mut t, &pairing, |_, _| GameResult::Win);
    }
    t
}

#[test]
fn pair_gives_the_next_round_of_the_table_then_tournament_over() {
    let mut t = tournament(5);
    for round in 1..=5 {
        let pairing = round_robin::pair(&t, false).unwrap();
        assert_eq!(pairing, berger_round(5, round).unwrap(), "round {round}");
        play(&mut t, &pairing, |_, _| GameResult::Draw);
    }
    assert_eq!(
        round_robin::pair(&t, false),
        Err(PairingError::TournamentOver(5))
    );
    // The same five rounds are the first half of a double round robin.
    let t = played(5, 10, true);
    assert_eq!(
        round_robin::pair(&t, true),
        Err(PairingError::TournamentOver(10))
    );
}

#[test]
fn pair_follows_the_double_schedule() {
    let mut t = tournament(4);
    t.total_rounds = Some(6);
    for (round, expected) in schedule(4, true).iter().enumerate() {
        let pairing = round_robin::pair(&t, true).unwrap();
        assert_eq!(&pairing, expected, "round {}", round + 1);
        play(&mut t, &pairing, |_, _| GameResult::Loss);
    }
}

#[test]
fn pair_with_black1_exchanges_every_colour() {
    let mut t = tournament(4);
    t.initial_colour = Some(Colour::Black);
    assert_eq!(
        round_robin::pair(&t, false).unwrap().boards,
        parse_round("4-1 3-2")
    );
    t.initial_colour = Some(Colour::White);
    assert_eq!(
        round_robin::pair(&t, false).unwrap().boards,
        parse_round("1-4 2-3")
    );
}

#[test]
fn pair_refuses_what_is_not_a_round_robin_of_players_1_to_n() {
    let mut t = tournament(4);
    t.players[2].id = 7;
    assert!(matches!(
        round_robin::pair(&t, false),
        Err(PairingError::Invalid(_))
    ));
    assert!(matches!(
        round_robin::pair(&tournament(1), false),
        Err(PairingError::Invalid(_))
    ));
    let mut t = tournament(6);
    t.total_rounds = Some(5);
    assert!(round_robin::pair(&t, false).is_ok());
    assert!(matches!(
        round_robin::pair(&t, true),
        Err(PairingError::Invalid(_))
    ));
}

/// One withdrawal.
fn withdraw(
    t: &Tournament,
    player: PlayerId,
    after_round: usize,
    double: bool,
) -> Result<WithdrawalAdjustment, PairingError> {
    round_robin::with_withdrawals(
        t,
        &[Withdrawn {
            player,
            after_round,
        }],
        double,
    )
}

fn points(t: &Tournament, id: PlayerId) -> Points {
    t.player(id).unwrap().points
}

#[test]
fn tournament_rules_withdrawal_before_half_annuls_the_players_results() {
    // Six players, five rounds each; player 1 plays rounds 1-2 and leaves.
    let t = played(6, 5, false);
    let adjusted = withdraw(&t, 1, 2, false).unwrap();
    let decision = adjusted.decisions[0];
    assert_eq!((decision.games_completed, decision.games_scheduled), (2, 5));
    assert_eq!(decision.rule, WithdrawalRule::ResultsAnnulled);

    // The crosstable keeps rounds 1-2 as played and marks rounds 3-5 "-" and "+".
    let one = adjusted.crosstable.player(1).unwrap();
    assert_eq!(one.rounds[..2], t.player(1).unwrap().rounds[..2]);
    for round in 3..=5 {
        let planned = berger_round(6, round as u32).unwrap();
        let board = planned
            .boards
            .iter()
            .find(|b| b.white == 1 || b.black == 1)
            .unwrap();
        let opponent = board.white + board.black - 1;
        assert!(
            matches!(one.entry(round), Some(Entry::Game { opponent: o, result: GameResult::ForfeitLoss, .. }) if *o == opponent)
        );
        let theirs = adjusted
            .crosstable
            .player(opponent)
            .unwrap()
            .entry(round)
            .unwrap();
        assert!(matches!(
            theirs,
            Entry::Game {
                opponent: 1,
                result: GameResult::ForfeitWin,
                ..
            }
        ));
    }

    // The standings have no player 1 and no game against player 1.
    let standings = &adjusted.standings;
    assert!(standings.player(1).is_none());
    assert_eq!(standings.players.len(), 5);
    for p in &standings.players {
        assert!(
            p.rounds.iter().flatten().all(|e| e.opponent() != Some(1)),
            "player {}",
            p.id
        );
        let games = p.rounds.iter().flatten().count();
        assert_eq!(games, 4, "player {}: four games left", p.id);
    }
    // Player 6 lost to player 1 in round 1 (1-6, White wins); that loss is gone, and
    // player 6's score is what they scored against the other four.
    let six = standings.player(6).unwrap();
    let expected: Points = six
        .rounds
        .iter()
        .flatten()
        .map(|e| e.points(&standings.point_system))
        .sum();
    assert_eq!(six.points, expected);
    assert!(six.entry(1).is_none());
}

#[test]
fn tournament_rules_withdrawal_after_half_forfeits_the_remaining_games() {
    let t = played(6, 5, false);
    let adjusted = withdraw(&t, 2, 3, false).unwrap();
    let decision = adjusted.decisions[0];
    assert_eq!((decision.games_completed, decision.games_scheduled), (3, 5));
    assert_eq!(decision.rule, WithdrawalRule::RemainingForfeited);
    assert_eq!(adjusted.standings, adjusted.crosstable);
    // Rounds 4 and 5: 6-5 1-4 2-3 and 3-6 4-2 5-1: player 2 met 3 and then 4.
    let two = adjusted.standings.player(2).unwrap();
    assert!(matches!(
        two.entry(4),
        Some(Entry::Game {
            opponent: 3,
            colour: Colour::White,
            result: GameResult::ForfeitLoss
        })
    ));
    assert!(matches!(
        two.entry(5),
        Some(Entry::Game {
            opponent: 4,
            colour: Colour::Black,
            result: GameResult::ForfeitLoss
        })
    ));
    let three = adjusted.standings.player(3).unwrap();
    assert!(matches!(
        three.entry(4),
        Some(Entry::Game {
            opponent: 2,
            colour: Colour::Black,
            result: GameResult::ForfeitWin
        })
    ));
    // Player 3 lost round 4 over the board as Black in the original; now wins by forfeit.
    assert_eq!(
        points(&adjusted.standings, 3),
        points(&t.truncated(5), 3) + Points::ONE
    );
    // The points column is recomputed: player 2 keeps rounds 1-3 only.
    assert_eq!(
        points(&adjusted.standings, 2),
        t.score_after(t.player(2).unwrap(), 3)
    );
}

#[test]
fn tournament_rules_exactly_half_the_games_is_at_least_50_percent() {
    // Five players: four games each; player 3 leaves after the round of their second game.
    let t = played(5, 5, false);
    let games_by = |round: usize| {
        (1..=round)
            .filter(|&r| {
                t.player(3)
                    .unwrap()
                    .entry(r)
                    .and_then(|e| e.played())
                    .is_some()
            })
            .count()
    };
    let after = (1..=5).find(|&r| games_by(r) == 2).unwrap();
    let adjusted = withdraw(&t, 3, after, false).unwrap();
    assert_eq!(adjusted.decisions[0].games_completed, 2);
    assert_eq!(adjusted.decisions[0].games_scheduled, 4);
    assert_eq!(
        adjusted.decisions[0].rule,
        WithdrawalRule::RemainingForfeited
    );
}

#[test]
fn tournament_rules_a_withdrawn_players_bye_becomes_an_absence() {
    // Five players: player 5 meets the dummy (has the bye) in round 4 (6-5 1-4 2-3).
    let t = played(5, 5, false);
    let bye_round = (1..=5)
        .find(|&r| berger_round(5, r).unwrap().bye == Some(5))
        .unwrap() as usize;
    let adjusted = withdraw(&t, 5, bye_round - 1, false).unwrap();
    assert_eq!(
        adjusted.crosstable.player(5).unwrap().entry(bye_round),
        Some(&Entry::Bye { bye: Bye::Absent })
    );
}

#[test]
fn tournament_rules_two_withdrawn_players_who_were_to_meet_are_both_marked_absent() {
    let t = played(6, 5, false);
    // Round 5: 3-6 4-2 5-1. Players 1 and 5 leave after round 3.
    let withdrawals = [
        Withdrawn {
            player: 1,
            after_round: 3,
        },
        Withdrawn {
            player: 5,
            after_round: 3,
        },
    ];
    let adjusted = round_robin::with_withdrawals(&t, &withdrawals, false).unwrap();
    let entry = |p: PlayerId| adjusted.crosstable.player(p).unwrap().entry(5).copied();
    assert!(matches!(
        entry(5),
        Some(Entry::Game {
            opponent: 1,
            result: GameResult::ForfeitLoss,
            ..
        })
    ));
    assert!(matches!(
        entry(1),
        Some(Entry::Game {
            opponent: 5,
            result: GameResult::ForfeitLoss,
            ..
        })
    ));
    // Applying the same withdrawals to the result changes nothing.
    let again = round_robin::with_withdrawals(&adjusted.crosstable, &withdrawals, false).unwrap();
    assert_eq!(again, adjusted);
}

#[test]
fn withdrawal_only_touches_rounds_in_the_file() {
    let t = played(6, 3, false);
    let adjusted = withdraw(&t, 4, 2, false).unwrap();
    assert_eq!(adjusted.crosstable.rounds_played(), 3);
    assert!(matches!(
        adjusted.crosstable.player(4).unwrap().entry(3),
        Some(Entry::Game {
            result: GameResult::ForfeitLoss,
            ..
        })
    ));
    // Decided at the withdrawal: two of five games completed, annulled.
    assert_eq!(adjusted.decisions[0].rule, WithdrawalRule::ResultsAnnulled);
    // The next round is still paired from the table, the withdrawn player included;
    // the organiser records that game as a forfeit.
    assert_eq!(
        round_robin::pair(&adjusted.crosstable, false).unwrap(),
        berger_round(6, 4).unwrap()
    );
}

#[test]
fn withdrawal_of_an_unknown_player_or_past_the_last_round_is_refused() {
    let t = played(4, 1, false);
    assert!(matches!(
        withdraw(&t, 9, 1, false),
        Err(PairingError::Invalid(_))
    ));
    assert!(matches!(
        withdraw(&t, 1, 4, false),
        Err(PairingError::Invalid(_))
    ));
    assert!(withdraw(&t, 1, 4, true).is_ok());
}

#[test]
fn double_round_robin_withdrawal_counts_both_cycles() {
    // Four players, six games each: three completed is half.
    let t = played(4, 6, true);
    let adjusted = withdraw(&t, 2, 3, true).unwrap();
    assert_eq!(adjusted.decisions[0].games_scheduled, 6);
    assert_eq!(
        adjusted.decisions[0].rule,
        WithdrawalRule::RemainingForfeited
    );
    let adjusted = withdraw(&t, 2, 2, true).unwrap();
    assert_eq!(adjusted.decisions[0].rule, WithdrawalRule::ResultsAnnulled);
    assert_eq!(adjusted.standings.players.len(), 3);
}
