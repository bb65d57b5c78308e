//! The arena, as lichess runs it: for a fixed time, players are paired again as soon as
//! their game ends, and the score rewards winning streaks. This module is the pure part:
//! scoring a player's games ([`ArenaSheet`]) and pairing whoever
//! is waiting ([`pair`]); the berserk clock is the arbiter's. The clock of the event (when it ends, when a
//! player is back in the lobby) is the server's.
//!
//! # Scoring
//!
//! These are lichess's rules, with its thresholds, which count plies (half-moves):
//!
//! * a win scores 2, a draw 1, a loss 0;
//! * after two wins in a row the player is *on fire*: each further game scores double
//!   (a win 4, a draw 2) until a game is not won. A draw while on fire scores 2 and ends
//!   the streak, as on lichess (the streak is "games won in a row", the double value
//!   applies to the game that breaks it);
//! * a draw in fewer than 20 plies ([`QUICK_DRAW_PLIES`]: fewer than ten moves each)
//!   scores 0, on fire or not, and ends the streak;
//! * draw streaks ([`ArenaRules::draw_streaks`], lichess since April 2020): a draw that
//!   follows another draw with no win in between (losses do not count) scores 0, unless
//!   the game lasted at least 60 plies ([`LONG_GAME_PLIES`]) or the player is on fire.
//!   A quick draw counts as a draw here;
//! * berserk: a player who went berserk and won gets 1 point more, if the game reached
//!   14 plies ([`BERSERK_BONUS_PLIES`]). Lichess states this as "at least 7 moves" and
//!   counts it as plies, so a win by White on ply 13 (White's seventh move) earns no
//!   bonus. The bonus is not doubled by a streak.
//!
//! # Pairing
//!
//! The waiting players are ranked by score, then rating, then id, and neighbours are
//! paired: 1–2, 3–4 ... A player is not paired with the opponent of their previous game:
//! the next one down is taken instead, and if the last two left just met, they are
//! swapped into the nearest board above. Only when no swap avoids it (with consistent
//! histories: when they are the only two waiting) do they meet again. With an odd number
//! one player stays waiting. White goes to the player who had Black more often, then to
//! the one with the longer run of Blacks (so after White comes Black), then to the
//! higher-ranked. A sort and one pass: `O(n log n)`.

use crate::model::{Colour, PlayerId};
use crate::pairing::Board;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;

/// A draw in fewer plies than this scores nothing.
pub const QUICK_DRAW_PLIES: u16 = 20;
/// A berserk win earns its bonus point from this many plies on.
pub const BERSERK_BONUS_PLIES: u16 = 14;
/// A draw of at least this many plies scores even in a draw streak.
pub const LONG_GAME_PLIES: u16 = 60;
/// The fewest games that give a performance, as lichess shows it.
pub const PERFORMANCE_MIN_GAMES: usize = 3;
/// What a win adds to (a loss takes from) the opponent's rating in the performance.
pub const PERFORMANCE_SPREAD: i32 = 500;

/// How an arena game ended for one player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ArenaResult {
    /// Won.
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
}

/// Which of lichess's scoring rules the arena uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArenaRules {
    /// Double points after two wins in a row (lichess's "streaks", on by default).
    pub streaks: bool,
    /// No point for a short draw that follows a draw without a win in between.
    pub draw_streaks: bool,
}

impl Default for ArenaRules {
    /// Lichess's current rules: streaks and draw streaks.
    fn default() -> Self {
        ArenaRules {
            streaks: true,
            draw_streaks: true,
        }
    }
}

/// A finished game, from one player's side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArenaGame {
    /// The opponent.
    pub opponent: PlayerId,
    /// The opponent's rating when the game started, for the performance.
    pub opponent_rating: u16,
    /// The colour this player had.
    pub colour: Colour,
    /// The result for this player.
    pub result: ArenaResult,
    /// Plies (half-moves) played.
    pub plies: u16,
    /// Whether this player went berserk.
    pub berserk: bool,
}

/// Why a game scored what it did, beyond its result.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ScoreFlag {
    /// The ordinary value: 2, 1 or 0.
    Normal,
    /// Played on fire: double value.
    Double,
    /// A draw in fewer than [`QUICK_DRAW_PLIES`]: nothing.
    QuickDraw,
    /// A short draw in a draw streak: nothing.
    DrawStreak,
}

/// A game with the points it earned.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoredGame {
    /// The game.
    pub game: ArenaGame,
    /// Points earned, berserk bonus included.
    pub points: u32,
    /// How the result was valued.
    pub flag: ScoreFlag,
    /// Whether the berserk point was earned.
    pub berserk_bonus: bool,
}

