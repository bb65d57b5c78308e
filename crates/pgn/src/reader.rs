//! The streaming reader: bytes in, visitor callbacks out.
//!
//! The reader keeps one fixed-size buffer and one scratch buffer for the current
//! comment or tag value, so memory does not grow with the file. Short tokens (moves,
//! move numbers, NAGs, results) are read straight from the buffer; only comments and
//! tag values are copied, into the scratch buffer.
//!
//! Accepted: tag pairs with `\"` and `\\` escapes, and with unescaped quotes inside
//! the value (a `"` not followed by `]` belongs to it); `{...}` comments over several
//! lines; `;` comments to the end of the line; `%` escape lines; NAGs (`$14`) and
//! suffix annotations (`!`, `?`, `!!`, `??`, `!?`, `?!`, turned into NAGs 1–6);
//! variations nested to any depth; move numbers with `.` or `...`; results `1-0`,
//! `0-1`, `1/2-1/2`, `*`; a UTF-8 byte-order mark; LF, CRLF and CR line ends. A `[`
//! outside a comment ends the movetext (a new game starts); a stray `)` is ignored;
//! a variation the game ends in (its `)` missing) is an error.

use core::fmt;
use std::io::{self, Read};

use caissa_rules::san::San;

mod movetext;
mod tags;

/// What a visitor wants the reader to do next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on reading.
    Continue,
    /// Skip the rest of this part (the movetext, or the variation just begun).
    Skip,
}

/// Where something is in the input: 1-based line and byte column.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Location {
    /// Line number, from 1.
    pub line: u64,
    /// Byte column, from 1.
    pub column: u64,
}

/// A move token as read: parsed SAN, its text and where it stands.
#[derive(Copy, Clone, Debug)]
pub struct SanToken<'a> {
    /// The parsed move (syntax only; legality is the visitor's business).
    pub san: San,
    /// The token's bytes as written, without suffix annotations.
    pub raw: &'a [u8],
    /// Ply of the game this move would be (1 for the first move played, whatever the
    /// `FEN` tag's move number), counted in its own line: a variation's first move has
    /// the ply of the move it replaces.
    pub ply: u32,
    /// Variation depth: 0 on the mainline.
    pub depth: u32,
    /// Where the token starts.
    pub at: Location,
}

impl<'a> SanToken<'a> {
    /// The token as written (decoded on demand: most visitors never need it).
    pub fn text(&self) -> std::borrow::Cow<'a, str> {
        String::from_utf8_lossy(self.raw)
    }
}

/// A comment's bytes as read, decoded only if asked (most visitors ignore comments).
#[derive(Copy, Clone, Debug)]
pub struct RawComment<'a>(pub &'a [u8]);

impl<'a> RawComment<'a> {
    /// The raw bytes, without braces or semicolon.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The text, with invalid UTF-8 replaced by U+FFFD and line ends normalised to `\n`.
    pub fn text(&self) -> std::borrow::Cow<'a, str> {
        let text = String::from_utf8_lossy(self.0);
        if text.contains('\r') {
            text.replace("\r\n", "\n").replace('\r', "\n").into()
        } else {
            text
        }
    }
}

