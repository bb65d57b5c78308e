//! Tag pairs: `[Name "value"]`, with escapes and the unescaped quotes real files hold.

use std::io::{self, Read};

use super::{Location, Reader, Visitor, MAX_TOKEN, TAG_LOOKAHEAD};

impl<R: Read> Reader<R> {
    /// Reads one `[Name "value"]`; `Ok(Err((at, message)))` on a syntax error, located
    /// at the name or value at fault, or where the `]` should be.
    pub(super) fn read_tag<V: Visitor>(
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

    pub(super) fn skip_tag_lines(&mut self) -> io::Result<()> {
        self.skip_line()?;
        while self.peek_tag()? == Some(b'[') {
            self.skip_line()?;
        }
        Ok(())
    }

    /// Like `peek_after_ws`, also skipping `%` escape lines (allowed between tags).
    pub(super) fn peek_tag(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.peek_after_ws()? {
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                other => return Ok(other),
            }
        }
    }
}
