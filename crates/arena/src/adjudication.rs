//! Ending games early on the engines' own evaluations: resignation when both engines
//! agree one side is winning, a draw when both see a dead-level position late in the
//! game, mate announcements, and a hard cap on the game's length.

use caissa_rules::Color;

use crate::engine::Score;

/// `White` or `Black`.
pub fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The resign rule: both engines agree, for `moves` consecutive moves each, that the
/// same side is ahead by at least `score` centipawns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of each engine.
    pub moves: u32,
    /// Centipawns.
    pub score: i32,
}

/// The draw rule: from move `after_move` on, both engines' scores within `score`
/// centipawns of zero for `moves` consecutive moves each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// Earliest move number (the game's full-move counter).
    pub after_move: u32,
    /// Consecutive moves of each engine.
    pub moves: u32,
    /// Centipawns.
    pub score: i32,
}

/// Which adjudications apply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AdjudicationConfig {
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Adjudicate on mate scores: when an engine reports that it is being mated, or
    /// reports a mate for itself that the opponent's last score confirms (the
    /// opponent's score at least the resign threshold, 1000 cp without a resign rule,
    /// against itself).
    pub mate: bool,
    /// The game is drawn once this many moves are complete (full-move counter).
    pub max_moves: Option<u32>,
}

impl Default for AdjudicationConfig {
    /// Resign at 1000 cp for 4 moves, draw within 10 cp for 8 moves after move 40,
    /// mate scores on, draw at move 200.
    fn default() -> AdjudicationConfig {
        AdjudicationConfig {
            resign: Some(ResignRule {
                moves: 4,
                score: 1000,
            }),
            draw: Some(DrawRule {
                after_move: 40,
                moves: 8,
                score: 10,
            }),
            mate: true,
            max_moves: Some(200),
        }
    }
}

impl AdjudicationConfig {
    /// No adjudication at all (games end by the rules only).
    pub fn none() -> AdjudicationConfig {
        AdjudicationConfig {
            resign: None,
            draw: None,
            mate: false,
            max_moves: None,
        }
    }
}

/// Reads `key=value,...` pairs into numbers, checking the keys.
pub fn parse_pairs(text: &str, keys: &[&str]) -> Result<Vec<(String, i64)>, String> {
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part
            .split_once('=')
            .ok_or_else(|| format!("{part:?} is not key=value"))?;
        let key = key.trim().to_ascii_lowercase();
        if !keys.contains(&key.as_str()) {
            return Err(format!("unknown key {key:?} (expected one of {keys:?})"));
        }
        let value: i64 = value
            .trim()
            .parse()
            .map_err(|_| format!("{part:?}: not a whole number"))?;
        if value < 0 {
            return Err(format!("{part:?}: must not be negative"));
        }
        out.push((key, value));
    }
    Ok(out)
}

impl ResignRule {
    /// Reads `movecount=4,score=1000` (either may be left out).
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let mut rule = ResignRule {
            moves: 4,
            score: 1000,
        };
        for (key, value) in parse_pairs(text, &["movecount", "score"])? {
            match key.as_str() {
                "movecount" => rule.moves = value.clamp(1, 10_000) as u32,
                _ => rule.score = value.min(1_000_000) as i32,
            }
        }
        Ok(rule)
    }
}

impl DrawRule {
    /// Reads `movenumber=40,movecount=8,score=10` (any may be left out).
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let mut rule = DrawRule {
            after_move: 40,
            moves: 8,
            score: 10,
        };
        for (key, value) in parse_pairs(text, &["movenumber", "movecount", "score"])? {
            match key.as_str() {
                "movenumber" => rule.after_move = value.min(100_000) as u32,
                "movecount" => rule.moves = value.clamp(1, 10_000) as u32,
                _ => rule.score = value.min(1_000_000) as i32,
            }
        }
        Ok(rule)
    }
}

/// The adjudicator's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A win, with the reason.
    Win(Color, String),
    /// A draw, with the reason.
    Draw(String),
}

