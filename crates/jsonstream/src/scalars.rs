//! Numbers and the literals `true`, `false`, `null`: their grammar across
//! chunk boundaries and their `serde_json::Value`.
//!
//! Owns their transitions and number conversion (built from the text
//! exactly as serde_json does). Strings are in `strings`.

use serde_json::{Number, Value};

use crate::classes::describe;
use crate::error::Error;
use crate::parser::Parser;
use crate::state::{Literal, NumState, State};

/// The value serde_json gives for a grammatical number text; `None` when
/// it overflows `f64` (serde_json rejects those too).
pub(crate) fn number_value(text: &str) -> Option<Value> {
    let (negative, digits) = match text.as_bytes().split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, text.as_bytes()),
    };
    // Fast path for short integers; serde_json gives the same u64 / i64.
    // `-0` is a float in serde_json, so it takes the general path.
    if !digits.is_empty() && digits.len() <= 18 && digits.iter().all(u8::is_ascii_digit) {
        let n = digits.iter().fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'));
        match (negative, i64::try_from(n)) {
            (false, _) => return Some(Value::from(n)),
            (true, Ok(n)) if n != 0 => return Some(Value::from(-n)),
            _ => {}
        }
    }
    text.parse::<Number>().ok().map(Value::Number)
}

impl Parser {
    fn keep_number_text(&mut self, bytes: &[u8]) {
        if self.scalar.keep
            && let Ok(text) = std::str::from_utf8(bytes)
        {
            self.scalar.text.push_str(text);
        }
    }

    /// Consumes number bytes from `i`; the number ends at the first byte
    /// that cannot continue it (left for the structural machine).
    pub(crate) fn number(
        &mut self,
        mut state: NumState,
        buf: &[u8],
        mut i: usize,
    ) -> Result<usize, Error> {
        use NumState::*;
        let start = i;
        while let Some(&b) = buf.get(i) {
            state = match (state, b) {
                (Int | Frac | ExpDigits, b'0'..=b'9') => state,
                (Start, b'-') => Minus,
                (Start | Minus, b'0') => Zero,
                (Start, _) => Int,
                (Minus, b'1'..=b'9') => Int,
                (Minus, _) => {
                    return Err(self
                        .syntax(i, format!("expected a digit after '-', found {}", describe(b))));
                }
                (Zero, b'0'..=b'9') => {
                    return Err(self.syntax(i, "a number cannot have leading zeros"));
                }
                (Zero | Int, b'.') => Dot,
                (Zero | Int | Frac, b'e' | b'E') => Exp,
                (Dot, b'0'..=b'9') => Frac,
                (Dot, _) => {
                    return Err(self.syntax(
                        i,
                        format!("expected a digit after the decimal point, found {}", describe(b)),
                    ));
                }
                (Exp, b'+' | b'-') => ExpSign,
                (Exp | ExpSign, b'0'..=b'9') => ExpDigits,
                (Exp | ExpSign, _) => {
                    return Err(self.syntax(
                        i,
                        format!("expected a digit in the exponent, found {}", describe(b)),
                    ));
                }
                (Zero | Int | Frac | ExpDigits, _) => {
                    if self.scalar.text.is_empty() {
                        // The whole number is in this chunk: no copy.
                        self.complete_number(&buf[start..i])?;
                    } else {
                        self.keep_number_text(&buf[start..i]);
                        self.complete_number(&[])?;
                    }
                    return Ok(i);
                }
            };
            i += 1;
        }
        self.keep_number_text(&buf[start..i]);
        self.state = State::Num(state);
        Ok(i)
    }

    /// The number is complete: its text is `tail` if the scalar buffer is
    /// empty, else the buffer.
    pub(crate) fn complete_number(&mut self, tail: &[u8]) -> Result<(), Error> {
        let value = if self.scalar.keep {
            let text = match self.scalar.text.as_str() {
                "" => std::str::from_utf8(tail).unwrap_or_default(),
                buffered => buffered,
            };
            match number_value(text) {
                Some(v) => Some(v),
                None => {
                    return Err(Error::NumberOutOfRange {
                        position: self.position_at(self.scalar.start),
                        text: text.to_owned(),
                    });
                }
            }
        } else {
            None
        };
        self.complete_scalar(value);
        Ok(())
    }

    /// Consumes literal bytes from `i`, `matched` of them seen already.
    pub(crate) fn literal(
        &mut self,
        literal: Literal,
        mut matched: u8,
        buf: &[u8],
        mut i: usize,
    ) -> Result<usize, Error> {
        let word = literal.word().as_bytes();
        while let Some(&expected) = word.get(usize::from(matched)) {
            let Some(&b) = buf.get(i) else {
                self.state = State::Lit(literal, matched);
                return Ok(i);
            };
            if b != expected {
                return Err(self.syntax(
                    i,
                    format!(
                        "invalid literal: expected `{}`, found {}",
                        literal.word(),
                        describe(b)
                    ),
                ));
            }
            matched += 1;
            i += 1;
        }
        self.complete_scalar(Some(literal.value()));
        Ok(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_match_serde_json_including_edge_cases() {
        for text in [
            "0",
            "-0",
            "1",
            "-1",
            "123456789012345678",
            "-123456789012345678",
            "12345678901234567890",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1.5",
            "-0.0",
            "1e3",
            "1E-2",
            "123e-10000000",
            "0.1e+1",
        ] {
            let ours = number_value(text).unwrap();
            let theirs: Value = serde_json::from_str(text).unwrap();
            assert_eq!(ours.to_string(), theirs.to_string(), "{text}");
            assert_eq!(ours, theirs, "{text}");
        }
        assert_eq!(number_value("1e400"), None);
        assert_eq!(number_value("-1e400"), None);
    }
}
