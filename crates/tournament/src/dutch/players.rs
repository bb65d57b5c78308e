//! What the Dutch rules need to know about each player before a round: score (with
//! acceleration), colour difference and preference, floats, bye eligibility and
//! who they have already played.

use crate::model::{Bye, Colour, Entry, GameResult, PlayerId, Tournament};
use crate::pairing::PairingError;
use crate::points::Points;
use std::collections::HashSet;

/// A float a player received in an earlier round (Art. 1.4).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Float {
    /// Paired with a lower score, or scored without playing (PAB, forfeit win,
    /// bye worth more than a loss).
    Down,
    /// Paired with a higher score.
    Up,
    /// Neither.
    None,
}

/// One player as the pairing sees them.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Starting rank.
    pub id: PlayerId,
    /// Position among the players taking part so far, for colours and ties.
    pub rank: usize,
    /// Points from results.
    pub score: Points,
    /// Points plus this round's acceleration: what brackets are made of.
    pub pairing_score: Points,
    /// Pairing scores before the last round and the one before (with those
    /// rounds' accelerations), for floats.
    pub floats: [Float; 2],
    /// Games played over the board.
    pub played_games: u32,
    /// |whites − blacks|.
    pub imbalance: u32,
    /// The preferred colour, if any.
    pub preference: Option<Colour>,
    /// The colour of the last two games, when they were the same.
    pub repeated: Option<Colour>,
    /// A strong (not absolute) preference: colour difference of one.
    pub strong: bool,
    /// May receive the pairing-allocated bye (C.2).
    pub bye_eligible: bool,
    /// Opponents met over the board.
    pub met: HashSet<PlayerId>,
    /// Colours of games played, oldest first.
    pub colours: Vec<Colour>,
}

impl Candidate {
    /// A colour difference over one.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference (A.6.a).
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// A round the file holds for a player, as the pairing reads it.
struct Round {
    played: Option<(PlayerId, Colour)>,
    /// Took part in the pairing of that round (a game, forfeited or not, or the
    /// pairing-allocated bye).
    paired: bool,
    pab: bool,
    points: Points,
}

fn round_of(entry: Option<&Entry>, t: &Tournament) -> Round {
    let system = &t.point_system;
    match entry {
        None => Round {
            played: None,
            paired: false,
            pab: false,
            points: system.zero_bye,
        },
        Some(
            e @ Entry::Game {
                opponent, colour, ..
            },
        ) => Round {
            played: e.played().map(|_| (*opponent, *colour)),
            paired: true,
            pab: false,
            points: e.points(system),
        },
        Some(e @ Entry::Bye { bye }) => Round {
            played: None,
            paired: *bye == Bye::PairingAllocated,
            pab: *bye == Bye::PairingAllocated,
            points: e.points(system),
        },
    }
}

/// The players to pair in the next round, and that round's number (1-based).
pub struct Field {
    /// The round being paired.
    pub round: usize,
    /// Rounds already paired.
    pub played_rounds: usize,
    /// The players to pair, in no particular order.
    pub players: Vec<Candidate>,
}

/// Rounds already paired: a round counts once any player took part in its
/// pairing; entries of the next round that are only byes (H, F, Z, absent) are
/// announcements for the round being paired.
pub fn played_rounds(t: &Tournament) -> usize {
    let mut rounds = 0;
    for player in &t.players {
        for (index, entry) in player.rounds.iter().enumerate() {
            let Some(entry) = entry else { continue };
            rounds = rounds.max(index);
            let paired = match entry {
                Entry::Game { .. } => true,
                Entry::Bye { bye } => *bye == Bye::PairingAllocated,
            };
            if paired {
                rounds = rounds.max(index + 1);
            }
        }
    }
    rounds
}

/// Reads every player's state before the next round.
pub fn field(t: &Tournament) -> Result<Field, PairingError> {
    let played = played_rounds(t);
    let mut players = Vec::new();
    let mut rank = 0;
    for player in &t.players {
        for (index, entry) in player.rounds.iter().enumerate().take(played) {
            if let Some(Entry::Game {
                opponent,
                result: GameResult::Pending,
                ..
            }) = entry
            {
                return Err(PairingError::Invalid(format!(
                    "round {}: the game of {} against {opponent} has no result yet",
                    index + 1,
                    player.id
                )));
            }
        }
        let available = player.entry(played + 1).is_none();
        let rounds: Vec<Round> = (1..=played).map(|r| round_of(player.entry(r), t)).collect();
        let took_part = rounds.iter().any(|r| r.paired);
        if !available && !took_part {
            continue;
        }
        let this_rank = rank;
        rank += 1;
        if !available {
            continue;
        }
        let score: Points = rounds.iter().map(|r| r.points).sum();
        let mut whites = 0u32;
        let mut blacks = 0u32;
        let mut run = 0u32;
        let mut last = None;
        let mut colours = Vec::new();
        let mut met = HashSet::new();
        for (opponent, colour) in rounds.iter().filter_map(|r| r.played) {
            met.insert(opponent);
            colours.push(colour);
            match colour {
                Colour::White => whites += 1,
                Colour::Black => blacks += 1,
            }
            run = if last == Some(colour) { run + 1 } else { 1 };
            last = Some(colour);
        }
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        let imbalance = whites.abs_diff(blacks);
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::opposite)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::opposite)
        };
        let repeated = if run > 1 { last } else { None };
        let bye_eligible = !rounds
            .iter()
            .any(|r| r.played.is_none() && (r.points >= t.point_system.win || r.pab));
        let mut candidate = Candidate {
            id: player.id,
            rank: this_rank,
            score,
            pairing_score: score + t.acceleration(player.id, played + 1),
            floats: [Float::None; 2],
            played_games: whites + blacks,
            imbalance,
            preference,
            repeated,
            strong: false,
            bye_eligible,
            met,
            colours,
        };
        candidate.strong = !candidate.absolute() && imbalance > 0;
        players.push(candidate);
    }
    // Floats need every player's earlier scores, including those not paired now.
    for candidate in &mut players {
        for back in 1..=2usize {
            if back > played {
                break;
            }
            let round = played + 1 - back;
            let player = t.player(candidate.id).expect("candidate exists");
            let here = round_of(player.entry(round), t);
            candidate.floats[back - 1] = match here.played {
                None if here.points > t.point_system.loss => Float::Down,
                None => Float::None,
                Some((opponent, _)) => {
                    let mine = score_before(t, candidate.id, round);
                    let theirs = score_before(t, opponent, round);
                    match mine.cmp(&theirs) {
                        std::cmp::Ordering::Greater => Float::Down,
                        std::cmp::Ordering::Less => Float::Up,
                        std::cmp::Ordering::Equal => Float::None,
                    }
                }
            };
        }
    }
    Ok(Field {
        round: played + 1,
        played_rounds: played,
        players,
    })
}

/// A player's pairing score when `round` was paired: points of the rounds before
/// it plus that round's acceleration.
fn score_before(t: &Tournament, id: PlayerId, round: usize) -> Points {
    let Some(player) = t.player(id) else {
        return Points::ZERO;
    };
    let points: Points = (1..round)
        .map(|r| round_of(player.entry(r), t).points)
        .sum();
    points + t.acceleration(id, round)
}
