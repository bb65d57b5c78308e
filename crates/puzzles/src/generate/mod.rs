//! Finding puzzles in games with our engine.
//!
//! A game is scanned with a quick search of every position. A *candidate* is a
//! position where the side to move (the solver) is winning right after the
//! opponent's move, having not been winning before it: the opponent blundered.
//! Each candidate is then searched again with two principal variations at a
//! fixed node budget, and the line is built one solver move at a time:
//!
//! * every solver move must be the only good one: a mate where the second best
//!   does not mate, or at least [`WIN_CP`] where the second best is at most
//!   [`SECOND_MAX_CP`] and [`MARGIN_CP`] worse;
//! * the opponent answers with its best defence;
//! * a mate line goes on to checkmate (a mate in at most [`Options::max_mate`]);
//!   a material line stops at the first solver move after which, the reply
//!   included, the solver is at least two pawns up on where it stood before the
//!   blunder and still winning: the line is trimmed to where the win is clear.
//!
//! A candidate that fails any of these is dropped.

mod selfplay;
mod source;
mod themes;

pub use selfplay::self_play;
pub use source::{games_in_pgn, SourceGame};

use caissa_engine::{Engine, Limits, Score, SearchResult};
use caissa_openings::Openings;
use caissa_rules::{Color, Move, Position, Role};

use crate::Puzzle;

/// A winning advantage, in centipawns for the solver.
pub const WIN_CP: i32 = 200;
/// The second best move may leave the solver at most this well off.
pub const SECOND_MAX_CP: i32 = 150;
/// How much worse than the best the second best must be.
pub const MARGIN_CP: i32 = 300;
/// The opponent's move must have cost at least this much by the quick scan...
const BLUNDER_CP: i32 = 200;
/// ...and the solver must not have been this far ahead before it.
const CLEARLY_AHEAD_CP: i32 = 400;
/// The quick scan calls the solver winning from this.
const SCAN_WIN_CP: i32 = 220;
/// Mate scores on one scale with centipawns.
const MATE_SCORE: i32 = 100_000;

/// How hard the generator looks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Nodes for the quick scan of every position.
    pub scan_nodes: u64,
    /// Nodes for the two-line search of each solver move (the uniqueness check).
    pub check_nodes: u64,
    /// Nodes for the opponent's best reply.
    pub reply_nodes: u64,
    /// The longest mate kept, in solver moves.
    pub max_mate: usize,
    /// The longest material line kept, in solver moves.
    pub max_moves: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            scan_nodes: 2_500,
            check_nodes: 200_000,
            reply_nodes: 100_000,
            max_mate: 5,
            max_moves: 4,
        }
    }
}

/// Finds puzzles; keep one per thread (it owns an engine).
pub struct Generator {
    engine: Engine,
    options: Options,
    openings: &'static Openings,
    /// What it has done so far.
    pub stats: Stats,
}

/// Counts of a generator's work.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Games looked at.
    pub games: u64,
    /// Positions scanned.
    pub positions: u64,
    /// Blunders found by the scan.
    pub candidates: u64,
    /// Puzzles made of them.
    pub puzzles: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.games += other.games;
        self.positions += other.positions;
        self.candidates += other.candidates;
        self.puzzles += other.puzzles;
    }
}

/// A solver's score: centipawns, or [`MATE_SCORE`] less the moves to mate.
fn solver_score(score: Score) -> i32 {
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_SCORE - n,
        Score::Mate(n) => -MATE_SCORE - n,
    }
}

fn mate_in(score: i32) -> Option<usize> {
    (score > MATE_SCORE / 2).then(|| (MATE_SCORE - score) as usize)
}

/// The usual piece values in pawns.
pub(crate) fn piece_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// `color`'s material less its opponent's, in pawns.
pub(crate) fn balance(pos: &Position, color: Color) -> i32 {
    let board = pos.board();
    Role::ALL
        .iter()
        .map(|&role| {
            let mine = (board.by_role(role) & board.by_color(color)).count() as i32;
            let theirs = (board.by_role(role) & board.by_color(!color)).count() as i32;
            piece_value(role) * (mine - theirs)
        })
        .sum()
}

/// What kind of line is being built.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Goal {
    /// Mate in this many solver moves from the start.
    Mate(usize),
    /// Win material.
    Material,
}

