//! Engine-versus-engine matches: the evidence of an engine's strength.
//!
//! * [`uci`] and [`xboard`] talk to engine processes, with a deadline on every wait;
//! * [`game`] plays one game: clocks ([`tc`]), the rules of chess from `caissa-rules`,
//!   [`adjudication`], and the losses an engine causes itself (time, illegal move,
//!   crash);
//! * [`runner`] plays a match: opening pairs from an EPD suite ([`openings`]; a
//!   balanced one ships with the crate), several games at once, PGN output ([`pgn`]),
//!   progress, and the result as Elo with error margin, LOS and SPRT ([`stats`]).
//!
//! ```no_run
//! use caissa_arena::{openings, runner, AdjudicationConfig, EngineConfig, GameSettings};
//!
//! let config = runner::MatchConfig {
//!     engines: [
//!         EngineConfig::from_command_line("stockfish").unwrap(),
//!         EngineConfig::from_command_line("caissa uci").unwrap(),
//!     ],
//!     settings: GameSettings {
//!         time_control: "10+0.1".parse().unwrap(),
//!         margin: std::time::Duration::from_millis(100),
//!         adjudication: AdjudicationConfig::default(),
//!     },
//!     games: 20,
//!     concurrency: 1,
//!     openings: openings::balanced(),
//!     seed: None,
//!     pgn: None,
//!     sprt: None,
//!     event: "Test".into(),
//!     site: "?".into(),
//! };
//! let report = runner::run_match(&config, &mut |_| {}).unwrap();
//! println!("{}{}", report.summary(), report.json());
//! ```

pub mod adjudication;
pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
mod process;
pub mod runner;
pub mod stats;
pub mod tc;
pub mod uci;
pub mod xboard;

pub use adjudication::{AdjudicationConfig, DrawRule, ResignRule};
pub use engine::{EngineConfig, EngineError, Player, Protocol, Score, ThinkRequest, Thought};
pub use game::{play_game, EndKind, GameRecord, GameSettings};
pub use runner::{run_match, MatchConfig, MatchEvent, MatchReport};
pub use stats::{EloEstimate, Pentanomial, Sprt, SprtStatus, Trinomial};
pub use tc::TimeControl;
