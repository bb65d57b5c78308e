//! Round robin by the FIDE Berger tables (Handbook C.05, Annex 1), double round robin,
//! and what a withdrawal does to the standings (FIDE Tournament Rules).
//!
//! # The tables
//!
//! For `n` players let `N` be `n` rounded up to even; with `n` odd, player `N` is a
//! dummy and whoever the table pairs with it has the bye. There are `N - 1` rounds of
//! `N / 2` boards. The published tables follow one rule, which [`berger_round`]
//! computes directly, so any round of any size costs `O(N)`:
//!
//! * the players other than `N` are numbered around a circle `1 ..= N - 1`;
//! * in round `r` the player who meets `N` is `p = (r - 1) · N/2 mod (N - 1) + 1`
//!   (1, N/2 + 1, 2, N/2 + 2, ...). On board 1, `p` has White in odd rounds and `N`
//!   has White in even rounds, so `N` alternates colours;
//! * board `k + 1` (for `k = 1 .. N/2 - 1`) is `p + k` with White against `p - k`,
//!   both counted around the circle.
//!
//! Round 1 of eight players is therefore `1-8 2-7 3-6 4-5` and round 2 is
//! `8-5 6-4 7-3 1-2`, as published. Boards come out in table order (the board with `N`
//! first); with `n` odd that board is the bye and the others move up.
//!
//! # Double round robin
//!
//! The second cycle is the table again, in its published order, with colours reversed.
//! In the first cycle the last two rounds are played in swapped order, as C.05 Annex 1
//! recommends: in the plain table most players' colour in round 1 is the opposite of
//! their colour in round `N - 1`, so reversing round 1 at the start of the second cycle
//! gives them the same colour twice, and players 1 and `N/2 + 1`, who already have the
//! same colour in rounds `N - 2` and `N - 1`, would get it three times running. With
//! the swap nobody has the same colour three games in a row (the tests check every size
//! from 3 to 20). With `n = 2` a cycle is one round and there is nothing to swap.
//!
//! # Withdrawals
//!
//! FIDE Tournament Rules (the conduct of the players, on round robins): a player who
//! leaves having completed fewer than half of their games keeps their games in the
//! crosstable, for rating and history, but the points scored by them or against them
//! are not counted in the standings; a player who completed at least half keeps
//! everything in the standings. Either way their unplayed games are marked `-` for them
//! and `+` for the opponent (`-` for both where the opponent did not come either).
//! [`with_withdrawals`] produces both tournaments: the crosstable as the rules show
//! it, and the tournament the standings module should rank.

use crate::model::{Bye, Colour, Entry, GameResult, PlayerId, Tournament};
use crate::pairing::{Board, Pairing, PairingError};

/// One round of the Berger table for `players` players (round from 1), boards in table
/// order; `None` if there is no such round (fewer than two players or `round` past the
/// last). With an odd number the player drawn against the dummy has the bye.
///
/// ```
/// use caissa_tournament::round_robin;
///
/// let round = round_robin::berger_round(8, 2).unwrap();
/// let boards: Vec<(u32, u32)> = round.boards.iter().map(|b| (b.white, b.black)).collect();
/// assert_eq!(boards, [(8, 5), (6, 4), (7, 3), (1, 2)]);
/// assert_eq!(round_robin::berger_round(7, 2).unwrap().bye, Some(5));
/// ```
pub fn berger_round(players: u32, round: u32) -> Option<Pairing> {
    if players < 2 || round == 0 {
        return None;
    }
    let even = u64::from(players) + u64::from(players % 2);
    let circle = even - 1;
    let round = u64::from(round);
    if round > circle {
        return None;
    }
    // `x` is any integer offset from player 1 (negative allowed); the circle wraps it.
    let around = |x: i64| (x.rem_euclid(circle as i64) + 1) as PlayerId;
    let first = ((round - 1) * (even / 2) % circle) as i64;
    let last = even as PlayerId;
    let mut pairing = Pairing::default();
    let p = around(first);
    if last > players {
        pairing.bye = Some(p);
    } else if round % 2 == 1 {
        pairing.boards.push(Board {
            white: p,
            black: last,
        });
    } else {
        pairing.boards.push(Board {
            white: last,
            black: p,
        });
    }
    for k in 1..(even / 2) as i64 {
        pairing.boards.push(Board {
            white: around(first + k),
            black: around(first - k),
        });
    }
    Some(pairing)
}

