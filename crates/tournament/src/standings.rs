//! Standings: players ranked by points, then by each tiebreak in the order the
//! tournament's regulations list them (FIDE C.07 article 4), players still equal on
//! everything sharing a rank (1, 2, 2, 4); and the FIDE Elo change of each player for a
//! rated event.
//!
//! Points come from the round entries under the tournament's point system; the file's
//! points column and accelerations (`XXA`) play no part.

use crate::model::{GameResult, Player, PlayerId, Tournament};
use crate::points::Points;
use crate::tiebreak::{encounter_scores, order_by_encounters, Context, Tiebreak, Value};
use caissa_rating::elo;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::fmt::Write as _;

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Standing {
    /// The rank, shared by players equal on points and every tiebreak.
    pub rank: u32,
    /// The player's starting rank.
    pub start_rank: PlayerId,
    /// The player's name.
    pub name: String,
    /// The points scored.
    pub points: Points,
    /// Each tiebreak's value, in the order asked for; serialised as an object keyed by
    /// the canonical code.
    #[serde(serialize_with = "tiebreaks_as_map")]
    pub tiebreaks: Vec<(Tiebreak, Value)>,
}

fn tiebreaks_as_map<S: Serializer>(
    tiebreaks: &[(Tiebreak, Value)],
    s: S,
) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(tiebreaks.len()))?;
    for (tiebreak, value) in tiebreaks {
        map.serialize_entry(&tiebreak.to_string(), value)?;
    }
    map.end()
}

/// The standings after every round paired so far ([`Tournament::rounds_played`]),
/// ordered by rank, then by starting rank.
///
/// ```
/// use caissa_tournament::{standings, tiebreak::Tiebreak, trf};
/// let t = trf::parse(concat!(
///     "001    1      Alpha                                                                           2 w 1\n",
///     "001    2      Beta                                                                            1 b 0\n",
/// )).unwrap();
/// let table = standings::standings(&t, &[Tiebreak::SonnebornBerger(None)]);
/// assert_eq!((table[0].rank, table[0].start_rank), (1, 1));
/// ```
pub fn standings(t: &Tournament, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
    standings_after(t, t.rounds_played(), tiebreaks)
}

/// The standings after `rounds` rounds.
///
/// Players are split by points, then each tiebreak in turn splits every group still
/// tied (4.1); direct encounter is taken among the players of that group, so its value
/// can differ from [`crate::tiebreak::compute`]'s, which groups by points alone.
pub fn standings_after(t: &Tournament, rounds: usize, tiebreaks: &[Tiebreak]) -> Vec<Standing> {
    let context = Context::new(t, rounds);
    let n = t.players.len();
    let mut values: Vec<Vec<Value>> = tiebreaks
        .iter()
        .map(|&tb| match tb {
            Tiebreak::DirectEncounter => vec![Value::Points(0); n],
            _ => context.compute(tb),
        })
        .collect();

    let mut by_points: Vec<usize> = (0..n).collect();
    by_points.sort_by_key(|&p| (std::cmp::Reverse(context.score[p]), t.players[p].id));
    let mut groups = split(&by_points, |p| context.score[p]);
    for (k, &tiebreak) in tiebreaks.iter().enumerate() {
        let mut next = Vec::new();
        for group in groups {
            if tiebreak == Tiebreak::DirectEncounter {
                let scores = encounter_scores(&context, &group);
                for (i, &p) in group.iter().enumerate() {
                    values[k][p] = scores.value(i);
                }
                next.extend(order_by_encounters(&context, &group));
            } else if group.len() == 1 {
                next.push(group);
            } else {
                let mut sorted = group;
                sorted.sort_by_key(|&p| std::cmp::Reverse(values[k][p]));
                next.extend(split(&sorted, |p| values[k][p]));
            }
        }
        groups = next;
    }

    let mut table = Vec::with_capacity(n);
    let mut place = 1u32;
    for mut group in groups {
        group.sort_by_key(|&p| t.players[p].id);
        for &p in &group {
            let player = &t.players[p];
            table.push(Standing {
                rank: place,
                start_rank: player.id,
                name: player.name.clone(),
                points: context.score[p],
                tiebreaks: tiebreaks
                    .iter()
                    .zip(&values)
                    .map(|(&tb, v)| (tb, v[p]))
                    .collect(),
            });
        }
        place += group.len() as u32;
    }
    table
}

/// `sorted` cut into runs of equal `key`.
fn split<K: PartialEq>(sorted: &[usize], key: impl Fn(usize) -> K) -> Vec<Vec<usize>> {
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &p in sorted {
        match runs.last_mut() {
            Some(run) if key(run[0]) == key(p) => run.push(p),
            _ => runs.push(vec![p]),
        }
    }
    runs
}

