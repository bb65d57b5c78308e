//! A visitor that replays every move with `caissa-rules`, variations included, and
//! reports each game's result, mainline length, final position and first error.

use caissa_rules::san::SanError;
use caissa_rules::Position;

use crate::reader::{Flow, Location, PgnError, SanToken, Visitor};
use crate::setup::SetupTags;

/// What replaying one game found.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// 1-based index of the game in the input.
    pub game: u64,
    /// The termination marker (or the `Result` tag when the movetext has none; `*`
    /// when neither is present).
    pub result: String,
    /// Mainline plies played (up to the error, if any).
    pub plies: u32,
    /// The mainline position after the last move played.
    pub position: Position,
    /// The first problem in the game, if any.
    pub error: Option<PgnError>,
}

/// One line being replayed: the position before its last move and the current one.
#[derive(Clone, Copy)]
struct Line {
    before: Position,
    current: Position,
}

/// Replays games; reuse one for a whole file.
#[derive(Default)]
pub struct Replayer {
    game: u64,
    setup: SetupTags,
    result_tag: Option<String>,
    result: Option<String>,
    plies: u32,
    lines: Vec<Line>,
    start: Option<Position>,
    error: Option<PgnError>,
}

impl Replayer {
    /// A replayer for standard games (Chess960 is taken from each game's tags).
    pub fn new() -> Replayer {
        Replayer::default()
    }

    fn fail(&mut self, at: Location, ply: Option<u32>, message: String) {
        if self.error.is_none() {
            self.error = Some(PgnError {
                game: self.game,
                at,
                ply,
                message,
            });
        }
    }
}

impl Visitor for Replayer {
    type Output = ReplayedGame;

    fn begin_game(&mut self, game: u64) {
        self.game = game;
        self.setup = SetupTags::default();
        self.result_tag = None;
        self.result = None;
        self.plies = 0;
        self.lines.clear();
        self.start = None;
        self.error = None;
    }

    fn tag(&mut self, name: &str, value: &str, at: Location) {
        if name == "Result" {
            self.result_tag = Some(value.to_string());
        }
        self.setup.tag(name, value, at);
    }

    fn end_tags(&mut self) -> Flow {
        match self.setup.starting_position() {
            Ok(pos) => {
                self.start = Some(pos);
                self.lines.push(Line {
                    before: pos,
                    current: pos,
                });
                Flow::Continue
            }
            Err((at, message)) => {
                self.fail(at, None, message);
                Flow::Skip
            }
        }
    }

    fn san(&mut self, token: SanToken<'_>) -> Flow {
        let Some(line) = self.lines.last_mut() else {
            return Flow::Skip;
        };
        match token.san.to_move(&line.current) {
            Ok(m) => {
                line.before = line.current;
                line.current.play_unchecked(m);
                if token.depth == 0 {
                    self.plies += 1;
                }
                Flow::Continue
            }
            Err(e) => {
                let message = match e {
                    SanError::Illegal { why, .. } => format!("{} is illegal: {why}", token.text()),
                    SanError::Ambiguous { why, .. } => {
                        format!("{} is ambiguous: {why}", token.text())
                    }
                    SanError::Syntax { why, .. } => {
                        format!("{:?} is not a move: {why}", token.text())
                    }
                };
                self.fail(token.at, Some(token.ply), message);
                Flow::Skip
            }
        }
    }

    fn begin_variation(&mut self) -> Flow {
        if let Some(&line) = self.lines.last() {
            self.lines.push(Line {
                before: line.before,
                current: line.before,
            });
        }
        Flow::Continue
    }

    fn end_variation(&mut self) {
        if self.lines.len() > 1 {
            self.lines.pop();
        }
    }

    fn result(&mut self, result: &str) {
        self.result = Some(result.to_string());
    }

    fn error(&mut self, error: PgnError) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    fn end_game(&mut self) -> ReplayedGame {
        let position = self
            .lines
            .first()
            .map(|l| l.current)
            .or(self.start)
            .unwrap_or_default();
        ReplayedGame {
            game: self.game,
            result: self
                .result
                .take()
                .or_else(|| self.result_tag.take())
                .unwrap_or_else(|| "*".to_string()),
            plies: self.plies,
            position,
            error: self.error.take(),
        }
    }
}