/// The whole Berger table for `players` players: `N - 1` rounds (`N` = `players`
/// rounded up to even), each with its boards in table order and, for an odd number,
/// its bye. Empty for fewer than two players.
pub fn berger_table(players: u32) -> Vec<Pairing> {
    (1..)
        .map_while(|round| berger_round(players, round))
        .collect()
}

/// The number of rounds of a round robin of `players` players, single or double.
pub fn rounds(players: u32, double: bool) -> u32 {
    if players < 2 {
        return 0;
    }
    let cycle = players + players % 2 - 1;
    if double {
        2 * cycle
    } else {
        cycle
    }
}

/// Every round in playing order. Single: the Berger table. Double: the first cycle
/// with its last two rounds swapped, then the table in published order with colours
/// reversed (see the module documentation for why).
pub fn schedule(players: u32, double: bool) -> Vec<Pairing> {
    (1..)
        .map_while(|round| scheduled_round(players, double, round))
        .collect()
}

/// Round `round` (from 1) of [`schedule`], computed on its own; `None` past the last.
pub fn scheduled_round(players: u32, double: bool, round: u32) -> Option<Pairing> {
    let cycle = rounds(players, false);
    if round == 0 || round > rounds(players, double) {
        return None;
    }
    let (in_cycle, second) = if round > cycle {
        (round - cycle, true)
    } else {
        (round, false)
    };
    let swap = double && !second && cycle >= 2;
    let table_round = match in_cycle {
        r if swap && r == cycle - 1 => cycle,
        r if swap && r == cycle => cycle - 1,
        r => r,
    };
    let pairing = berger_round(players, table_round)?;
    Some(if second { reversed(&pairing) } else { pairing })
}

/// The pairing with every board's colours exchanged.
fn reversed(pairing: &Pairing) -> Pairing {
    Pairing {
        boards: pairing
            .boards
            .iter()
            .map(|b| Board {
                white: b.black,
                black: b.white,
            })
            .collect(),
        bye: pairing.bye,
    }
}

/// Pairs the next round of `tournament` (round `rounds_played() + 1`) from the Berger
/// table, players by starting rank `1 ..= n`, boards in table order.
///
/// With `XXC black1` every colour of the table is exchanged, so player 1 has Black in
/// round 1. Errors: the players are not numbered `1 ..= n` or are fewer than two, `XXR`
/// disagrees with the number of rounds the table has ([`PairingError::Invalid`]), or
/// every round was paired ([`PairingError::TournamentOver`]).
pub fn pair(tournament: &Tournament, double: bool) -> Result<Pairing, PairingError> {
    let players = check(tournament, double)?;
    let total = rounds(players, double);
    let round = tournament.rounds_played() + 1;
    if round > total as usize {
        return Err(PairingError::TournamentOver(total));
    }
    Ok(planned_round(tournament, players, double, round))
}

/// The number of players, after checking that `tournament` can be a round robin.
fn check(tournament: &Tournament, double: bool) -> Result<u32, PairingError> {
    let count = tournament.players.len();
    let players = u32::try_from(count)
        .map_err(|_| PairingError::Invalid(format!("{count} players are too many")))?;
    if players < 2 {
        return Err(PairingError::Invalid(format!(
            "a round robin needs at least two players, not {players}"
        )));
    }
    let mut ids: Vec<PlayerId> = tournament.players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    if let Some((index, &id)) = ids
        .iter()
        .enumerate()
        .find(|&(index, &id)| id as usize != index + 1)
    {
        return Err(PairingError::Invalid(format!(
            "the {players} players must have starting ranks 1 to {players}; \
             {id} is where {} should be",
            index + 1
        )));
    }
    let total = rounds(players, double);
    match tournament.total_rounds {
        Some(declared) if declared != total => Err(PairingError::Invalid(format!(
            "XXR says {declared} rounds but a {} round robin of {players} players has {total}",
            if double { "double" } else { "single" },
        ))),
        _ => Ok(players),
    }
}

