//! Rulesets: the parameters that differ between the current FIDE Laws (standard,
//! rapid, blitz), the seed's older edition, online play and the seed's online game.
//! They are data; `Game` reads them and has no rule hard-coded per ruleset.

use core::fmt;
use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::time_control::Speed;

/// A named set of rules a game is played under.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ruleset {
    /// FIDE Laws 2023, standard play.
    FideStandard,
    /// FIDE Laws 2023 with Appendix A (rapid).
    FideRapid,
    /// FIDE Laws 2023 with Appendix B (blitz).
    FideBlitz,
    /// The seed's older edition of the Laws (articles 1–17).
    FideSeedEdition,
    /// What online players expect (lichess-like).
    Online,
    /// The seed's online game with its house rules.
    Ladder,
}

/// What happens when a player completes an illegal move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IllegalMoves {
    /// The move is refused and nothing else happens (online play).
    Reject,
    /// The position is restored and the opponent gets time; the `lose_at`-th illegal
    /// move by the same player loses (a draw if the opponent cannot mate).
    Penalize {
        /// Time added to the opponent for each illegal move before the losing one.
        opponent_bonus_ms: u64,
        /// The count of illegal moves that loses.
        lose_at: u32,
    },
}

/// What an incorrect draw claim costs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WrongClaim {
    /// Time added to the opponent's clock (FIDE 9.5.3).
    OpponentBonus(u64),
    /// Time removed from the claimant's clock (the seed edition: added to the
    /// claimant's time used).
    ClaimantPenalty(u64),
    /// Claims are only accepted when valid (online: the button is shown only then).
    Refuse,
}

/// When a fallen flag is a draw rather than a loss.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FlagDraw {
    /// The opponent cannot checkmate by any series of legal moves (Laws 6.9).
    CannotMate,
    /// The opponent has only the king left (the seed's edition: "a lone king cannot win").
    LoneKing,
}

/// The parameters of a ruleset. See the table in the crate documentation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Penalties for completed illegal moves.
    pub illegal_moves: IllegalMoves,
    /// The cost of an incorrect repetition or fifty-move claim.
    pub wrong_claim: WrongClaim,
    /// Half-moves played before the clock starts: 0 over the board (6.6), 2 online.
    pub clock_starts_after_plies: u32,
    /// A game may be aborted while fewer half-moves than this have been played.
    pub abort_before_plies: u32,
    /// A player must have made this many moves before resigning.
    pub resign_after_moves: u32,
    /// A player must have made this many moves before offering a draw.
    pub offer_after_moves: u32,
    /// Draw offers per player and game, if limited.
    pub max_offers: Option<u32>,
    /// Offers only when it is the offerer's turn.
    pub offer_on_own_turn_only: bool,
    /// After a declined offer, the decliner must offer or this many moves must pass
    /// before the same player offers again (against spamming; 11.5).
    pub offer_cooldown_moves: Option<u32>,
    /// A timeout while at most this many moves have been played makes the game void
    /// (the online game: "a timeout within the first 5 moves voids the game").
    pub void_timeout_within_moves: Option<u32>,
    /// Automatic draw after this many moves by each side without pawn move or capture
    /// (besides the Laws' claimable 50 and automatic 75).
    pub no_progress_draw_moves: Option<u32>,
    /// Draw after this many consecutive checks by one side without mate.
    pub consecutive_checks_draw: Option<u32>,
    /// Draw once a player has received this many checks in total without mate.
    pub total_checks_draw: Option<u32>,
    /// Whether fifty-move and threefold claims are made by the player (FIDE) or the
    /// game is drawn as soon as they hold.
    pub automatic_claimable_draws: bool,
    /// Whether a flag fall must be claimed by the opponent (otherwise the clock's
    /// flag ends the game at once).
    pub flag_must_be_claimed: bool,
    /// When a flag falls and the opponent cannot win, the game is drawn.
    pub flag_draw: FlagDraw,
    /// Fivefold repetition and the 75-move rule end the game automatically (9.6;
    /// not in the seed's older edition).
    pub automatic_fivefold_and_75: bool,
    /// Resigning when the opponent cannot mate is a draw (5.1.2).
    pub resign_draw_if_opponent_cannot_mate: bool,
    /// Draw agreement only after both players have moved (5.2.3).
    pub agreement_after_both_moved: bool,
    /// Guidelines III (games without increment): under two minutes a player may ask
    /// for a 5 s increment or claim a draw for the arbiter to decide.
    pub guidelines_iii: bool,
    /// Time added to the opponent when the Guidelines III increment is granted.
    pub guidelines_iii_bonus_ms: u64,
    /// Whether games may be adjourned with a sealed move (Guidelines I).
    pub adjournment: bool,
    /// A player who has not made a first move within this time after the start
    /// loses by default (6.7; the seed: one hour); `None`: no default time.
    pub default_time_ms: Option<u64>,
    /// The opponent of a player gone for this long may claim victory (online).
    pub gone_claim_after_ms: Option<u64>,
    /// Whether the players may agree to take moves back (the online game's casual
    /// custom; the Laws know no such thing: a completed move stands, 4.6–4.7).
    pub takebacks: bool,
    /// Whether a real-time game is aborted when a player's first move does not come
    /// in time ([`Params::first_move_ms`]): White's counted from the start, Black's
    /// from White's first move (online, where nobody waits at a board for a no-show).
    #[serde(default)]
    pub abort_without_first_move: bool,
}

impl Params {
    /// How long a player has for the first move where a game is aborted without
    /// it, by the game's speed (20 s for bullet to 35 s for classical, as lichess);
    /// `None` if the ruleset waits, or the game is correspondence or has no clock.
    pub fn first_move_ms(&self, speed: Speed) -> Option<u64> {
        if !self.abort_without_first_move {
            return None;
        }
        match speed {
            Speed::Bullet => Some(20_000),
            Speed::Blitz => Some(25_000),
            Speed::Rapid => Some(30_000),
            Speed::Classical => Some(35_000),
            Speed::Correspondence | Speed::Unlimited => None,
        }
    }
}