/// The standings as a text table: a header row (`Rank`, `SNo`, `Name`, `Pts`, then
/// each tiebreak's code), one row per player, columns separated by two spaces, numbers
/// right-aligned.
pub fn render_text(standings: &[Standing], tiebreaks: &[Tiebreak]) -> String {
    let mut header: Vec<String> = ["Rank", "SNo", "Name", "Pts"].map(String::from).to_vec();
    header.extend(tiebreaks.iter().map(Tiebreak::to_string));
    let rows: Vec<Vec<String>> = standings
        .iter()
        .map(|s| {
            let mut row = vec![
                s.rank.to_string(),
                s.start_rank.to_string(),
                s.name.clone(),
                s.points.to_string(),
            ];
            row.extend(s.tiebreaks.iter().map(|(_, v)| v.to_string()));
            row
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .chain(std::iter::once(&header[c]))
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                let width = widths[c];
                if c == 2 {
                    format!("{cell:<width$}")
                } else {
                    format!("{cell:>width$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

/// The K factor used when none is known: FIDE's for an established player below 2400.
pub const DEFAULT_K_FACTOR: f64 = 20.0;

/// One player's Elo change for the event (FIDE Rating Regulations B.02).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RatingChange {
    /// The player's starting rank.
    pub start_rank: PlayerId,
    /// The player's rating before the event (0 if unrated).
    pub rating: u16,
    /// The K factor applied.
    pub k: f64,
    /// Rated games: played over the board, with a result, against a rated opponent.
    pub games: u32,
    /// Points scored in those games, 1 / ½ / 0.
    pub score: f64,
    /// The expected score in those games (FIDE's table, 400-point rule).
    pub expected: f64,
    /// `K × (score − expected)`, unrounded; `None` for an unrated player, whose games
    /// count toward a first rating instead.
    pub change: Option<f64>,
}

impl RatingChange {
    /// The change as a rating report shows it: `{startRank, rating, k, games,
    /// score, expected, change}`, the expected score to the hundredth and the
    /// change to the tenth.
    pub fn report_json(&self) -> serde_json::Value {
        serde_json::json!({
            "startRank": self.start_rank,
            "rating": self.rating,
            "k": self.k,
            "games": self.games,
            "score": self.score,
            "expected": (self.expected * 100.0).round() / 100.0,
            "change": self.change.map(|d| (d * 10.0).round() / 10.0),
        })
    }
}

/// Each player's Elo change, in the order of `t.players`, over every round paired so
/// far.
///
/// TRF files do not carry K, so `k_factor` gives it per player; pass
/// `|_| DEFAULT_K_FACTOR` for 20, or look players up in a map. K × games ≤ 700
/// (B.02 8.3.3) is a rule of the whole rating period and is not applied here.
/// Forfeits, byes, games not rated (`W`, `D`, `L`) and games against unrated
/// opponents do not count.
///
/// ```
/// use caissa_tournament::{standings, trf};
/// use std::collections::HashMap;
/// let t = trf::parse(concat!(
///     "001    1      Alpha                             2200                                          2 w 1\n",
///     "001    2      Beta                              2000                                          1 b 0\n",
/// )).unwrap();
/// let k: HashMap<u32, f64> = HashMap::from([(2, 40.0)]);
/// let changes = standings::rating_changes(&t, |p| k.get(&p.id).copied().unwrap_or(standings::DEFAULT_K_FACTOR));
/// assert!((changes[0].change.unwrap() - 4.8).abs() < 1e-9);
/// assert!((changes[1].change.unwrap() + 9.6).abs() < 1e-9);
/// ```
pub fn rating_changes(t: &Tournament, k_factor: impl Fn(&Player) -> f64) -> Vec<RatingChange> {
    let rounds = t.rounds_played();
    t.players
        .iter()
        .map(|player| {
            let k = k_factor(player);
            let own = f64::from(player.rating);
            let (mut games, mut score, mut expected) = (0u32, 0.0, 0.0);
            for round in 1..=rounds {
                let Some((opponent, _, result)) = player.entry(round).and_then(|e| e.played())
                else {
                    continue;
                };
                let points = match result {
                    GameResult::Win => 1.0,
                    GameResult::Draw => 0.5,
                    GameResult::Loss => 0.0,
                    _ => continue,
                };
                let Some(opponent) = t.player(opponent).filter(|o| o.rating > 0) else {
                    continue;
                };
                games += 1;
                score += points;
                if player.rating > 0 {
                    expected += elo::expected_score(own, f64::from(opponent.rating));
                }
            }
            RatingChange {
                start_rank: player.id,
                rating: player.rating,
                k,
                games,
                score,
                expected,
                change: (player.rating > 0).then_some(k * (score - expected)),
            }
        })
        .collect()
}