/// One player's arena games, scored as they are recorded.
///
/// ```
/// use caissa_tournament::arena::{ArenaGame, ArenaResult, ArenaRules, ArenaSheet};
/// use caissa_tournament::Colour;
///
/// let mut sheet = ArenaSheet::new(7, ArenaRules::default());
/// let game = |result| ArenaGame {
///     opponent: 1,
///     opponent_rating: 1500,
///     colour: Colour::White,
///     result,
///     plies: 40,
///     berserk: false,
/// };
/// sheet.record(game(ArenaResult::Win));
/// sheet.record(game(ArenaResult::Win));
/// assert!(sheet.is_on_fire());
/// assert_eq!(sheet.record(game(ArenaResult::Win)).points, 4);
/// assert_eq!(sheet.score(), 8);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArenaSheet {
    player: PlayerId,
    rules: ArenaRules,
    games: Vec<ScoredGame>,
    score: u32,
    wins_in_a_row: u32,
    /// A draw since the last win: the next short draw is in a draw streak.
    drawn_since_win: bool,
    colours: ColourHistory,
}

impl ArenaSheet {
    /// An empty sheet for `player`.
    pub fn new(player: PlayerId, rules: ArenaRules) -> ArenaSheet {
        ArenaSheet {
            player,
            rules,
            games: Vec::new(),
            score: 0,
            wins_in_a_row: 0,
            drawn_since_win: false,
            colours: ColourHistory::default(),
        }
    }

    /// Scores `game`, adds it to the sheet and returns how it was scored.
    pub fn record(&mut self, game: ArenaGame) -> ScoredGame {
        let on_fire = self.is_on_fire();
        let (base, flag) = match game.result {
            ArenaResult::Win if on_fire => (4, ScoreFlag::Double),
            ArenaResult::Win => (2, ScoreFlag::Normal),
            ArenaResult::Draw if game.plies < QUICK_DRAW_PLIES => (0, ScoreFlag::QuickDraw),
            ArenaResult::Draw if on_fire => (2, ScoreFlag::Double),
            ArenaResult::Draw
                if self.rules.draw_streaks
                    && self.drawn_since_win
                    && game.plies < LONG_GAME_PLIES =>
            {
                (0, ScoreFlag::DrawStreak)
            }
            ArenaResult::Draw => (1, ScoreFlag::Normal),
            ArenaResult::Loss => (0, ScoreFlag::Normal),
        };
        let berserk_bonus =
            game.berserk && game.result == ArenaResult::Win && game.plies >= BERSERK_BONUS_PLIES;
        let scored = ScoredGame {
            game,
            points: base + u32::from(berserk_bonus),
            flag,
            berserk_bonus,
        };
        match game.result {
            ArenaResult::Win => {
                self.wins_in_a_row += 1;
                self.drawn_since_win = false;
            }
            ArenaResult::Draw => {
                self.wins_in_a_row = 0;
                self.drawn_since_win = true;
            }
            ArenaResult::Loss => self.wins_in_a_row = 0,
        }
        self.score += scored.points;
        self.colours.record(game.colour);
        self.games.push(scored);
        scored
    }

    /// The player.
    pub fn player(&self) -> PlayerId {
        self.player
    }

    /// The rules the sheet scores by.
    pub fn rules(&self) -> ArenaRules {
        self.rules
    }

    /// The points so far.
    pub fn score(&self) -> u32 {
        self.score
    }

    /// Whether the next game scores double: the last two games were won (and streaks
    /// are on).
    pub fn is_on_fire(&self) -> bool {
        self.rules.streaks && self.wins_in_a_row >= 2
    }

    /// The games in the order played, with their points.
    pub fn games(&self) -> &[ScoredGame] {
        &self.games
    }

    /// Lichess's tournament performance: the mean over games of the opponent's rating,
    /// plus [`PERFORMANCE_SPREAD`] for a win and minus it for a loss (integer mean,
    /// rounded towards zero). `None` under [`PERFORMANCE_MIN_GAMES`] games.
    pub fn performance(&self) -> Option<i32> {
        if self.games.len() < PERFORMANCE_MIN_GAMES {
            return None;
        }
        let sum: i64 = self
            .games
            .iter()
            .map(|g| {
                let rating = i64::from(g.game.opponent_rating);
                let spread = i64::from(PERFORMANCE_SPREAD);
                match g.game.result {
                    ArenaResult::Win => rating + spread,
                    ArenaResult::Draw => rating,
                    ArenaResult::Loss => rating - spread,
                }
            })
            .sum();
        i32::try_from(sum / self.games.len() as i64).ok()
    }

    /// The colours the player has had.
    pub fn colours(&self) -> ColourHistory {
        self.colours
    }

    /// The opponent of the last game.
    pub fn last_opponent(&self) -> Option<PlayerId> {
        self.games.last().map(|g| g.game.opponent)
    }

    /// The player as the pairing sees them, with their current `rating`.
    pub fn waiting(&self, rating: u16) -> Waiting {
        Waiting {
            id: self.player,
            score: self.score,
            rating,
            last_opponent: self.last_opponent(),
            colours: self.colours,
        }
    }
}

