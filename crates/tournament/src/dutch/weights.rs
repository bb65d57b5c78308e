//! Edge weights for the Dutch system: each pairing criterion is a band of bits,
//! the absolute ones (completion, bye) at the top, then C.5 – C.21 in order, and at
//! the bottom room for the ordering rules (which S1 player meets which S2 player,
//! which exchanges). A heavier matching is a better pairing.

use super::players::{Candidate, Float};
use crate::matching::wide::Wide;
use crate::model::Colour;
use crate::points::Points;
use std::collections::HashMap;

/// Bits needed to write `n`.
pub fn bits(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// The widths of the bands, which depend on the sizes of the score groups.
pub struct Layout {
    /// Bits to count the players of the largest score group.
    pub size_bits: u32,
    /// Total bits of a band with one sub-band per score group.
    pub groups_bits: u32,
    /// Where each score group's sub-band starts.
    pub shift: HashMap<Points, u32>,
    /// Rounds already played.
    pub played: usize,
}

impl Layout {
    /// Lays out the bands for players sorted by pairing score, best first.
    pub fn new(sorted: &[&Candidate], played: usize) -> Layout {
        let mut shift = HashMap::new();
        let mut total = 0;
        let mut largest = 0;
        let mut index = sorted.len();
        while index > 0 {
            let score = sorted[index - 1].pairing_score;
            let mut size = 0;
            while index > 0 && sorted[index - 1].pairing_score == score {
                size += 1;
                index -= 1;
            }
            shift.insert(score, total);
            total += bits(size);
            largest = largest.max(size);
        }
        Layout {
            size_bits: bits(largest),
            groups_bits: total,
            shift,
            played,
        }
    }

    /// The total width of an edge weight, with room for sums over a matching.
    pub fn width(&self) -> u32 {
        let (s, g) = (self.size_bits, self.groups_bits);
        let floats = match self.played {
            0 => 0,
            1 => 2 * s + 2 * g,
            _ => 4 * s + 4 * g,
        };
        2 + s + g + s + g + 2 * s + 4 * s + floats + 3 * s + 1 + 2 * s + 8
    }

    fn group(&self, score: Points) -> u32 {
        self.shift[&score]
    }
}

/// What a bracket's weights depend on besides the two players.
pub struct Context<'a> {
    /// The band widths.
    pub layout: &'a Layout,
    /// The score of the player who will get the bye (when the number is odd).
    pub bye_score: Points,
    /// Whether the bye goes to the single downfloater of this bracket, so that C.9
    /// (fewest unplayed games for the bye) is weighed here.
    pub single_downfloater_is_bye: bool,
    /// For players with the bye's score: a rank by games played (fewer played,
    /// higher rank), so that the bye goes to one who played most.
    pub unplayed_rank: &'a HashMap<u32, usize>,
    /// Whether this round is the last.
    pub last_round: bool,
    /// Half the most points a player could have now: over it is a topscorer.
    pub topscorer_threshold: Points,
}

/// May the two meet at all: not met before, and not two players with the same
/// absolute colour preference unless one is a topscorer in the last round (C.1,
/// C.3).
pub fn compatible(a: &Candidate, b: &Candidate, ctx: &Context) -> bool {
    if a.met.contains(&b.id) {
        return false;
    }
    !a.absolute()
        || !b.absolute()
        || a.preference != b.preference
        || (ctx.last_round
            && (a.pairing_score > ctx.topscorer_threshold
                || b.pairing_score > ctx.topscorer_threshold))
}

fn preferences_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

fn add_small<const N: usize>(w: &mut Wide<N>, value: u64) {
    *w = w.add(&Wide::from_u64(value));
}

fn add_bit<const N: usize>(w: &mut Wide<N>, shift: u32) {
    *w = w.add(&Wide::from_u64(1).shl(shift));
}

/// The four colour bands (C.10 – C.13 of 2025: topscorers' colour difference and
/// three in a row, colour preferences, strong preferences), counted only for a
/// pair inside the bracket.
fn colour_bands<const N: usize>(
    w: &mut Wide<N>,
    player: &Candidate,
    opponent: &Candidate,
    inside: bool,
    s: u32,
) {
    *w = w.shl(s);
    if inside
        && (!player.absolute_imbalance()
            || !opponent.absolute_imbalance()
            || player.preference != opponent.preference)
    {
        add_small(w, 1);
    }
    *w = w.shl(s);
    let three_in_a_row_avoided = !player.absolute()
        || !opponent.absolute()
        || player.preference != opponent.preference
        || if player.imbalance == opponent.imbalance {
            player.repeated.is_none() || player.repeated != opponent.repeated
        } else {
            let smaller = if player.imbalance > opponent.imbalance {
                opponent
            } else {
                player
            };
            smaller.repeated != player.preference.map(Colour::opposite)
        };
    if inside && three_in_a_row_avoided {
        add_small(w, 1);
    }
    *w = w.shl(s);
    if inside && preferences_compatible(player.preference, opponent.preference) {
        add_small(w, 1);
    }
    *w = w.shl(s);
    let strong_met = (!player.strong && !player.absolute())
        || (!opponent.strong && !opponent.absolute())
        || (player.absolute() && opponent.absolute())
        || player.preference != opponent.preference;
    if inside && strong_met {
        add_small(w, 1);
    }
}

