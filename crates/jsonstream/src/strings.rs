//! Inside strings: plain runs, escapes (surrogate pairs included) and UTF-8
//! validation across chunk boundaries.
//!
//! Owns the decoding of string content (its place: `StrState`) into the scalar
//! buffer. What happens when a string closes (events, attaching the value)
//! is in `emit`.

use crate::classes::{describe, scan_plain};
use crate::error::Error;
use crate::parser::Parser;
use crate::state::{Expect, State, StrState};

fn hex_digit(b: u8) -> Option<u16> {
    char::from(b).to_digit(16).and_then(|d| u16::try_from(d).ok())
}

/// Length of the UTF-8 sequence a (valid) lead byte starts.
fn utf8_width(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

impl Parser {
    /// `"` opening a key.
    pub(crate) fn begin_key(&mut self, i: usize) {
        self.scalar.keep = true;
        self.scalar.is_key = true;
        self.scalar.text.clear();
        self.scalar.flushed = 0;
        self.scalar.start = self.consumed + i as u64;
        self.state = State::Str(StrState::Chars);
    }

    /// `"` opening a string value (after `begin_scalar`).
    pub(crate) fn begin_string_value(&mut self) {
        self.state = State::Str(StrState::Chars);
    }

    fn push_char(&mut self, c: char) {
        if self.scalar.keep {
            self.scalar.text.push(c);
        }
    }

    /// Consumes string bytes from `i` until the string closes or the chunk ends.
    pub(crate) fn string(
        &mut self,
        mut state: StrState,
        buf: &[u8],
        mut i: usize,
    ) -> Result<usize, Error> {
        loop {
            if state == StrState::Chars {
                if self.scalar.utf8_len > 0 {
                    i = self.continue_utf8(buf, i)?;
                    if self.scalar.utf8_len > 0 {
                        self.state = State::Str(state);
                        return Ok(i);
                    }
                }
                let start = i;
                i = scan_plain(buf, i);
                if i > start {
                    self.take_run(buf, start, i)?;
                }
                match buf.get(i) {
                    None => {
                        self.state = State::Str(state);
                        return Ok(i);
                    }
                    Some(b'"') => {
                        self.end_string();
                        return Ok(i + 1);
                    }
                    Some(b'\\') => {
                        state = StrState::Escape;
                        i += 1;
                    }
                    Some(&b) => {
                        return Err(self.syntax(
                            i,
                            format!(
                                "{} inside a string; control characters must be escaped (e.g. \\n, \\t, \\u001f)",
                                describe(b)
                            ),
                        ));
                    }
                }
                continue;
            }
            let Some(&b) = buf.get(i) else {
                self.state = State::Str(state);
                return Ok(i);
            };
            state = match state {
                StrState::Escape => {
                    let c = match b {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            i += 1;
                            state = StrState::Hex { digits: 0, value: 0, high: 0 };
                            continue;
                        }
                        _ => {
                            return Err(self.syntax(
                                i,
                                format!(
                                    "invalid escape: backslash followed by {}; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX",
                                    describe(b)
                                ),
                            ));
                        }
                    };
                    self.push_char(c);
                    StrState::Chars
                }
                StrState::Hex { digits, value, high } => {
                    let Some(d) = hex_digit(b) else {
                        return Err(self.syntax(
                            i,
                            format!(
                                "invalid \\u escape: expected 4 hex digits, found {}",
                                describe(b)
                            ),
                        ));
                    };
                    let value = value << 4 | d;
                    if digits < 3 {
                        StrState::Hex { digits: digits + 1, value, high }
                    } else {
                        self.code_unit(value, high, i)?
                    }
                }
                StrState::LowBackslash { high } if b == b'\\' => StrState::LowU { high },
                StrState::LowU { high } if b == b'u' => StrState::Hex { digits: 0, value: 0, high },
                StrState::LowBackslash { high } | StrState::LowU { high } => {
                    return Err(self.syntax(
                        i,
                        format!(
                            "the high surrogate \\u{high:04X} must be followed by a low surrogate escape (\\uDC00 to \\uDFFF), found {}",
                            describe(b)
                        ),
                    ));
                }
                StrState::Chars => StrState::Chars,
            };
            i += 1;
        }
    }

    /// A complete `\uXXXX` code unit; `high` is a pending high surrogate.
    fn code_unit(&mut self, value: u16, high: u16, i: usize) -> Result<StrState, Error> {
        let is_high = (0xD800..=0xDBFF).contains(&value);
        let is_low = (0xDC00..=0xDFFF).contains(&value);
        let code = match (high, is_high, is_low) {
            (0, true, _) => return Ok(StrState::LowBackslash { high: value }),
            (0, _, true) => {
                return Err(self.syntax(
                    i,
                    format!(
                        "lone low surrogate \\u{value:04X}: it must follow a high surrogate escape"
                    ),
                ));
            }
            (0, _, _) => u32::from(value),
            (_, _, true) => {
                0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(value) - 0xDC00)
            }
            _ => {
                return Err(self.syntax(
                    i,
                    format!(
                        "the high surrogate \\u{high:04X} must be followed by a low surrogate (\\uDC00 to \\uDFFF), found \\u{value:04X}"
                    ),
                ));
            }
        };
        // Every non-surrogate BMP value and every combined pair is a char.
        if let Some(c) = char::from_u32(code) {
            self.push_char(c);
        }
        Ok(StrState::Chars)
    }

    /// Validates (and keeps, when wanted) the plain run `buf[start..end]`.
    fn take_run(&mut self, buf: &[u8], start: usize, end: usize) -> Result<(), Error> {
        match std::str::from_utf8(&buf[start..end]) {
            Ok(s) => {
                if self.scalar.keep {
                    self.scalar.text.push_str(s);
                }
                Ok(())
            }
            Err(e) => {
                let valid = start + e.valid_up_to();
                if self.scalar.keep
                    && let Ok(s) = std::str::from_utf8(&buf[start..valid])
                {
                    self.scalar.text.push_str(s);
                }
                if e.error_len().is_none() && end == buf.len() {
                    let tail = &buf[valid..end];
                    self.scalar.utf8[..tail.len()].copy_from_slice(tail);
                    self.scalar.utf8_len = tail.len();
                    self.scalar.utf8_start = self.consumed + valid as u64;
                    Ok(())
                } else {
                    Err(self.syntax(
                        valid,
                        format!("invalid UTF-8 in a string at {}", describe(buf[valid])),
                    ))
                }
            }
        }
    }

    /// Completes a UTF-8 sequence split by a chunk boundary.
    fn continue_utf8(&mut self, buf: &[u8], mut i: usize) -> Result<usize, Error> {
        let width = utf8_width(self.scalar.utf8[0]);
        while self.scalar.utf8_len < width {
            let Some(&b) = buf.get(i) else {
                return Ok(i);
            };
            if b & 0xC0 != 0x80 {
                return Err(self.bad_utf8());
            }
            self.scalar.utf8[self.scalar.utf8_len] = b;
            self.scalar.utf8_len += 1;
            i += 1;
        }
        self.scalar.utf8_len = 0;
        let bytes = self.scalar.utf8;
        match std::str::from_utf8(&bytes[..width]) {
            Ok(s) => {
                if self.scalar.keep {
                    self.scalar.text.push_str(s);
                }
                Ok(i)
            }
            Err(_) => Err(self.bad_utf8()),
        }
    }

    fn bad_utf8(&self) -> Error {
        Error::Syntax {
            position: self.position_at(self.scalar.utf8_start),
            message: format!("invalid UTF-8 in a string at {}", describe(self.scalar.utf8[0])),
        }
    }

    /// The closing `"`.
    fn end_string(&mut self) {
        if self.scalar.is_key {
            if let Some(frame) = self.depth.checked_sub(1).and_then(|d| self.frames.get_mut(d)) {
                std::mem::swap(&mut frame.key, &mut self.scalar.text);
            }
            self.state = State::Expect(Expect::Colon);
        } else {
            self.close_string_value();
        }
    }
}