impl Generator {
    /// A generator with its own 32 MB engine.
    pub fn new(options: Options) -> Generator {
        Generator {
            engine: Engine::new(32),
            options,
            openings: Openings::bundled(),
            stats: Stats::default(),
        }
    }

    fn search(&mut self, history: &[Position], nodes: u64, lines: usize) -> SearchResult {
        self.engine.multipv = lines;
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        self.engine
            .search(history, &limits, None, None, &mut |_| {})
    }

    /// Every puzzle found in `game`, in the order of the game.
    pub fn puzzles_in(&mut self, game: &SourceGame) -> Vec<Puzzle> {
        self.engine.new_game();
        let Some(positions) = game.positions() else {
            return Vec::new();
        };
        // evals[i]: the quick score of positions[i] for its side to move.
        let mut evals: Vec<Option<i32>> = Vec::with_capacity(positions.len());
        for i in 0..positions.len() {
            let eval = if positions[i].legal_moves().is_empty() {
                None
            } else {
                let result = self.search(&positions[..=i], self.options.scan_nodes, 1);
                Some(solver_score(result.score))
            };
            evals.push(eval);
        }
        self.stats.games += 1;
        self.stats.positions += positions.len() as u64;
        let mut found = Vec::new();
        let mut last_end = 0;
        for i in 1..positions.len() {
            let (Some(now), Some(before)) = (evals[i], evals[i - 1]) else {
                continue;
            };
            // A blunder: the solver now wins, and was not clearly ahead before.
            let was = -before;
            let blunder = now >= SCAN_WIN_CP
                && now - was >= BLUNDER_CP
                && (was < CLEARLY_AHEAD_CP || (mate_in(now).is_some() && mate_in(was).is_none()));
            if i < last_end || !blunder {
                continue;
            }
            self.stats.candidates += 1;
            if let Some(puzzle) = self.line_from(game, &positions[..=i]) {
                last_end = i + puzzle.moves.len();
                self.stats.puzzles += 1;
                found.push(puzzle);
            }
        }
        found
    }

    /// Builds the puzzle whose solver faces the last of `history`, if there is one.
    fn line_from(&mut self, game: &SourceGame, history: &[Position]) -> Option<Puzzle> {
        let ply = history.len() - 1;
        let before = history[ply - 1];
        let blunder = game.moves[ply - 1];
        let mut line = history.to_vec();
        let solver = line[ply].turn();
        let start_balance = balance(&line[ply], solver).max(balance(&before, solver));
        let mut moves = vec![blunder];
        let mut goal = None;
        let mut first_score = 0;
        for step in 0.. {
            let pos = *line.last()?;
            // Most candidates fail at the first move: a quick look first.
            let budget = if step == 0 && self.quick_reject(&line) {
                return None;
            } else {
                self.options.check_nodes
            };
            let result = self.search(&line, budget, 2);
            let best = result.lines.first()?;
            let best_score = solver_score(best.score);
            let second = result.lines.get(1).map(|l| solver_score(l.score));
            let goal = *goal.get_or_insert_with(|| match mate_in(best_score) {
                Some(n) => Goal::Mate(n),
                None => Goal::Material,
            });
            if step == 0 {
                first_score = best_score;
            }
            match goal {
                Goal::Mate(n) => {
                    if n > self.options.max_mate || mate_in(best_score) != Some(n - step) {
                        return None;
                    }
                    // No other move mates as fast: the solver must find the
                    // quickest mate; the last move may be any mate, but a mate
                    // in one must be the only one.
                    let left = n - step;
                    let rival = second.and_then(mate_in);
                    let ambiguous = if left == 1 {
                        step == 0 && rival == Some(1)
                    } else {
                        rival.is_some_and(|m| m <= left)
                    };
                    if ambiguous {
                        return None;
                    }
                }
                Goal::Material => {
                    if step >= self.options.max_moves || mate_in(best_score).is_some() {
                        return None;
                    }
                    let clear =
                        second.is_none_or(|s| s <= SECOND_MAX_CP && s <= best_score - MARGIN_CP);
                    if best_score < WIN_CP || !clear {
                        return None;
                    }
                }
            }
            let mv = best.mv;
            let mut after = pos;
            after.play_unchecked(mv);
            moves.push(mv);
            line.push(after);
            if after.legal_moves().is_empty() {
                // Checkmate ends a mate line; anything else (stalemate, or a
                // material line that mates) is not the puzzle we looked for.
                let mated = after.is_check() && goal == Goal::Mate(step + 1);
                return mated.then(|| self.finish(game, &line, ply, moves, first_score));
            }
            let reply = self.search(&line, self.options.reply_nodes, 1);
            let reply_move = reply.best_move?;
            if goal == Goal::Material {
                let mut replied = after;
                replied.play_unchecked(reply_move);
                let gained = balance(&replied, solver) - start_balance;
                if gained >= 2 && -solver_score(reply.score) >= WIN_CP {
                    return Some(self.finish(game, &line, ply, moves, first_score));
                }
            }
            let mut replied = after;
            replied.play_unchecked(reply_move);
            moves.push(reply_move);
            line.push(replied);
        }
        None
    }