/// The sheets ranked: by score, then performance (none counts lowest), then id.
pub fn standings(sheets: &[ArenaSheet]) -> Vec<&ArenaSheet> {
    let mut ranked: Vec<&ArenaSheet> = sheets.iter().collect();
    ranked.sort_by_key(|s| (Reverse(s.score()), Reverse(s.performance()), s.player()));
    ranked
}

/// The colours a player has had, as much as pairing needs of them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColourHistory {
    /// Games with White less games with Black.
    pub balance: i32,
    /// The current run: `k` after `k` Whites in a row, `-k` after `k` Blacks, 0
    /// before the first game.
    pub run: i32,
}

impl ColourHistory {
    /// Adds a game played with `colour`.
    pub fn record(&mut self, colour: Colour) {
        match colour {
            Colour::White => {
                self.balance += 1;
                self.run = self.run.max(0) + 1;
            }
            Colour::Black => {
                self.balance -= 1;
                self.run = self.run.min(0) - 1;
            }
        }
    }

    /// The colour of the last game.
    pub fn last(self) -> Option<Colour> {
        match self.run {
            0 => None,
            r if r > 0 => Some(Colour::White),
            _ => Some(Colour::Black),
        }
    }
}

/// A player waiting for a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Waiting {
    /// The player.
    pub id: PlayerId,
    /// Arena points so far.
    pub score: u32,
    /// Current rating.
    pub rating: u16,
    /// The opponent of their last game, if any.
    pub last_opponent: Option<PlayerId>,
    /// Colours so far.
    pub colours: ColourHistory,
}

/// Whether two waiting players have just played each other.
fn just_met(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

/// Pairs the waiting players (see the module documentation): neighbours in the ranking,
/// never the opponent just played while any other pairing exists, colours by history.
/// Boards come out best-ranked first; a player on no board stays waiting.
///
/// ```
/// use caissa_tournament::arena::{pair, ColourHistory, Waiting};
///
/// let waiting = |id, score, last_opponent| Waiting {
///     id,
///     score,
///     rating: 1500,
///     last_opponent,
///     colours: ColourHistory::default(),
/// };
/// // 1 and 2 lead and just played each other: each gets the next one down instead.
/// let boards = pair(&[
///     waiting(1, 10, Some(2)),
///     waiting(2, 9, Some(1)),
///     waiting(3, 8, None),
///     waiting(4, 7, None),
/// ]);
/// let pairs: Vec<(u32, u32)> = boards.iter().map(|b| (b.white, b.black)).collect();
/// assert_eq!(pairs, [(1, 3), (2, 4)]);
/// ```
pub fn pair(waiting: &[Waiting]) -> Vec<Board> {
    let mut ranked: Vec<&Waiting> = waiting.iter().collect();
    ranked.sort_unstable_by_key(|w| (Reverse(w.score), Reverse(w.rating), w.id));
    // Pairs of positions in `ranked`, the better-ranked first.
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(ranked.len() / 2);
    // Players not paired yet, in rank order; more than one only when they all just met
    // the next player, so this stays tiny.
    let mut unpaired: Vec<usize> = Vec::new();
    for (rank, &player) in ranked.iter().enumerate() {
        match unpaired.iter().position(|&u| !just_met(ranked[u], player)) {
            Some(at) => pairs.push((unpaired.remove(at), rank)),
            None => unpaired.push(rank),
        }
    }
    // Left over: one player of an odd number, or players who just met each other.
    let mut left = unpaired.into_iter();
    while let (Some(a), Some(b)) = (left.next(), left.next()) {
        if !swap_in(&ranked, &mut pairs, a, b) {
            pairs.push((a, b));
        }
    }
    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|(high, low)| board(ranked[high], ranked[low]))
        .collect()
}

/// Breaks the rematch `a`–`b` by exchanging partners with the nearest board that allows
/// it; `false` if none does.
fn swap_in(ranked: &[&Waiting], pairs: &mut Vec<(usize, usize)>, a: usize, b: usize) -> bool {
    let ok = |x: usize, y: usize| !just_met(ranked[x], ranked[y]);
    for i in (0..pairs.len()).rev() {
        let (x, y) = pairs[i];
        let (first, second) = if ok(x, a) && ok(y, b) {
            ((x, a), (y, b))
        } else if ok(x, b) && ok(y, a) {
            ((x, b), (y, a))
        } else {
            continue;
        };
        let ordered = |(p, q): (usize, usize)| (p.min(q), p.max(q));
        pairs[i] = ordered(first);
        pairs.push(ordered(second));
        return true;
    }
    false
}

/// The board for two players, `high` the better-ranked: White to whoever had Black more
/// often, then to the longer run of Blacks, then to `high`.
fn board(high: &Waiting, low: &Waiting) -> Board {
    let claim = |w: &Waiting| (w.colours.balance, w.colours.run);
    if claim(low) < claim(high) {
        Board {
            white: low.id,
            black: high.id,
        }
    } else {
        Board {
            white: high.id,
            black: low.id,
        }
    }
}
