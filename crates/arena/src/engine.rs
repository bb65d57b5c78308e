//! What the match runner needs from a player, whatever protocol it speaks: the
//! [`Player`] trait, engine settings, scores and errors.

use core::fmt;
use std::time::Duration;

use caissa_rules::{Color, Position};

/// The protocol an engine speaks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Protocol {
    /// The Universal Chess Interface.
    #[default]
    Uci,
    /// The Chess Engine Communication Protocol (xboard/WinBoard), version 2.
    Xboard,
}

/// How to start and set up an engine.
#[derive(Clone, Debug, Default)]
pub struct EngineConfig {
    /// Display name; the engine's own (`id name`, `myname`) when `None`.
    pub name: Option<String>,
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Options to set after the handshake, as name and value.
    pub options: Vec<(String, String)>,
    /// The protocol.
    pub protocol: Protocol,
    /// Echo the conversation with the engine on stderr.
    pub debug: bool,
}

impl EngineConfig {
    /// An engine started by `command` (program then arguments, shell-style quoting).
    pub fn from_command_line(command: &str) -> Result<EngineConfig, String> {
        Ok(EngineConfig {
            command: split_command(command)?,
            ..EngineConfig::default()
        })
    }
}

/// Splits a command line into words: whitespace separates, single quotes keep text as
/// is, double quotes keep spaces, a backslash escapes the next character.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated ' in {text:?}")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err(format!("trailing \\ in {text:?}")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unterminated \" in {text:?}")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing \\ in {text:?}")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".to_string());
    }
    Ok(words)
}

/// An evaluation, from the point of view of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

/// Centipawn value given to mate scores (minus the distance, so nearer mates rank
/// higher).
pub const MATE_CP: i32 = 100_000;

impl Score {
    /// The score as centipawns, mates mapped to about ±[`MATE_CP`].
    pub fn centipawns(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(n) if n > 0 => MATE_CP - n,
            Score::Mate(n) => -MATE_CP - n,
        }
    }

    /// The score from White's point of view when `mover` reported it.
    pub fn for_white(self, mover: Color) -> i32 {
        match mover {
            Color::White => self.centipawns(),
            Color::Black => -self.centipawns(),
        }
    }
}

impl fmt::Display for Score {
    /// `+0.35`, `-1.20`, `+M3`, `-M2` (the cutechess style of PGN comments).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Score::Mate(n) if n > 0 => write!(f, "+M{n}"),
            Score::Mate(n) => write!(f, "-M{}", n.unsigned_abs()),
        }
    }
}

/// What a player is asked: the game so far and the clocks.
#[derive(Clone, Debug)]
pub struct ThinkRequest<'a> {
    /// The position the game started from.
    pub start: &'a Position,
    /// The same as a FEN.
    pub start_fen: &'a str,
    /// The moves played since, in UCI notation.
    pub moves: &'a [String],
    /// The current position.
    pub position: &'a Position,
    /// Time left, indexed by [`Color::index`].
    pub clocks: [Duration; 2],
    /// Increment per move, indexed by [`Color::index`].
    pub increments: [Duration; 2],
    /// Moves to the next time period, if the time control has periods.
    pub moves_to_go: Option<u32>,
    /// How long the player may take before it loses on time (its clock plus the
    /// margin the runner allows).
    pub deadline: Duration,
}

/// A player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move, in UCI notation (unchecked), or [`RESIGN`].
    pub best: String,
    /// The last principal-variation score reported, if any.
    pub score: Option<Score>,
    /// The depth that score came from.
    pub depth: Option<u32>,
    /// Time from the request to the answer.
    pub elapsed: Duration,
}

/// The [`Thought::best`] of a player that resigns (xboard engines can).
pub const RESIGN: &str = "resign";

/// Why a player failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be started.
    Start(String),
    /// No answer in time; says what was awaited.
    Timeout(String),
    /// The engine exited or closed its output; says how.
    Crashed(String),
    /// The engine said something that breaks the protocol.
    Protocol(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Start(s) => write!(f, "could not start: {s}"),
            EngineError::Timeout(s) => write!(f, "timed out: {s}"),
            EngineError::Crashed(s) => write!(f, "crashed: {s}"),
            EngineError::Protocol(s) => write!(f, "protocol error: {s}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A participant in games: an engine process, or anything else that picks moves.
pub trait Player: Send {
    /// The display name.
    fn name(&self) -> &str;

    /// Prepares for a new game (restarting the engine first if an earlier failure left
    /// it dead or out of step).
    fn new_game(&mut self) -> Result<(), EngineError>;

    /// The move to play. A [`EngineError::Timeout`] is a loss on time.
    fn think(&mut self, request: &ThinkRequest<'_>) -> Result<Thought, EngineError>;

    /// The game is over (`1-0`, `0-1` or `1/2-1/2`, with the reason).
    fn game_over(&mut self, _result: &str, _reason: &str) {}

    /// Problems found while starting (such as options the engine does not declare).
    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}