/// Round `round` (1-based, within the schedule) as this tournament plays it: the
/// schedule, colours exchanged for `XXC black1`.
fn planned_round(tournament: &Tournament, players: u32, double: bool, round: usize) -> Pairing {
    let pairing = u32::try_from(round)
        .ok()
        .and_then(|round| scheduled_round(players, double, round))
        .unwrap_or_default();
    if tournament.initial_colour == Some(Colour::Black) {
        reversed(&pairing)
    } else {
        pairing
    }
}

/// A player who left the tournament.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Withdrawn {
    /// The player's starting rank.
    pub player: PlayerId,
    /// The last round they took part in (0: they left before round 1).
    pub after_round: usize,
}

/// Which rule a withdrawal fell under.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WithdrawalRule {
    /// Fewer than half of the games completed: nothing the player scored, and nothing
    /// scored against them, counts in the standings.
    ResultsAnnulled,
    /// At least half completed: the results stand, the remaining games are forfeited.
    RemainingForfeited,
}

/// How one withdrawal was decided.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WithdrawalDecision {
    /// The withdrawal.
    pub withdrawn: Withdrawn,
    /// Games the player completed over the board (forfeits, byes and pending games
    /// are not completed games).
    pub games_completed: usize,
    /// Games the schedule gives the player: `n - 1` per cycle.
    pub games_scheduled: usize,
    /// The rule that applies.
    pub rule: WithdrawalRule,
}

/// A tournament with its withdrawals applied.
#[derive(Clone, Debug, PartialEq)]
pub struct WithdrawalAdjustment {
    /// The crosstable as the rules show it: every withdrawn player's games from their
    /// `after_round + 1` on are forfeits (`-` for them, `+` for the opponent, `-` for
    /// both where the opponent was absent too), a bye they would have had is an
    /// absence; games played stay as played.
    pub crosstable: Tournament,
    /// What the standings rank: the crosstable, less each player whose results are
    /// annulled. Such a player is removed from `players`, and every entry against them
    /// becomes `None` (an empty round: no points, no game, no opponent for tiebreaks),
    /// so the standings are those of the tournament without them.
    pub standings: Tournament,
    /// One decision per withdrawal, in the order given.
    pub decisions: Vec<WithdrawalDecision>,
}

