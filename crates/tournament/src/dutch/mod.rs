//! The FIDE (Dutch) Swiss system, C.04.3 in the edition applied from 2025/2026,
//! with the Baku acceleration (C.04.5) when the file carries `XXA` lines.
//!
//! The rules define the best pairing as the one that satisfies the absolute
//! criteria and then each quality criterion in order, ties broken by the order of
//! transpositions and exchanges. That is a lexicographic optimum, and it is found
//! here as one: every criterion is a band of bits in an edge weight
//! ([`weights`]), a maximum-weight matching finds the best pairing of the whole
//! field, and the bracket procedure ([`brackets`]) fixes the remaining choices one
//! at a time in the order the rules give them.

mod brackets;
mod players;
mod weights;

use crate::model::{Colour, Tournament};
use crate::pairing::{Board, Pairing, PairingError};
use crate::points::Points;
use players::Candidate;
use std::cmp::Ordering;

pub use players::played_rounds;

/// Pairs the next round of a Swiss tournament by the Dutch system.
pub fn pair(t: &Tournament) -> Result<Pairing, PairingError> {
    let total = t.total_rounds.ok_or(PairingError::TotalRoundsMissing)?;
    let field = players::field(t)?;
    if field.played_rounds >= total as usize {
        return Err(PairingError::TournamentOver(total));
    }
    if field.players.is_empty() {
        return Ok(Pairing::default());
    }
    let mut sorted: Vec<&Candidate> = field.players.iter().collect();
    sorted.sort_by(|a, b| pairing_order(a, b));
    let layout = weights::Layout::new(&sorted, field.played_rounds);
    let last_round = field.round >= total as usize;
    let best = t.point_system.win.max(t.point_system.draw);
    let threshold = Points((field.played_rounds as u32 * best.0) / 2);
    // The narrowest weights that hold the layout and 8 bits for sums: the matching
    // reads every weight of the field many times, and its time follows their size.
    let width = layout.width() + 8;
    let mates = match width.div_ceil(64) {
        0..=2 => brackets::pair::<2>(&sorted, &layout, last_round, threshold),
        3 => brackets::pair::<3>(&sorted, &layout, last_round, threshold),
        4 => brackets::pair::<4>(&sorted, &layout, last_round, threshold),
        5 => brackets::pair::<5>(&sorted, &layout, last_round, threshold),
        6 => brackets::pair::<6>(&sorted, &layout, last_round, threshold),
        7 => brackets::pair::<7>(&sorted, &layout, last_round, threshold),
        8 => brackets::pair::<8>(&sorted, &layout, last_round, threshold),
        9 => brackets::pair::<9>(&sorted, &layout, last_round, threshold),
        10 => brackets::pair::<10>(&sorted, &layout, last_round, threshold),
        11..=12 => brackets::pair::<12>(&sorted, &layout, last_round, threshold),
        13..=16 => brackets::pair::<16>(&sorted, &layout, last_round, threshold),
        17..=24 => brackets::pair::<24>(&sorted, &layout, last_round, threshold),
        25..=32 => brackets::pair::<32>(&sorted, &layout, last_round, threshold),
        _ => brackets::pair::<64>(&sorted, &layout, last_round, threshold),
    }
    .map_err(|_| PairingError::Impossible(field.round as u32))?;
    let initial = t.inferred_initial_colour();
    let mut boards = Vec::new();
    let mut bye = None;
    for (v, mate) in mates.iter().enumerate() {
        match *mate {
            None => bye = Some(sorted[v].id),
            Some(u) if v < u => {
                let (a, b) = (sorted[v], sorted[u]);
                // Colours are decided for the player with the smaller number.
                let (first, second) = if a.id < b.id { (a, b) } else { (b, a) };
                let colour = colour_for(first, second, initial);
                boards.push(match colour {
                    Colour::White => Board {
                        white: first.id,
                        black: second.id,
                    },
                    Colour::Black => Board {
                        white: second.id,
                        black: first.id,
                    },
                });
            }
            Some(_) => {}
        }
    }
    let by_id = |id| {
        field
            .players
            .iter()
            .find(|p| p.id == id)
            .expect("paired player")
    };
    // Boards in order of the higher player's score, the lower player's score, then
    // the higher player's number (accelerations do not count here).
    boards.sort_by_key(|board| {
        let (w, b) = (by_id(board.white), by_id(board.black));
        let (higher, lower) = if standing_order(w, b) == Ordering::Greater {
            (b, w)
        } else {
            (w, b)
        };
        (
            std::cmp::Reverse(higher.score),
            std::cmp::Reverse(lower.score),
            higher.rank,
        )
    });
    Ok(Pairing { boards, bye })
}

/// Pairing order (Art. 1.2): score with acceleration, then pairing number.
fn pairing_order(a: &Candidate, b: &Candidate) -> Ordering {
    b.pairing_score
        .cmp(&a.pairing_score)
        .then(a.rank.cmp(&b.rank))
}

/// The same without acceleration.
fn standing_order(a: &Candidate, b: &Candidate) -> Ordering {
    b.score.cmp(&a.score).then(a.rank.cmp(&b.rank))
}

/// The colour `player` gets against `opponent` (Art. 5, colour allocation).
fn colour_for(player: &Candidate, opponent: &Candidate, initial: Colour) -> Colour {
    if let Some(colour) = neutral_colour(player, opponent) {
        return colour;
    }
    let player_is_lower = pairing_order(player, opponent) == Ordering::Greater;
    let (higher, higher_is_player) = if player_is_lower {
        (opponent, false)
    } else {
        (player, true)
    };
    let colour_of_higher = match higher.preference {
        Some(preference) => preference,
        // Neither has a preference: the initial colour by the higher player's rank.
        None => {
            if higher.rank % 2 == 0 {
                initial
            } else {
                initial.opposite()
            }
        }
    };
    if higher_is_player {
        colour_of_higher
    } else {
        colour_of_higher.opposite()
    }
}

/// The colour rules that do not depend on rank: both preferences granted, the
/// stronger preference first, then alternation from the most recent round in which
/// the two had different colours. `None` when those leave it open.
fn neutral_colour(player: &Candidate, opponent: &Candidate) -> Option<Colour> {
    let compatible = player.preference != opponent.preference
        || player.preference.is_none()
        || opponent.preference.is_none();
    if compatible {
        return player
            .preference
            .or_else(|| opponent.preference.map(Colour::opposite));
    }
    if player.absolute() && (player.imbalance > opponent.imbalance || !opponent.absolute()) {
        return player.preference;
    }
    if opponent.absolute() && (opponent.imbalance > player.imbalance || !player.absolute()) {
        return opponent.preference.map(Colour::opposite);
    }
    if player.strong && !opponent.strong {
        return player.preference;
    }
    if opponent.strong && !player.strong {
        return opponent.preference.map(Colour::opposite);
    }
    let mine = player.colours.iter().rev();
    let theirs = opponent.colours.iter().rev();
    for (a, b) in mine.zip(theirs) {
        if a != b {
            return Some(*b);
        }
    }
    None
}