/// Follows one game's scores and decides when to end it.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    config: AdjudicationConfig,
    /// Consecutive plies whose score shows `resign_side` winning by the threshold.
    resign_streak: u32,
    resign_side: Option<Color>,
    /// Consecutive plies with a near-zero score past the draw rule's move number.
    draw_streak: u32,
    /// The last score each side reported, from White's point of view.
    last: [Option<i32>; 2],
}

impl Adjudicator {
    /// An adjudicator for a new game.
    pub fn new(config: AdjudicationConfig) -> Adjudicator {
        Adjudicator {
            config,
            resign_streak: 0,
            resign_side: None,
            draw_streak: 0,
            last: [None; 2],
        }
    }

    /// The rules in force.
    pub fn config(&self) -> &AdjudicationConfig {
        &self.config
    }

    fn resign_threshold(&self) -> i32 {
        self.config.resign.map_or(1000, |r| r.score)
    }

    /// Records the score `mover` reported with the move it just played, `fullmoves`
    /// being the full-move counter of the position before that move; says whether
    /// the game should end here.
    pub fn record(
        &mut self,
        mover: Color,
        score: Option<Score>,
        fullmoves: u32,
    ) -> Option<Verdict> {
        let white_score = score.map(|s| s.for_white(mover));
        self.last[mover.index()] = white_score;
        let Some(value) = white_score else {
            self.resign_streak = 0;
            self.resign_side = None;
            self.draw_streak = 0;
            return None;
        };

        if self.config.mate {
            if let Some(Score::Mate(n)) = score {
                let opponent = self.last[(!mover).index()];
                if n <= 0 {
                    return Some(Verdict::Win(
                        !mover,
                        format!("{} engine announces it is mated", side_name(mover)),
                    ));
                }
                let threshold = self.resign_threshold();
                let confirmed = opponent.is_some_and(|o| match mover {
                    Color::White => o >= threshold,
                    Color::Black => o <= -threshold,
                });
                if confirmed {
                    return Some(Verdict::Win(
                        mover,
                        format!(
                            "{} engine announces mate in {n}, confirmed by its opponent",
                            side_name(mover)
                        ),
                    ));
                }
            }
        }

        if let Some(rule) = self.config.resign {
            let winner = if value >= rule.score {
                Some(Color::White)
            } else if value <= -rule.score {
                Some(Color::Black)
            } else {
                None
            };
            match winner {
                Some(side) if self.resign_side == Some(side) => self.resign_streak += 1,
                Some(side) => {
                    self.resign_side = Some(side);
                    self.resign_streak = 1;
                }
                None => {
                    self.resign_side = None;
                    self.resign_streak = 0;
                }
            }
            if let Some(side) = self.resign_side {
                if self.resign_streak >= 2 * rule.moves {
                    return Some(Verdict::Win(
                        side,
                        format!(
                            "both engines agree {} is winning (|score| >= {} cp for {} moves)",
                            side_name(side),
                            rule.score,
                            rule.moves
                        ),
                    ));
                }
            }
        }

        if let Some(rule) = self.config.draw {
            if fullmoves >= rule.after_move && value.abs() <= rule.score {
                self.draw_streak += 1;
            } else {
                self.draw_streak = 0;
            }
            if self.draw_streak >= 2 * rule.moves {
                return Some(Verdict::Draw(format!(
                    "both engines agree the position is level (|score| <= {} cp for {} moves)",
                    rule.score, rule.moves
                )));
            }
        }
        None
    }

