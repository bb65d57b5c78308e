//! Whole games as trees: tags, the mainline, and variations with their comments
//! and NAGs. Built by [`TreeBuilder`], a visitor, for callers who want the game.

use std::time::Duration;

use caissa_rules::san::San;

use crate::clock;
use crate::reader::{Flow, Location, PgnError, RawComment, SanToken, Visitor};
use crate::setup::SetupTags;

/// A game as written: tags and movetext, not yet checked for legality.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameTree {
    /// Tag pairs in the order read.
    pub tags: Vec<(String, String)>,
    /// The mainline, with comments before its first move.
    pub mainline: Variation,
    /// The termination marker (`*` when absent).
    pub result: String,
}

/// A line of moves: the mainline or an alternative to one move.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Variation {
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// The moves in order.
    pub moves: Vec<Node>,
}

/// One move with what is attached to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The move.
    pub san: San,
    /// Numeric annotation glyphs.
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move.
    pub variations: Vec<Variation>,
}

impl Node {
    /// A move with nothing attached.
    pub fn new(san: San) -> Node {
        Node {
            san,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }

    /// The mover's clock after the move, from a `[%clk]` comment.
    pub fn clock(&self) -> Option<Duration> {
        self.comments.iter().find_map(|c| clock::clk(c))
    }

    /// The time the move took, from an `[%emt]` comment.
    pub fn elapsed(&self) -> Option<Duration> {
        self.comments.iter().find_map(|c| clock::emt(c))
    }
}

impl GameTree {
    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing one of the same name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(tag) => tag.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }
}

/// Builds a [`GameTree`] per game, or returns the game's first syntax error, or its
/// `FEN` or `Variant` tag if that describes no starting position. Moves are not
/// checked for legality (a [`crate::Replayer`] or [`crate::write_game`] does that).
#[derive(Default)]
pub struct TreeBuilder {
    game: u64,
    tree: GameTree,
    setup: SetupTags,
    /// Open lines: the mainline first, then nested variations.
    stack: Vec<Variation>,
    error: Option<PgnError>,
}

impl TreeBuilder {
    /// A builder to reuse for a whole file.
    pub fn new() -> TreeBuilder {
        TreeBuilder::default()
    }
}

impl Visitor for TreeBuilder {
    type Output = Result<GameTree, PgnError>;

    fn begin_game(&mut self, game: u64) {
        self.game = game;
        self.tree = GameTree::default();
        self.setup = SetupTags::default();
        self.stack = vec![Variation::default()];
        self.error = None;
    }

    fn tag(&mut self, name: &str, value: &str, at: Location) {
        self.tree.tags.push((name.to_string(), value.to_string()));
        self.setup.tag(name, value, at);
    }

    fn end_tags(&mut self) -> Flow {
        // Found here, the error can name the tag's line; the writer could not.
        match self.setup.starting_position() {
            Ok(_) => Flow::Continue,
            Err((at, message)) => {
                self.error.get_or_insert(PgnError {
                    game: self.game,
                    at,
                    ply: None,
                    message,
                });
                Flow::Skip
            }
        }
    }

    fn san(&mut self, token: SanToken<'_>) -> Flow {
        if let Some(line) = self.stack.last_mut() {
            line.moves.push(Node::new(token.san));
        }
        Flow::Continue
    }

    fn nag(&mut self, nag: u8) {
        if let Some(node) = self.stack.last_mut().and_then(|l| l.moves.last_mut()) {
            node.nags.push(nag);
        }
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        let text = comment.text().trim().to_string();
        if let Some(line) = self.stack.last_mut() {
            match line.moves.last_mut() {
                Some(node) => node.comments.push(text),
                None => line.comments.push(text),
            }
        }
    }

    fn begin_variation(&mut self) -> Flow {
        let has_move = self.stack.last().is_some_and(|l| !l.moves.is_empty());
        if has_move {
            self.stack.push(Variation::default());
            Flow::Continue
        } else {
            // An alternative to no move: nothing to attach it to.
            Flow::Skip
        }
    }

    fn end_variation(&mut self) {
        if self.stack.len() > 1 {
            let variation = self.stack.pop().unwrap_or_default();
            if let Some(node) = self.stack.last_mut().and_then(|l| l.moves.last_mut()) {
                node.variations.push(variation);
            }
        }
    }

    fn result(&mut self, result: &str) {
        self.tree.result = result.to_string();
    }

    fn error(&mut self, error: PgnError) {
        self.error.get_or_insert(error);
    }

    fn end_game(&mut self) -> Result<GameTree, PgnError> {
        while self.stack.len() > 1 {
            self.end_variation();
        }
        self.tree.mainline = self.stack.pop().unwrap_or_default();
        if self.tree.result.is_empty() {
            self.tree.result = "*".to_string();
        }
        match self.error.take() {
            Some(e) => Err(e),
            None => Ok(std::mem::take(&mut self.tree)),
        }
    }
}
