//! Direct encounter (C.07 article 6): the tied participants ranked by the points they
//! scored in the games between them.
//!
//! Only games played over the board count; two participants who met more than once
//! count the average of their games. When all of them have met, they are ranked by
//! those points. When some have not, one of them is ranked first only if they will be
//! alone at the top of those separate standings whatever the missing games' results
//! would have been (each missing game counting as a loss for them and a win for
//! every rival), then the same for the next place, and so on. Participants this
//! leaves tied are ranked again, by the games between them alone, as long as that
//! separates anyone; those still tied pass to the next tiebreak.

use super::context::Context;
use super::Value;
use std::collections::BTreeMap;

/// The direct-encounter scores of a group of players.
pub(crate) struct Encounters {
    /// Each member's points against the others, in tenths times `denominator`.
    pub(crate) scaled: Vec<i64>,
    /// How many of the others each member has met.
    pub(crate) met: Vec<usize>,
    /// What `scaled` is multiplied by, so that averages of repeated games stay exact.
    pub(crate) denominator: i64,
}

impl Encounters {
    /// Member `i`'s score as a tiebreak value (hundredths, rounded half up).
    pub(crate) fn value(&self, i: usize) -> Value {
        Value::Points((2 * self.scaled[i] * 10 + self.denominator).div_euclid(2 * self.denominator))
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The scores of `group` (player indices) in the games among them.
pub(crate) fn encounter_scores(ctx: &Context<'_>, group: &[usize]) -> Encounters {
    // Per member: opponent → (points in tenths, games).
    let tallies: Vec<BTreeMap<usize, (i64, i64)>> = group
        .iter()
        .map(|&p| {
            let mut tally = BTreeMap::new();
            for round in &ctx.rounds[p] {
                if let Some((opponent, _)) = round.finished_game() {
                    if opponent != p && group.contains(&opponent) {
                        let entry = tally.entry(opponent).or_insert((0, 0));
                        entry.0 += i64::from(round.points().0);
                        entry.1 += 1;
                    }
                }
            }
            tally
        })
        .collect();
    let denominator = tallies
        .iter()
        .flat_map(|t| t.values().map(|&(_, games)| games))
        .fold(1, |lcm, games| lcm / gcd(lcm, games) * games);
    let scaled = tallies
        .iter()
        .map(|t| {
            t.values()
                .map(|&(points, games)| points * (denominator / games))
                .sum()
        })
        .collect();
    let met = tallies.iter().map(BTreeMap::len).collect();
    Encounters {
        scaled,
        met,
        denominator,
    }
}

/// `group` (player indices) split into classes by direct encounter, best first; the
/// members of a class are still tied.
pub(crate) fn order_by_encounters(ctx: &Context<'_>, group: &[usize]) -> Vec<Vec<usize>> {
    if group.len() <= 1 {
        return vec![group.to_vec()];
    }
    let scores = encounter_scores(ctx, group);
    let others = group.len() - 1;
    let mut classes: Vec<Vec<usize>> = Vec::new();
    if scores.met.iter().all(|&m| m == others) {
        // Everyone has met everyone.
        let mut members: Vec<usize> = (0..group.len()).collect();
        members.sort_by_key(|&i| std::cmp::Reverse(scores.scaled[i]));
        for i in members {
            match classes.last_mut() {
                Some(class) if scores.scaled[class[0]] == scores.scaled[i] => class.push(i),
                _ => classes.push(vec![i]),
            }
        }
    } else {
        // Not all have met: a member alone on top whatever the missing results, then
        // the next.
        let win = i64::from(ctx.t.point_system.win.0) * scores.denominator;
        let best = |i: usize| scores.scaled[i] + (others - scores.met[i]) as i64 * win;
        let mut remaining: Vec<usize> = (0..group.len()).collect();
        while remaining.len() > 1 {
            let alone = remaining.iter().copied().find(|&i| {
                remaining
                    .iter()
                    .all(|&j| j == i || scores.scaled[i] > best(j))
            });
            match alone {
                Some(i) => {
                    classes.push(vec![i]);
                    remaining.retain(|&j| j != i);
                }
                None => break,
            }
        }
        classes.push(remaining);
    }
    classes
        .into_iter()
        .flat_map(|class| {
            let members: Vec<usize> = class.iter().map(|&i| group[i]).collect();
            if members.len() > 1 && members.len() < group.len() {
                order_by_encounters(ctx, &members)
            } else {
                vec![members]
            }
        })
        .collect()
}

impl Context<'_> {
    /// `DE` for every player, among the players tied with them on points.
    pub(crate) fn direct_encounter_by_points(&self) -> Vec<Value> {
        let mut values = vec![Value::Points(0); self.t.players.len()];
        let mut by_score: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
        for (p, score) in self.score.iter().enumerate() {
            by_score.entry(score.0).or_default().push(p);
        }
        for group in by_score.values() {
            let scores = encounter_scores(self, group);
            for (i, &p) in group.iter().enumerate() {
                values[p] = scores.value(i);
            }
        }
        values
    }
}
