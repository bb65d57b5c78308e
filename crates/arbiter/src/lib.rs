//! One chess game under a ruleset: clocks and time controls, draw offers, claims,
//! resignations, flag falls, illegal-move penalties, adjournment with a sealed move,
//! results and scores.
//!
//! Pure and deterministic: every call takes the current time in milliseconds as a
//! parameter; there is no wall clock, no I/O and no threads. A game is its event
//! log ([`Event`]): [`Game::from_events`] rebuilds it exactly.
//!
//! ```
//! use caissa_arbiter::{Action, Game, GameSetup, Ruleset, TimeControl, GameResult};
//! use caissa_rules::Color;
//!
//! let setup = GameSetup::new("Anna", "Boris", Ruleset::FideBlitz, TimeControl::fischer(180_000, 2_000));
//! let mut game = Game::new(setup.clone(), 0).unwrap();
//! for (i, mv) in ["f3", "e5", "g4", "Qh4#"].iter().enumerate() {
//!     let by = if i % 2 == 0 { Color::White } else { Color::Black };
//!     game.act(by, Action::play(mv.to_string()), 1_000 * (i as u64 + 1)).unwrap();
//! }
//! assert_eq!(game.finish().unwrap().result, GameResult::BlackWins);
//! let again = Game::from_events(setup, game.events()).unwrap();
//! assert_eq!(again.position(), game.position());
//! ```
//!
//! # Rulesets
//!
//! | parameter | fide-standard | fide-rapid | fide-blitz | fide-seed-edition | online | ladder |
//! |---|---|---|---|---|---|---|
//! | illegal move (7.5.5) | +2 min to opponent, 2nd loses | +1 min, 2nd loses (A.3) | +1 min, 2nd loses (B.3) | +2 min, 3rd loses | rejected | 3rd foul loses |
//! | wrong draw claim (9.5.3) | +2 min to opponent | +1 min to opponent | +1 min to opponent | +5 min to claimant's time used | refused | refused |
//! | clock starts | at the start (6.6) | at the start | at the start | at the start | after both first moves | at the start |
//! | abort | no | no | no | no | before 2 half-moves | before 2 half-moves |
//! | resign / offer a draw | any time (agreement after both moved, 5.2.3) | same | same | any time | any time | after 15 moves; offers on own turn, 3 per game |
//! | repeated offers | allowed (11.5) | allowed | allowed | allowed | 10 moves after a decline | at most 3 |
//! | flag fall | loss, draw if opponent cannot mate (6.9) | claimed by opponent (A.5.3) | claimed (B.3) | loss, draw vs lone king | loss, draw if opponent cannot mate | loss; void within 5 moves |
//! | 9.6 fivefold / 75 moves | automatic | automatic | automatic | not in that edition | automatic | automatic |
//! | threefold / 50 moves | claimed | claimed | claimed | claimed | claimed | automatic; 30 moves without progress draws |
//! | checks | — | — | — | — | — | 10 in a row or 30 received: draw |
//! | resignation vs no mating material | draw (5.1.2) | draw | draw | loss | loss | loss |
//! | Guidelines III (no increment) | yes | yes | no (III.2) | no | no | no |
//! | adjournment | yes | no | no | yes | no | no |
//! | default time (6.7) | 0 | 0 | 0 | 1 hour | — | — |
//! | claim a departed opponent | — | — | — | — | after 30 s | after 60 s |
//! | no first move in time | — | — | — | — | aborted (20–35 s by speed) | — |

mod clock;
mod envelope;
mod event;
mod game;
mod outcome;
mod ruleset;
mod time_control;

pub use clock::{Clock, ClockError, Side};
pub use envelope::Envelope;
pub use event::{ClaimKind, Event, EventKind};
pub use game::{Action, ActionError, ArbiterAction, ArbiterNote, Game, GameSetup, Status};
pub use outcome::{Finish, GameResult, Termination};
pub use ruleset::{FlagDraw, IllegalMoves, Params, Ruleset, UnknownRuleset, WrongClaim};
pub use time_control::{Delay, Period, Speed, TimeControl, TimeControlError};
