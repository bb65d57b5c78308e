//! Movetext: moves, numbers, NAGs, comments, variations and the result, read
//! straight from the buffer where they fit in it.

use std::io::{self, Read};

use caissa_rules::san::San;

use super::{Flow, Location, PgnError, RawComment, Reader, SanToken, Visitor, MAX_TOKEN};

impl<R: Read> Reader<R> {
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

    pub(super) fn read_comment(&mut self) -> io::Result<Result<(), String>> {
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

    pub(super) fn read_line_comment(&mut self) -> io::Result<()> {
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

    pub(super) fn read_movetext<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
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
    pub(super) fn skip_movetext<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<()> {
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
