//! The parser's state as data: where the machine is between and inside tokens ([`State`],
//! [`Expect`]), the explicit container stack ([`Frame`], [`Kind`]) with the paths it spells,
//! and the places inside a number or literal ([`NumState`], [`Literal`]) and a string
//! ([`StrState`]). The transitions are `machine`'s, `scalars`'s and `strings`'s; the parser's
//! fields and life cycle are `parser`'s.

use serde_json::Value;

use crate::path::{Path, PathSegment};
use crate::pattern::Seg;
use crate::subscriptions::Range;

/// Where the parser is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    /// Between tokens, expecting what `Expect` says.
    Expect(Expect),
    /// Inside a string (a key or a value: `Scalar::is_key`).
    Str(StrState),
    /// Inside a number.
    Num(NumState),
    /// Inside `true`, `false` or `null`, with this many bytes matched.
    Lit(Literal, u8),
}

/// What may come next between tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    /// A value: at the start, or after `:`.
    Value,
    /// A value after `,` in an array.
    Element,
    /// A value or `]`, just after `[`.
    FirstElement,
    /// A key or `}`, just after `{`.
    FirstKey,
    /// A key, after `,` in an object.
    Key,
    /// `:` after a key.
    Colon,
    /// `,` or the closing bracket of the innermost container.
    AfterValue,
    /// The top-level value is complete; only whitespace may follow.
    Done,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Array,
    Object,
}

/// One open container.
pub(crate) struct Frame {
    pub(crate) kind: Kind,
    /// Index of the current element (arrays).
    pub(crate) index: usize,
    /// The current key (objects), always tracked for the path.
    pub(crate) key: String,
    /// Its value is being built (retained or subscribed, or inside one).
    pub(crate) build: bool,
    /// Subscriptions that may match below it.
    pub(crate) cands: Range,
    /// Subscriptions that match it.
    pub(crate) targets: Range,
}

/// The segment of the child currently parsed in the innermost of `frames`.
pub(crate) fn child_segment(frames: &[Frame]) -> Option<Seg<'_>> {
    frames.last().map(|f| match f.kind {
        Kind::Array => Seg::Index(f.index),
        Kind::Object => Seg::Key(&f.key),
    })
}

/// The concrete path of the child currently parsed in the innermost frame.
pub(crate) fn path_of(frames: &[Frame]) -> Path {
    let segments = frames
        .iter()
        .map(|f| match f.kind {
            Kind::Array => PathSegment::Index(f.index),
            Kind::Object => PathSegment::Key(f.key.clone()),
        })
        .collect::<Vec<_>>();
    Path::from(segments)
}

/// Where inside a number the parser is (RFC 8259 §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumState {
    /// Before the first byte (`-` or a digit, checked by the caller).
    Start,
    /// After `-`.
    Minus,
    /// After a leading `0`.
    Zero,
    /// In the integer digits.
    Int,
    /// After `.`.
    Dot,
    /// In the fraction digits.
    Frac,
    /// After `e` / `E`.
    Exp,
    /// After the exponent's sign.
    ExpSign,
    /// In the exponent digits.
    ExpDigits,
}

impl NumState {
    /// Whether the number may end here.
    pub(crate) fn is_complete(self) -> bool {
        matches!(self, NumState::Zero | NumState::Int | NumState::Frac | NumState::ExpDigits)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Literal {
    True,
    False,
    Null,
}

impl Literal {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Literal::True => "true",
            Literal::False => "false",
            Literal::Null => "null",
        }
    }

    pub(crate) fn value(self) -> Value {
        match self {
            Literal::True => Value::Bool(true),
            Literal::False => Value::Bool(false),
            Literal::Null => Value::Null,
        }
    }
}

/// Where inside a string the parser is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StrState {
    /// Plain characters (possibly with a UTF-8 sequence split by a chunk
    /// boundary pending in `Scalar::utf8`).
    Chars,
    /// Just after `\`.
    Escape,
    /// Inside `\uXXXX`: hex digits read and their value; `high` is a pending
    /// high surrogate (0 when none).
    Hex { digits: u8, value: u16, high: u16 },
    /// After a high surrogate escape, expecting `\` of the low one.
    LowBackslash { high: u16 },
    /// Expecting `u` of the low surrogate escape.
    LowU { high: u16 },
}