/// A problem found in the input, located precisely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based index of the game in the file.
    pub game: u64,
    /// Where the problem is.
    pub at: Location,
    /// The ply of the offending move, when there is one.
    pub ply: Option<u32>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}, column {}",
            self.game, self.at.line, self.at.column
        )?;
        if let Some(ply) = self.ply {
            write!(f, ", ply {ply}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for PgnError {}

/// Receives the parts of each game as the reader finds them.
///
/// Every method but [`Visitor::error`] and [`Visitor::end_game`] has a default that
/// ignores its input. Per-game state belongs in the visitor and is reset by
/// [`Visitor::begin_game`].
pub trait Visitor {
    /// What a game turns into.
    type Output;

    /// A new game starts; `game` is its 1-based index in the input.
    fn begin_game(&mut self, game: u64) {
        let _ = game;
    }
    /// A tag pair, with escapes resolved; `at` is where its `[` stands.
    fn tag(&mut self, name: &str, value: &str, at: Location) {
        let _ = (name, value, at);
    }
    /// The tags are over; return [`Flow::Skip`] to skip the movetext.
    fn end_tags(&mut self) -> Flow {
        Flow::Continue
    }
    /// A move. Return [`Flow::Skip`] to skip the rest of the game's movetext (for
    /// example after an illegal move).
    fn san(&mut self, token: SanToken<'_>) -> Flow;
    /// A numeric annotation glyph (`$n`, or a suffix like `!?` turned into one).
    fn nag(&mut self, nag: u8) {
        let _ = nag;
    }
    /// A comment, without its braces or semicolon.
    fn comment(&mut self, comment: RawComment<'_>) {
        let _ = comment;
    }
    /// A variation starts (an alternative to the move just read). Return
    /// [`Flow::Skip`] to skip it.
    fn begin_variation(&mut self) -> Flow {
        Flow::Continue
    }
    /// The variation ends.
    fn end_variation(&mut self) {}
    /// The game termination marker: `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn result(&mut self, result: &str) {
        let _ = result;
    }
    /// A syntax problem; the reader then skips to the end of this game.
    fn error(&mut self, error: PgnError);
    /// The game is over (by its result, a new game's tags, or the end of input).
    fn end_game(&mut self) -> Self::Output;
}

const BUFFER: usize = 1 << 16;
/// Longest token the reader accepts (a move, number or NAG).
const MAX_TOKEN: usize = 256;
/// How far past a `"` in a tag value the reader looks for what follows it.
const TAG_LOOKAHEAD: usize = 4096;

/// Reads games one at a time from any [`Read`].
pub struct Reader<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Absolute offset of `buf[0]` in the input.
    base: u64,
    line: u64,
    line_start: u64,
    game: u64,
    scratch: Vec<u8>,
    /// Comments read before the current game's first tag or move.
    pending_comments: Vec<Vec<u8>>,
    started: bool,
}

impl<'a> Reader<&'a [u8]> {
    /// A reader over bytes in memory.
    pub fn from_bytes(bytes: &'a [u8]) -> Reader<&'a [u8]> {
        Reader::new(bytes)
    }
}

impl<R: Read> Reader<R> {
    /// A reader over `inner` (no need to wrap it in a `BufReader`).
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            inner,
            buf: vec![0; BUFFER].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            game: 0,
            scratch: Vec::new(),
            pending_comments: Vec::new(),
            started: false,
        }
    }

    /// Bytes consumed so far (for progress reporting).
    pub fn bytes_read(&self) -> u64 {
        self.base + self.pos as u64
    }

    /// Reads the next game into `visitor`; `Ok(None)` at the end of the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if !self.started {
            self.started = true;
            self.ensure(3)?;
            if self.buf[self.pos..self.end].starts_with(b"\xef\xbb\xbf") {
                self.pos += 3;
                self.line_start = 3;
            }
        }
        self.skip_between_games()?;
        if self.peek()?.is_none() {
            return Ok(None);
        }
        self.game += 1;
        visitor.begin_game(self.game);
        let mut flow = Flow::Continue;
        let mut tags = 0;
        while self.peek_tag()? == Some(b'[') {
            tags += 1;
            if let Err((at, message)) = self.read_tag(visitor)? {
                visitor.error(PgnError {
                    game: self.game,
                    at,
                    ply: None,
                    message,
                });
                flow = Flow::Skip;
                break;
            }
        }
        if flow == Flow::Continue {
            flow = visitor.end_tags();
        } else {
            self.skip_tag_lines()?;
        }
        // Comments before a game without tags belong to it; before tags, to no game.
        if tags > 0 || flow == Flow::Skip {
            self.pending_comments.clear();
        }
        if flow == Flow::Continue {
            self.read_movetext(visitor)?;
        } else {
            self.skip_movetext(visitor)?;
        }
        Ok(Some(visitor.end_game()))
    }

    // ---- buffer management ----

    fn fill(&mut self) -> io::Result<()> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        while !self.eof && self.end < self.buf.len() {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    self.end += n;
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Makes at least `n` bytes available unless the input ends first.
    fn ensure(&mut self, n: usize) -> io::Result<()> {
        while self.end - self.pos < n && !self.eof {
            self.fill()?;
        }
        Ok(())
    }

    #[inline(always)]
    fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos < self.end {
            return Ok(Some(self.buf[self.pos]));
        }
        self.ensure(1)?;
        Ok(self.buf[self.pos..self.end].first().copied())
    }

    fn location(&self) -> Location {
        let offset = self.base + self.pos as u64;
        Location {
            line: self.line,
            column: offset - self.line_start + 1,
        }
    }

    fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    /// Consumes a byte already peeked, keeping the line count.
    #[inline(always)]
    fn bump(&mut self, b: u8) -> io::Result<()> {
        self.pos += 1;
        if b == b'\n' {
            self.new_line();
        } else if b == b'\r' {
            if self.peek()? == Some(b'\n') {
                self.pos += 1;
            }
            self.new_line();
        }
        Ok(())
    }

    fn new_line(&mut self) {
        self.line += 1;
        self.line_start = self.base + self.pos as u64;
    }

    /// Skips whitespace and returns the next byte, without consuming it.
    #[inline(always)]
    fn peek_after_ws(&mut self) -> io::Result<Option<u8>> {
        // Fast paths: no whitespace, or the single space between two tokens.
        if self.pos + 1 < self.end {
            let b = self.buf[self.pos];
            if b > b' ' {
                return Ok(Some(b));
            }
            let c = self.buf[self.pos + 1];
            if b == b' ' && c > b' ' {
                self.pos += 1;
                return Ok(Some(c));
            }
        }
        self.skip_whitespace()
    }

    #[inline(never)]
    fn skip_whitespace(&mut self) -> io::Result<Option<u8>> {
        loop {
            while self.pos < self.end {
                let b = self.buf[self.pos];
                match b {
                    b' ' | b'\t' => self.pos += 1,
                    b'\n' | b'\r' => self.bump(b)?,
                    _ => return Ok(Some(b)),
                }
            }
            self.ensure(1)?;
            if self.pos == self.end {
                return Ok(None);
            }
        }
    }

    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            self.bump(b)?;
            if b == b'\n' || b == b'\r' {
                break;
            }
        }
        Ok(())
    }

    /// Whitespace, `%` escape lines and stray comments between games.
    /// Whitespace, `%` escape lines and comments before a game. Comments are kept:
    /// they belong to the next game if it has no tags.
    fn skip_between_games(&mut self) -> io::Result<()> {
        self.pending_comments.clear();
        loop {
            match self.peek_after_ws()? {
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                Some(b';') => {
                    self.read_line_comment()?;
                    self.pending_comments.push(self.scratch.clone());
                }
                Some(b'{') => {
                    if self.read_comment()?.is_err() {
                        // Unclosed: the rest of the input was a comment.
                        return Ok(());
                    }
                    self.pending_comments.push(self.scratch.clone());
                }
                _ => return Ok(()),
            }
        }
    }
}