/// Applies withdrawals to a round robin (single or `double`), for the rounds the file
/// holds: rounds not paired yet are left alone, so call it again as the tournament
/// goes on (it gives the same result on its own output). Whether fewer than half of
/// the games were completed is decided at the withdrawal (`after_round`). The points
/// column of both tournaments is recomputed from the entries.
///
/// Errors as [`pair`], and [`PairingError::Invalid`] for a player who is not in the
/// tournament or an `after_round` past the last round.
pub fn with_withdrawals(
    tournament: &Tournament,
    withdrawals: &[Withdrawn],
    double: bool,
) -> Result<WithdrawalAdjustment, PairingError> {
    let players = check(tournament, double)?;
    let total = rounds(players, double) as usize;
    let in_file = tournament.rounds_played().min(total);
    let mut crosstable = tournament.clone();
    let mut decisions = Vec::with_capacity(withdrawals.len());
    for &withdrawn in withdrawals {
        let Withdrawn {
            player,
            after_round,
        } = withdrawn;
        if player == 0 || player > players {
            return Err(PairingError::Invalid(format!(
                "no player has starting rank {player}"
            )));
        }
        if after_round > total {
            return Err(PairingError::Invalid(format!(
                "player {player} cannot leave after round {after_round}: there are {total}"
            )));
        }
        let games_completed = (1..=after_round)
            .filter_map(|round| entry(&crosstable, player, round))
            .filter(|e| matches!(e.played(), Some((_, _, result)) if result != GameResult::Pending))
            .count();
        let games_scheduled = (players - 1) as usize * if double { 2 } else { 1 };
        let rule = if 2 * games_completed < games_scheduled {
            WithdrawalRule::ResultsAnnulled
        } else {
            WithdrawalRule::RemainingForfeited
        };
        for round in after_round + 1..=in_file {
            let planned = planned_round(tournament, players, double, round);
            forfeit(&mut crosstable, &planned, player, round);
        }
        decisions.push(WithdrawalDecision {
            withdrawn,
            games_completed,
            games_scheduled,
            rule,
        });
    }
    let mut standings = crosstable.clone();
    let annulled: Vec<PlayerId> = decisions
        .iter()
        .filter(|d| d.rule == WithdrawalRule::ResultsAnnulled)
        .map(|d| d.withdrawn.player)
        .collect();
    standings.players.retain(|p| !annulled.contains(&p.id));
    for other in &mut standings.players {
        for slot in &mut other.rounds {
            if slot
                .and_then(|e| e.opponent())
                .is_some_and(|o| annulled.contains(&o))
            {
                *slot = None;
            }
        }
    }
    recompute_points(&mut crosstable);
    recompute_points(&mut standings);
    Ok(WithdrawalAdjustment {
        crosstable,
        standings,
        decisions,
    })
}

/// The entry of `player` in `round`, if the file has one.
fn entry(tournament: &Tournament, player: PlayerId, round: usize) -> Option<Entry> {
    tournament.player(player)?.entry(round).copied()
}

/// Sets the entry of `player` in `round`, growing the round list as needed.
fn set_entry(tournament: &mut Tournament, player: PlayerId, round: usize, entry: Entry) {
    if let Some(p) = tournament.players.iter_mut().find(|p| p.id == player) {
        if p.rounds.len() < round {
            p.rounds.resize(round, None);
        }
        p.rounds[round - 1] = Some(entry);
    }
}

/// Records `player`'s scheduled game of `round` as lost by forfeit (won by forfeit for
/// the opponent, unless the opponent was absent too), or their bye as an absence.
fn forfeit(tournament: &mut Tournament, planned: &Pairing, player: PlayerId, round: usize) {
    let board = planned
        .boards
        .iter()
        .find(|b| b.white == player || b.black == player);
    let Some(board) = board else {
        set_entry(tournament, player, round, Entry::Bye { bye: Bye::Absent });
        return;
    };
    let (colour, opponent) = if board.white == player {
        (Colour::White, board.black)
    } else {
        (Colour::Black, board.white)
    };
    let opponent_absent = match entry(tournament, opponent, round) {
        Some(Entry::Game { result, .. }) => result == GameResult::ForfeitLoss,
        Some(Entry::Bye { bye }) => bye == Bye::Absent,
        None => false,
    };
    let opponent_result = if opponent_absent {
        GameResult::ForfeitLoss
    } else {
        GameResult::ForfeitWin
    };
    let mine = Entry::Game {
        opponent,
        colour,
        result: GameResult::ForfeitLoss,
    };
    let theirs = Entry::Game {
        opponent: player,
        colour: colour.opposite(),
        result: opponent_result,
    };
    set_entry(tournament, player, round, mine);
    set_entry(tournament, opponent, round, theirs);
}

/// Refills the points column from the entries.
fn recompute_points(tournament: &mut Tournament) {
    let rounds = tournament.rounds_played();
    let points: Vec<_> = tournament
        .players
        .iter()
        .map(|p| tournament.score_after(p, rounds))
        .collect();
    for (player, points) in tournament.players.iter_mut().zip(points) {
        player.points = points;
    }
}