impl Ruleset {
    /// Every ruleset.
    pub const ALL: [Ruleset; 6] = [
        Ruleset::FideStandard,
        Ruleset::FideRapid,
        Ruleset::FideBlitz,
        Ruleset::FideSeedEdition,
        Ruleset::Online,
        Ruleset::Ladder,
    ];

    /// Its name, as in `fide-standard`.
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::FideStandard => "fide-standard",
            Ruleset::FideRapid => "fide-rapid",
            Ruleset::FideBlitz => "fide-blitz",
            Ruleset::FideSeedEdition => "fide-seed-edition",
            Ruleset::Online => "online",
            Ruleset::Ladder => "ladder",
        }
    }

    /// Whether the ruleset is one of the over-the-board editions of the Laws.
    pub fn is_over_the_board(self) -> bool {
        !matches!(self, Ruleset::Online | Ruleset::Ladder)
    }

    /// The parameters.
    pub fn params(self) -> Params {
        let fide = Params {
            illegal_moves: IllegalMoves::Penalize {
                opponent_bonus_ms: 120_000,
                lose_at: 2,
            },
            wrong_claim: WrongClaim::OpponentBonus(120_000),
            clock_starts_after_plies: 0,
            abort_before_plies: 0,
            resign_after_moves: 0,
            offer_after_moves: 0,
            max_offers: None,
            offer_on_own_turn_only: false,
            offer_cooldown_moves: None,
            void_timeout_within_moves: None,
            no_progress_draw_moves: None,
            consecutive_checks_draw: None,
            total_checks_draw: None,
            automatic_claimable_draws: false,
            flag_must_be_claimed: false,
            flag_draw: FlagDraw::CannotMate,
            automatic_fivefold_and_75: true,
            resign_draw_if_opponent_cannot_mate: true,
            agreement_after_both_moved: true,
            guidelines_iii: true,
            guidelines_iii_bonus_ms: 120_000,
            adjournment: true,
            default_time_ms: Some(0),
            gone_claim_after_ms: None,
            takebacks: false,
            abort_without_first_move: false,
        };
        match self {
            Ruleset::FideStandard => fide,
            // A.3: penalties of one minute instead of two; A.5.3: flags are claimed.
            Ruleset::FideRapid => Params {
                illegal_moves: IllegalMoves::Penalize {
                    opponent_bonus_ms: 60_000,
                    lose_at: 2,
                },
                wrong_claim: WrongClaim::OpponentBonus(60_000),
                flag_must_be_claimed: true,
                adjournment: false,
                ..fide
            },
            // B.3: the rapid rules apply; Guidelines III never apply to blitz (III.2).
            Ruleset::FideBlitz => Params {
                illegal_moves: IllegalMoves::Penalize {
                    opponent_bonus_ms: 60_000,
                    lose_at: 2,
                },
                wrong_claim: WrongClaim::OpponentBonus(60_000),
                flag_must_be_claimed: true,
                guidelines_iii: false,
                adjournment: false,
                ..fide
            },
            // The seed's edition: the third illegal move loses (two penalties first), a
            // wrong claim adds five minutes to the claimant's time used, no automatic
            // fivefold/75 (handled by the game: they are the current Laws' additions),
            // one hour default time, adjournment.
            Ruleset::FideSeedEdition => Params {
                illegal_moves: IllegalMoves::Penalize {
                    opponent_bonus_ms: 120_000,
                    lose_at: 3,
                },
                wrong_claim: WrongClaim::ClaimantPenalty(300_000),
                flag_draw: FlagDraw::LoneKing,
                automatic_fivefold_and_75: false,
                resign_draw_if_opponent_cannot_mate: false,
                agreement_after_both_moved: false,
                guidelines_iii: false,
                default_time_ms: Some(3_600_000),
                ..fide
            },
            Ruleset::Online => Params {
                illegal_moves: IllegalMoves::Reject,
                wrong_claim: WrongClaim::Refuse,
                clock_starts_after_plies: 2,
                abort_before_plies: 2,
                offer_cooldown_moves: Some(10),
                guidelines_iii: false,
                adjournment: false,
                default_time_ms: None,
                gone_claim_after_ms: Some(30_000),
                takebacks: true,
                abort_without_first_move: true,
                resign_draw_if_opponent_cannot_mate: false,
                ..fide
            },
            Ruleset::Ladder => Params {
                illegal_moves: IllegalMoves::Penalize {
                    opponent_bonus_ms: 0,
                    lose_at: 3,
                },
                wrong_claim: WrongClaim::Refuse,
                clock_starts_after_plies: 0,
                abort_before_plies: 2,
                resign_after_moves: 15,
                offer_after_moves: 15,
                max_offers: Some(3),
                offer_on_own_turn_only: true,
                void_timeout_within_moves: Some(5),
                no_progress_draw_moves: Some(30),
                consecutive_checks_draw: Some(10),
                total_checks_draw: Some(30),
                automatic_claimable_draws: true,
                resign_draw_if_opponent_cannot_mate: false,
                guidelines_iii: false,
                adjournment: false,
                default_time_ms: None,
                gone_claim_after_ms: Some(60_000),
                ..fide
            },
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown ruleset name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown ruleset {0:?} (expected one of fide-standard, fide-rapid, fide-blitz, fide-seed-edition, online, ladder)")]
pub struct UnknownRuleset(pub String);

impl FromStr for Ruleset {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        Ruleset::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownRuleset(s.to_string()))
    }
}