    /// Whether a search of a fifth of the budget already finds a second move
    /// as good as the best (or no winning move): most blunders are not puzzles.
    fn quick_reject(&mut self, line: &[Position]) -> bool {
        let result = self.search(line, self.options.check_nodes / 5, 2);
        let (Some(best), second) = (result.lines.first(), result.lines.get(1)) else {
            return true;
        };
        let best = solver_score(best.score);
        let second = second.map(|l| solver_score(l.score));
        match (mate_in(best), second) {
            (Some(_), Some(s)) => mate_in(s).is_some_and(|m| m <= 1),
            (Some(_), None) => false,
            (None, Some(s)) => best < WIN_CP - 50 || s > best - MARGIN_CP / 2,
            (None, None) => best < WIN_CP - 50,
        }
    }

    /// The puzzle of `moves` (the blunder first) played from `line[ply - 1]`.
    fn finish(
        &self,
        game: &SourceGame,
        line: &[Position],
        ply: usize,
        moves: Vec<Move>,
        first_score: i32,
    ) -> Puzzle {
        let start = line[ply - 1];
        let opening = (ply <= themes::OPENING_PLIES)
            .then(|| self.openings.of_game(&line[..ply]))
            .flatten();
        let mut uci = Vec::with_capacity(moves.len());
        let mut pos = start;
        for &mv in &moves {
            uci.push(pos.to_uci(mv));
            pos.play_unchecked(mv);
        }
        let themes = themes::themes(
            &line[ply - 1..],
            &moves,
            ply,
            mate_in(first_score),
            first_score,
        );
        let game_url = if game.url.is_empty() {
            String::new()
        } else {
            format!("{}#{}", game.url, ply)
        };
        let fen = start.fen();
        Puzzle {
            id: puzzle_id(&fen, &uci),
            rating: themes::initial_rating(&themes, moves.len() / 2),
            rating_deviation: 500,
            popularity: 0,
            plays: 0,
            fen,
            moves: uci,
            themes,
            game_url,
            opening_tags: opening.map(|o| opening_tags(&o.name)).unwrap_or_default(),
        }
    }
}

/// lichess's opening tags for an opening name: the family, then the family and
/// variation (`Sicilian_Defense Sicilian_Defense_Najdorf_Variation`).
pub fn opening_tags(name: &str) -> Vec<String> {
    let tag = |s: &str| {
        s.split(|c: char| !c.is_ascii_alphanumeric() && c != '\'')
            .filter(|w| !w.is_empty())
            .map(|w| w.replace('\'', ""))
            .collect::<Vec<_>>()
            .join("_")
    };
    let family = name.split(':').next().unwrap_or(name);
    let mut tags = vec![tag(family)];
    if let Some((_, variation)) = name.split_once(':') {
        let first = variation.split(',').next().unwrap_or(variation);
        tags.push(format!("{}_{}", tags[0], tag(first)));
    }
    tags.retain(|t| !t.is_empty());
    tags.dedup();
    tags
}

/// A stable five-character id (letters and digits) for a puzzle's position and line.
pub fn puzzle_id(fen: &str, moves: &[String]) -> String {
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in fen.bytes().chain(moves.join(" ").bytes()) {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    (0..5)
        .map(|_| {
            let digit = DIGITS[(hash % 62) as usize] as char;
            hash /= 62;
            digit
        })
        .collect()
}

#[cfg(test)]
mod tests;
