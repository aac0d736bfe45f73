//! The crate's one error type and the input position it reports.
//!
//! Owns `Error` and `Position`; building messages for specific grammar
//! violations belongs to the state machine that detects them.

use std::fmt;

/// Where in the input something happened.
///
/// `offset` counts bytes from the start of the document (over all fed chunks);
/// `line` and `column` are 1-based, the column counted in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Bytes before this point, over all chunks fed so far.
    pub offset: u64,
    /// 1-based line number (lines end at `\n`).
    pub line: u64,
    /// 1-based column, in bytes from the start of the line.
    pub column: u64,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {} (byte {})", self.line, self.column, self.offset)
    }
}

/// Everything that can go wrong while subscribing, feeding or finishing.
///
/// A parser that returned an error from [`crate::Parser::feed`] or
/// [`crate::Parser::end`] is poisoned: later calls return the same error.
/// None of these is worth retrying with the same bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are not JSON (RFC 8259): an unexpected byte, a bad escape,
    /// invalid UTF-8, a control character inside a string, a malformed
    /// number, a trailing comma, or characters after the top-level value.
    #[error("invalid JSON at {position}: {message}")]
    Syntax {
        /// Where the offending byte is.
        position: Position,
        /// What was wrong and what was expected there.
        message: String,
    },
    /// The input ended (via [`crate::Parser::end`] or
    /// [`crate::Parser::finish`]) before the document was complete:
    /// a truncated stream.
    #[error("JSON ended early at {position}: {message}")]
    Truncated {
        /// The end of the input.
        position: Position,
        /// What was still open or expected.
        message: String,
    },
    /// Arrays and objects nest deeper than the configured limit
    /// ([`crate::ParserBuilder::max_depth`]).
    #[error(
        "JSON nested too deeply at {position}: the limit is {limit} levels; \
         raise it with ParserBuilder::max_depth if the document is trusted"
    )]
    TooDeep {
        /// The bracket that went over the limit.
        position: Position,
        /// The limit in force.
        limit: usize,
    },
    /// A number whose value had to be built does not fit a finite `f64`
    /// (serde_json rejects it the same way), e.g. `1e400`.
    #[error("number out of range at {position}: `{text}` does not fit in a 64-bit float")]
    NumberOutOfRange {
        /// Where the number starts.
        position: Position,
        /// The number as written.
        text: String,
    },
    /// A subscription pattern is not in the supported JSONPath subset.
    #[error("invalid path pattern `{pattern}` at character {index}: {reason}")]
    Pattern {
        /// The pattern as given.
        pattern: String,
        /// 0-based character index of the problem.
        index: usize,
        /// What is wrong and how to write it instead.
        reason: &'static str,
    },
    /// [`crate::Parser::finish`] was called on a parser built with
    /// `retain_value(false)`, which keeps no document value.
    #[error(
        "no document value was kept: the parser was built with retain_value(false); \
         call end() to validate the input, or build with retain_value(true)"
    )]
    ValueNotRetained,
    /// [`crate::Parser::feed`] was called after [`crate::Parser::end`].
    #[error(
        "cannot feed more bytes: end() was already called; use a new Parser for a new document"
    )]
    AfterEnd,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_error_names_line_column_and_byte() {
        let e = Error::Syntax {
            position: Position { offset: 12, line: 2, column: 5 },
            message: "expected ':' after the key".into(),
        };
        assert_eq!(
            e.to_string(),
            "invalid JSON at line 2, column 5 (byte 12): expected ':' after the key"
        );
    }
}
