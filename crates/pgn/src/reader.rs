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

    // ---- tags ----

    /// Reads one `[Name "value"]`; `Ok(Err((at, message)))` on a syntax error, located
    /// at the name or value at fault, or where the `]` should be.
    fn read_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> io::Result<Result<(), (Location, String)>> {
        let at = self.location();
        self.pos += 1; // '['
        let _ = self.peek_after_ws()?;
        self.ensure(MAX_TOKEN)?;
        let name_at = self.location();
        let start = self.pos;
        let limit = self.end.min(start + MAX_TOKEN);
        while self.pos < limit
            && (self.buf[self.pos].is_ascii_alphanumeric() || self.buf[self.pos] == b'_')
        {
            self.pos += 1;
        }
        if self.pos == start + MAX_TOKEN {
            let message = format!("a tag name is longer than {} bytes", MAX_TOKEN - 1);
            return Ok(Err((name_at, message)));
        }
        if self.pos == start {
            let message = "a tag must start with its name, as in [Event \"...\"]".into();
            return Ok(Err((name_at, message)));
        }
        let name = String::from_utf8_lossy(&self.buf[start..self.pos]).into_owned();
        if self.peek_after_ws()? != Some(b'"') {
            return Ok(Err((
                self.location(),
                format!("tag {name} has no quoted value"),
            )));
        }
        let value_at = self.location();
        self.pos += 1;
        self.scratch.clear();
        loop {
            let Some(b) = self.peek()? else {
                let message = format!("tag {name}: the value is not closed with '\"'");
                return Ok(Err((value_at, message)));
            };
            match b {
                b'"' if self.closes_tag_value()? => {
                    self.pos += 1;
                    break;
                }
                b'\\' => {
                    self.pos += 1;
                    match self.peek()? {
                        Some(c @ (b'"' | b'\\')) => {
                            self.pos += 1;
                            self.scratch.push(c);
                        }
                        _ => self.scratch.push(b'\\'),
                    }
                }
                b'\n' | b'\r' => {
                    let message =
                        format!("tag {name}: the value is not closed before the end of the line");
                    return Ok(Err((value_at, message)));
                }
                _ => {
                    self.pos += 1;
                    self.scratch.push(b);
                }
            }
        }
        let bracket_at = self.location();
        if self.peek_after_ws()? != Some(b']') {
            let message = format!("tag {name} is not closed with ']'");
            return Ok(Err((bracket_at, message)));
        }
        self.pos += 1;
        let value = String::from_utf8_lossy(&self.scratch);
        visitor.tag(&name, &value, at);
        Ok(Ok(()))
    }

    /// Whether the `"` at `pos` closes a tag value: it does when `]` follows it (after
    /// blanks) or when no unescaped `"` follows it on its line. Other quotes belong to
    /// the value, as written by exporters that do not escape them.
    fn closes_tag_value(&mut self) -> io::Result<bool> {
        if self.end - self.pos < TAG_LOOKAHEAD {
            self.ensure(TAG_LOOKAHEAD)?;
        }
        // A fixed window, so that how the input arrives in reads never changes the answer.
        let rest = &self.buf[self.pos + 1..self.end.min(self.pos + TAG_LOOKAHEAD)];
        if rest.iter().find(|&&b| b != b' ' && b != b'\t') == Some(&b']') {
            return Ok(true);
        }
        let line = &rest[..memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len())];
        let mut i = 0;
        while i < line.len() {
            match line[i] {
                b'"' => return Ok(false),
                b'\\' if matches!(line.get(i + 1), Some(b'"' | b'\\')) => i += 2,
                _ => i += 1,
            }
        }
        Ok(true)
    }

    fn skip_tag_lines(&mut self) -> io::Result<()> {
        self.skip_line()?;
        while self.peek_tag()? == Some(b'[') {
            self.skip_line()?;
        }
        Ok(())
    }

    /// Like `peek_after_ws`, also skipping `%` escape lines (allowed between tags).
    fn peek_tag(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.peek_after_ws()? {
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                other => return Ok(other),
            }
        }
    }

    // ---- movetext ----

    /// The common case: a comment wholly in the buffer, passed on without copying.
    /// Returns its byte range and consumes it, or `None` (nothing consumed).
    #[inline]
    fn comment_in_buffer(&mut self) -> io::Result<Option<(usize, usize)>> {
        const LOOKAHEAD: usize = 1024;
        if self.end - self.pos < LOOKAHEAD {
            self.ensure(LOOKAHEAD)?;
        }
        let start = self.pos + 1;
        let Some(i) = memchr::memchr(b'}', &self.buf[start..self.end]) else {
            return Ok(None);
        };
        if memchr::memchr2(b'\n', b'\r', &self.buf[start..start + i]).is_some() {
            self.pos = start;
            self.count_lines(i);
        }
        self.pos = start + i + 1;
        Ok(Some((start, start + i)))
    }

    fn read_comment(&mut self) -> io::Result<Result<(), String>> {
        self.pos += 1; // '{'
        self.scratch.clear();
        loop {
            if self.end - self.pos < 2 {
                self.ensure(2)?;
                if self.pos == self.end {
                    return Ok(Err(
                        "comment not closed with '}' before the end of the input".into(),
                    ));
                }
            }
            let chunk = &self.buf[self.pos..self.end];
            let (len, closed) = match chunk.iter().position(|&b| b == b'}') {
                Some(i) => (i, true),
                // Keep a trailing '\r' for the next round, to see whether '\n' follows.
                None if chunk.last() == Some(&b'\r') && !self.eof => (chunk.len() - 1, false),
                None => (chunk.len(), false),
            };
            self.scratch.extend_from_slice(&chunk[..len]);
            self.count_lines(len);
            if closed {
                self.pos += 1;
                return Ok(Ok(()));
            }
        }
    }

    /// Consumes `len` bytes of comment text, counting the line ends in them.
    fn count_lines(&mut self, len: usize) {
        let start = self.pos;
        let bytes = &self.buf[start..start + len];
        for (i, &b) in bytes.iter().enumerate() {
            let crlf_tail = b == b'\n' && i > 0 && bytes[i - 1] == b'\r';
            if (b == b'\n' && !crlf_tail) || b == b'\r' {
                self.line += 1;
            }
            if b == b'\n' || b == b'\r' {
                self.line_start = self.base + (start + i + 1) as u64;
            }
        }
        self.pos += len;
    }

    fn read_line_comment(&mut self) -> io::Result<()> {
        self.pos += 1; // ';'
        self.scratch.clear();
        while let Some(b) = self.peek()? {
            if b == b'\n' || b == b'\r' {
                break;
            }
            self.scratch.push(b);
            self.pos += 1;
        }
        Ok(())
    }

    /// The length of the token at `pos` (up to a delimiter), the buffer holding it.
    #[inline]
    fn token_len(&mut self) -> io::Result<usize> {
        if self.end - self.pos < MAX_TOKEN {
            self.ensure(MAX_TOKEN)?;
        }
        // Only a window of MAX_TOKEN bytes, so that how the input arrives in reads
        // never changes where a token ends.
        let bytes = &self.buf[self.pos..self.end.min(self.pos + MAX_TOKEN)];
        Ok(bytes
            .iter()
            .position(|&b| DELIMITERS[b as usize])
            .unwrap_or(bytes.len()))
    }

    /// Consumes the rest of an overlong token, whatever its length.
    fn skip_token(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if DELIMITERS[b as usize] {
                break;
            }
            self.pos += 1;
        }
        Ok(())
    }

    fn read_movetext<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        for comment in std::mem::take(&mut self.pending_comments) {
            visitor.comment(RawComment(&comment));
        }
        // Ply counters: one per open line (mainline first).
        let mut plies: Vec<u32> = vec![0];
        // Where each open variation's `(` stands, outermost first.
        let mut open: Vec<Location> = Vec::new();
        loop {
            let Some(b) = self.peek_after_ws()? else {
                self.check_closed(visitor, &open, "the end of the input");
                return Ok(());
            };
            let at = self.location();
            match b {
                b'[' => {
                    self.check_closed(visitor, &open, "the next game");
                    return Ok(());
                }
                b'%' if self.at_line_start() => self.skip_line()?,
                b'{' => {
                    if let Some((start, end)) = self.comment_in_buffer()? {
                        visitor.comment(RawComment(&self.buf[start..end]));
                        continue;
                    }
                    if let Err(message) = self.read_comment()? {
                        visitor.error(PgnError {
                            game: self.game,
                            at,
                            ply: None,
                            message,
                        });
                        return Ok(());
                    }
                    visitor.comment(RawComment(&self.scratch));
                }
                b';' => {
                    self.read_line_comment()?;
                    visitor.comment(RawComment(&self.scratch));
                }
                b'(' => {
                    self.pos += 1;
                    let here = plies.last().copied().unwrap_or(0);
                    if visitor.begin_variation() == Flow::Skip {
                        let outermost = open.first().copied().unwrap_or(at);
                        let game_over = self.skip_variation(visitor, outermost)?;
                        visitor.end_variation();
                        if game_over {
                            return Ok(());
                        }
                    } else {
                        plies.push(here.saturating_sub(1));
                        open.push(at);
                    }
                }
                b')' => {
                    self.pos += 1;
                    if plies.len() > 1 {
                        plies.pop();
                        open.pop();
                        visitor.end_variation();
                    }
                }
                b'$' => {
                    self.pos += 1;
                    let len = self.token_len()?;
                    let digits = &self.buf[self.pos..self.pos + len];
                    match std::str::from_utf8(digits)
                        .ok()
                        .and_then(|s| s.parse::<u8>().ok())
                    {
                        Some(nag) => visitor.nag(nag),
                        None => {
                            let text = String::from_utf8_lossy(digits).into_owned();
                            visitor.error(PgnError {
                                game: self.game,
                                at,
                                ply: None,
                                message: format!("${text} is not a NAG (expected $0 to $255)"),
                            });
                            self.pos += len;
                            return self.skip_rest_of_movetext(visitor);
                        }
                    }
                    self.pos += len;
                }
                b'!' | b'?' => self.read_suffix(visitor)?,
                b'*' => {
                    self.pos += 1;
                    self.check_closed(visitor, &open, "the result");
                    visitor.result("*");
                    return Ok(());
                }
                b'.' | b']' | b'}' => self.pos += 1,
                _ => {
                    let len = self.token_len()?;
                    if len == 0 || len >= MAX_TOKEN {
                        let message = if len == 0 {
                            format!("unexpected character {:?}", b as char)
                        } else {
                            "token too long".to_string()
                        };
                        visitor.error(PgnError {
                            game: self.game,
                            at,
                            ply: None,
                            message,
                        });
                        self.pos += len.max(1);
                        self.skip_token()?;
                        return self.skip_rest_of_movetext(visitor);
                    }
                    let token = &self.buf[self.pos..self.pos + len];
                    if token == b"e.p." || token == b"ep" {
                        // An en-passant mark written apart from its move ("exd6 e.p.").
                        self.pos += len;
                        continue;
                    }
                    if b.is_ascii_digit() {
                        if let Some(result) = result_token(token) {
                            self.pos += len;
                            self.check_closed(visitor, &open, "the result");
                            visitor.result(result);
                            return Ok(());
                        }
                        if !matches!(token, b"0-0" | b"0-0-0") {
                            // A move number: digits, then dots, maybe glued to a move.
                            let digits = token.iter().take_while(|b| b.is_ascii_digit()).count();
                            let dots = token[digits..].iter().take_while(|&&b| b == b'.').count();
                            if digits + dots == len || dots > 0 {
                                self.pos += digits + dots;
                                continue;
                            }
                        }
                    }
                    let ply = plies.last().copied().unwrap_or(0) + 1;
                    let parsed = if token.is_ascii() {
                        San::parse_ascii(token).map_err(|e| e.to_string())
                    } else {
                        match std::str::from_utf8(token) {
                            Ok(text) => San::parse(text).map_err(|e| e.to_string()),
                            Err(_) => Err("a move is not valid UTF-8".to_string()),
                        }
                    };
                    match parsed {
                        Ok(san) => {
                            if let Some(p) = plies.last_mut() {
                                *p = ply;
                            }
                            let depth = plies.len() as u32 - 1;
                            let flow = visitor.san(SanToken {
                                san,
                                raw: token,
                                ply,
                                depth,
                                at,
                            });
                            self.pos += len;
                            if flow == Flow::Skip {
                                return self.skip_rest_of_movetext(visitor);
                            }
                        }
                        Err(message) => {
                            visitor.error(PgnError {
                                game: self.game,
                                at,
                                ply: Some(ply),
                                message,
                            });
                            self.pos += len;
                            return self.skip_rest_of_movetext(visitor);
                        }
                    }
                }
            }
        }
    }

    /// The game ends `before` something: an error if a variation is still open, located
    /// at the outermost one's `(`.
    fn check_closed<V: Visitor>(&self, visitor: &mut V, open: &[Location], before: &str) {
        if let Some(&at) = open.first() {
            visitor.error(PgnError {
                game: self.game,
                at,
                ply: None,
                message: format!("variation not closed with ')' before {before}"),
            });
        }
    }

    fn read_suffix<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        self.ensure(2)?;
        let rest = &self.buf[self.pos..self.end];
        let (nag, len) = match rest {
            [b'!', b'!', ..] => (3, 2),
            [b'?', b'?', ..] => (4, 2),
            [b'!', b'?', ..] => (5, 2),
            [b'?', b'!', ..] => (6, 2),
            [b'!', ..] => (1, 1),
            _ => (2, 1),
        };
        self.pos += len;
        visitor.nag(nag);
        Ok(())
    }

    /// After an error: skip to the end of this game, reporting its result if seen.
    fn skip_rest_of_movetext<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        self.skip_movetext(visitor)
    }

    /// Skips movetext up to and including the result, or up to the next game's tags.
    fn skip_movetext<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
        loop {
            let Some(b) = self.peek_after_ws()? else {
                return Ok(());
            };
            match b {
                b'[' => return Ok(()),
                b'{' => {
                    if self.read_comment()?.is_err() {
                        return Ok(());
                    }
                }
                b';' => self.read_line_comment()?,
                b'%' if self.at_line_start() => self.skip_line()?,
                b'*' => {
                    self.pos += 1;
                    visitor.result("*");
                    return Ok(());
                }
                b'%' if self.at_line_start() => self.skip_line()?,
                _ => {
                    let len = self.token_len()?;
                    if let Some(result) = result_token(&self.buf[self.pos..self.pos + len]) {
                        self.pos += len;
                        visitor.result(result);
                        return Ok(());
                    }
                    self.pos += len.max(1);
                    if len == MAX_TOKEN {
                        self.skip_token()?;
                    }
                }
            }
        }
    }

    /// Skips a variation (its `(` already consumed), nested ones included. Ends the
    /// game where reading would (a result, a `[`, the end of the input): returns
    /// whether it did, reporting the variation open since `open` as not closed, or
    /// the comment not closed that ran to the end of the input.
    fn skip_variation<V: Visitor>(&mut self, visitor: &mut V, open: Location) -> io::Result<bool> {
        let open = [open];
        let mut depth = 1;
        while depth > 0 {
            let Some(b) = self.peek_after_ws()? else {
                self.check_closed(visitor, &open, "the end of the input");
                return Ok(true);
            };
            match b {
                b'{' => {
                    let at = self.location();
                    if let Err(message) = self.read_comment()? {
                        visitor.error(PgnError {
                            game: self.game,
                            at,
                            ply: None,
                            message,
                        });
                        return Ok(true);
                    }
                }
                b';' => self.read_line_comment()?,
                b'%' if self.at_line_start() => self.skip_line()?,
                b'(' => {
                    depth += 1;
                    self.pos += 1;
                }
                b')' => {
                    depth -= 1;
                    self.pos += 1;
                }
                b'[' => {
                    self.check_closed(visitor, &open, "the next game");
                    return Ok(true);
                }
                b'*' => {
                    self.pos += 1;
                    self.check_closed(visitor, &open, "the result");
                    visitor.result("*");
                    return Ok(true);
                }
                _ => {
                    let len = self.token_len()?;
                    if let Some(result) = result_token(&self.buf[self.pos..self.pos + len]) {
                        self.pos += len;
                        self.check_closed(visitor, &open, "the result");
                        visitor.result(result);
                        return Ok(true);
                    }
                    self.pos += len.max(1);
                    if len == MAX_TOKEN {
                        self.skip_token()?;
                    }
                }
            }
        }
        Ok(false)
    }
}

/// Bytes that end a move, number or NAG token.
static DELIMITERS: [bool; 256] = {
    let mut table = [false; 256];
    let delimiters = b" \t\n\r{}();$[]!?*";
    let mut i = 0;
    while i < delimiters.len() {
        table[delimiters[i] as usize] = true;
        i += 1;
    }
    table
};

fn result_token(token: &[u8]) -> Option<&'static str> {
    match token {
        b"1-0" => Some("1-0"),
        b"0-1" => Some("0-1"),
        b"1/2-1/2" => Some("1/2-1/2"),
        b"*" => Some("*"),
        _ => None,
    }
}