fn is_bye_candidate(p: &Candidate, ctx: &Context) -> bool {
    p.bye_eligible && p.pairing_score <= ctx.bye_score
}

/// The weight of a game between `higher` and `lower` (higher first in pairing
/// order) while the current bracket is paired; zero if they may not meet.
pub fn edge<const N: usize>(
    higher: &Candidate,
    lower: &Candidate,
    lower_in_bracket: bool,
    lower_in_next: bool,
    ctx: &Context,
) -> Wide<N> {
    if !compatible(higher, lower, ctx) {
        return Wide::ZERO;
    }
    let layout = ctx.layout;
    let (s, g) = (layout.size_bits, layout.groups_bits);
    let hs = higher.pairing_score;
    let ls = lower.pairing_score;
    // Completion, then the bye to an eligible player of the lowest score possible.
    let mut w = Wide::<N>::from_u64(
        1 + u64::from(!is_bye_candidate(higher, ctx)) + u64::from(!is_bye_candidate(lower, ctx)),
    );
    // C.5: as many pairs as possible in this bracket; C.6: the highest scores paired.
    w = w.shl(s);
    if lower_in_bracket {
        add_small(&mut w, 1);
    }
    w = w.shl(g);
    if lower_in_bracket {
        add_bit(&mut w, layout.group(hs));
    }
    // C.7: the same, looking at the next bracket.
    w = w.shl(s);
    if lower_in_next {
        add_small(&mut w, 1);
    }
    w = w.shl(g);
    if lower_in_next {
        add_bit(&mut w, layout.group(hs));
    }
    // C.9: the bye to the player with the fewest unplayed games.
    w = w.shl(2 * s);
    if ctx.single_downfloater_is_bye {
        if hs == ctx.bye_score {
            add_small(&mut w, ctx.unplayed_rank[&higher.played_games] as u64);
        }
        if ls == ctx.bye_score {
            add_small(&mut w, ctx.unplayed_rank[&lower.played_games] as u64);
        }
    }
    colour_bands(&mut w, lower, higher, lower_in_bracket, s);
    // Repeated floats: counts, then the scores involved (C.14 – C.21).
    let rounds_back: &[usize] = match layout.played {
        0 => &[],
        1 => &[0],
        _ => &[0, 1],
    };
    for &back in rounds_back {
        w = w.shl(s);
        if lower_in_bracket {
            let mut count = u64::from(lower.floats[back] == Float::Down);
            count += u64::from(hs <= ls && higher.floats[back] == Float::Down);
            add_small(&mut w, count);
        }
        w = w.shl(s);
        if lower_in_bracket && !(hs > ls && lower.floats[back] == Float::Up) {
            add_small(&mut w, 1);
        }
    }
    for &back in rounds_back {
        w = w.shl(g);
        if lower_in_bracket {
            if lower.floats[back] == Float::Down {
                add_bit(&mut w, layout.group(ls));
            }
            if higher.floats[back] == Float::Down {
                add_bit(&mut w, layout.group(hs));
            }
        }
        w = w.shl(g);
        if lower_in_bracket && !(lower.floats[back] == Float::Up && hs > ls) {
            add_bit(&mut w, layout.group(hs));
        }
    }
    // Room for the ordering rules.
    w.shl(3 * s + 1)
}

/// The weight used before the brackets are paired when the number is odd: every
/// player paired but one, the bye to an eligible player, of the lowest score.
pub fn bye_edge<const N: usize>(
    player: &Candidate,
    opponent: &Candidate,
    top_score: Points,
    ctx: &Context,
) -> Wide<N> {
    if !compatible(player, opponent, ctx) {
        return Wide::ZERO;
    }
    let layout = ctx.layout;
    let mut w = Wide::<N>::from_u64(
        1 + u64::from(!player.bye_eligible) + u64::from(!opponent.bye_eligible),
    );
    w = w.shl(layout.groups_bits);
    add_small(
        &mut w,
        u64::from(layout.group(player.pairing_score) + layout.group(opponent.pairing_score)),
    );
    w = w.shl(layout.size_bits);
    if player.pairing_score >= top_score {
        add_small(&mut w, 1);
    }
    w
}

/// The ordering adjustment for a pair inside a remainder: fewest exchanges first,
/// then the smallest difference of the exchanged players' numbers.
pub fn ordered<const N: usize>(
    base: &Wide<N>,
    smaller_index: usize,
    pairs: usize,
    s: u32,
) -> Wide<N> {
    if base.is_zero() {
        return *base;
    }
    let mut addend = Wide::<N>::from_u64(u64::from(smaller_index < pairs)).shl(2 * s);
    addend = addend.sub(&Wide::from_u64(smaller_index as u64));
    addend = addend.shl(1);
    base.add(&addend)
}