    /// A draw once `fullmoves` (the counter of the position now on the board) shows
    /// that the move limit has been played.
    pub fn move_limit(&self, fullmoves: u32) -> Option<Verdict> {
        let limit = self.config.max_moves?;
        (fullmoves > limit).then(|| Verdict::Draw(format!("move limit of {limit} moves reached")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(adj: &mut Adjudicator, plies: &[(i32, u32)]) -> Option<Verdict> {
        // Scores from White's point of view, alternating movers from White.
        let mut verdict = None;
        for (i, &(white_cp, fullmoves)) in plies.iter().enumerate() {
            let mover = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let own = if mover == Color::White {
                white_cp
            } else {
                -white_cp
            };
            verdict = adj.record(mover, Some(Score::Cp(own)), fullmoves);
            if verdict.is_some() {
                assert_eq!(i, plies.len() - 1, "ended early at ply {i}");
            }
        }
        verdict
    }

    #[test]
    fn resign_needs_both_engines_for_four_moves() {
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        let plies: Vec<(i32, u32)> = (0..8).map(|i| (1200, 10 + i / 2)).collect();
        let verdict = feed(&mut adj, &plies).unwrap();
        assert!(matches!(verdict, Verdict::Win(Color::White, _)));

        // Seven plies are not enough.
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        assert_eq!(feed(&mut adj, &plies[..7]), None);

        // One engine disagreeing breaks the streak.
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        let mut broken = plies.clone();
        broken[3].0 = 500;
        broken.extend_from_slice(&plies[..3]);
        assert_eq!(feed(&mut adj, &broken), None);

        // A losing Black.
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        let lost: Vec<(i32, u32)> = (0..8).map(|_| (-1000, 20)).collect();
        assert!(matches!(
            feed(&mut adj, &lost),
            Some(Verdict::Win(Color::Black, _))
        ));
    }

    #[test]
    fn draw_only_after_move_forty() {
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        let early: Vec<(i32, u32)> = (0..30).map(|_| (5, 30)).collect();
        assert_eq!(feed(&mut adj, &early), None);
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        let late: Vec<(i32, u32)> = (0..16)
            .map(|i| (if i % 2 == 0 { 10 } else { -3 }, 40))
            .collect();
        assert!(matches!(feed(&mut adj, &late), Some(Verdict::Draw(_))));
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        assert_eq!(feed(&mut adj, &late[..15]), None);
    }

    #[test]
    fn missing_scores_reset_streaks() {
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        for _ in 0..7 {
            assert_eq!(adj.record(Color::White, Some(Score::Cp(2000)), 10), None);
        }
        assert_eq!(adj.record(Color::Black, None, 10), None);
        assert_eq!(adj.record(Color::White, Some(Score::Cp(2000)), 10), None);
    }

    #[test]
    fn mate_scores() {
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        // Being mated is a concession.
        let v = adj.record(Color::Black, Some(Score::Mate(-2)), 30).unwrap();
        assert!(matches!(v, Verdict::Win(Color::White, _)));

        // Claiming a mate needs the opponent's agreement.
        let mut adj = Adjudicator::new(AdjudicationConfig::default());
        assert_eq!(adj.record(Color::White, Some(Score::Mate(3)), 30), None);
        assert_eq!(adj.record(Color::Black, Some(Score::Cp(-50)), 30), None);
        assert_eq!(adj.record(Color::White, Some(Score::Mate(2)), 31), None);
        assert_eq!(adj.record(Color::Black, Some(Score::Cp(-1500)), 31), None);
        let v = adj.record(Color::White, Some(Score::Mate(1)), 32).unwrap();
        assert!(matches!(v, Verdict::Win(Color::White, _)));

        let mut adj = Adjudicator::new(AdjudicationConfig {
            mate: false,
            ..AdjudicationConfig::none()
        });
        assert_eq!(adj.record(Color::Black, Some(Score::Mate(-1)), 30), None);
    }

    #[test]
    fn move_limit_and_parsing() {
        let adj = Adjudicator::new(AdjudicationConfig::default());
        assert_eq!(adj.move_limit(200), None);
        assert!(adj.move_limit(201).is_some());
        assert_eq!(
            Adjudicator::new(AdjudicationConfig::none()).move_limit(5000),
            None
        );
        assert_eq!(
            ResignRule::parse("movecount=3,score=600").unwrap(),
            ResignRule {
                moves: 3,
                score: 600
            }
        );
        assert_eq!(
            DrawRule::parse("movenumber=30").unwrap(),
            DrawRule {
                after_move: 30,
                moves: 8,
                score: 10
            }
        );
        assert!(DrawRule::parse("moves=3").is_err());
        assert!(ResignRule::parse("score=x").is_err());
    }
}
