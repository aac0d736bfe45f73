//! The public face: `Parser`, `ParserBuilder`, and the feed / end / finish
//! life cycle.
//!
//! Owns the parser's fields and the calls a user makes. The byte-level state
//! machine is in `machine`, `strings` and `scalars`; event payloads are made
//! in `emit`.

use serde_json::Value;

use crate::builder::Builder;
use crate::error::{Error, Position};
use crate::event::{Event, Mode, SubscriptionId};
use crate::path::Path;
use crate::pattern;
use crate::state::{Expect, Frame, State, path_of};
use crate::subscriptions::Subscriptions;

/// The default nesting limit: 127 levels, exactly what serde_json's
/// recursion limit (128) admits.
pub const DEFAULT_MAX_DEPTH: usize = 127;

/// An incremental JSON parser: feed it byte chunks as they arrive, read the
/// events of its subscriptions, and get the whole value at the end.
///
/// See the [crate documentation](crate) for an example.
pub struct Parser {
    pub(crate) max_depth: usize,
    pub(crate) retain: bool,
    pub(crate) state: State,
    /// Open containers are `frames[..depth]`; later entries are kept for reuse.
    pub(crate) frames: Vec<Frame>,
    pub(crate) depth: usize,
    /// Bytes fed before the current chunk.
    pub(crate) consumed: u64,
    pub(crate) line: u64,
    /// Offset of the first byte of the current line.
    pub(crate) line_start: u64,
    pub(crate) subs: Subscriptions,
    pub(crate) builder: Builder,
    pub(crate) scalar: Scalar,
    pub(crate) root: Option<Value>,
    pub(crate) events: Vec<Event>,
    pub(crate) failed: Option<Error>,
    pub(crate) ended: bool,
}

/// The string, number or literal being parsed.
#[derive(Default)]
pub(crate) struct Scalar {
    /// Its text or value is needed (kept by the parent, subscribed, or a key).
    pub(crate) keep: bool,
    pub(crate) is_key: bool,
    /// Decoded string text (or number text) so far, when `keep`.
    pub(crate) text: String,
    /// How much of `text` subscribers have already been sent.
    pub(crate) flushed: usize,
    /// A UTF-8 sequence split by a chunk boundary.
    pub(crate) utf8: [u8; 4],
    pub(crate) utf8_len: usize,
    pub(crate) utf8_start: u64,
    /// Offset of the scalar's first byte.
    pub(crate) start: u64,
}

/// Configures a [`Parser`]: limits, value retention and subscriptions.
pub struct ParserBuilder {
    max_depth: usize,
    retain: bool,
    subs: Subscriptions,
}

impl ParserBuilder {
    /// The deepest nesting of arrays and objects accepted (default
    /// [`DEFAULT_MAX_DEPTH`]). Deeper input fails with [`Error::TooDeep`].
    /// The parser itself never recurses, so any limit is safe for it; but
    /// with `retain_value(true)` a very deep `serde_json::Value` is dropped
    /// recursively by serde_json, so keep the limit modest there.
    pub fn max_depth(mut self, limit: usize) -> Self {
        self.max_depth = limit;
        self
    }

    /// Whether to build the whole document as a `serde_json::Value` for
    /// [`Parser::finish`] (default `true`). With `false` the parser only
    /// validates and serves subscriptions (building just the subscribed
    /// values), which is much cheaper for large documents.
    pub fn retain_value(mut self, retain: bool) -> Self {
        self.retain = retain;
        self
    }

    /// Subscribes to the values matching `pattern`, a JSONPath subset:
    /// `$` (the root), `.key`, `['key']` / `["key"]` (any key; `\\`, `\'`,
    /// `\"` escapes), `[n]`, and the wildcards `[*]` / `.*` (any element of
    /// an array or member of an object). Fails with [`Error::Pattern`].
    pub fn subscribe(&mut self, pattern: &str, mode: Mode) -> Result<SubscriptionId, Error> {
        let steps = pattern::parse(pattern)?;
        Ok(self.subs.add(steps, mode))
    }

    /// Makes the parser.
    pub fn build(self) -> Parser {
        Parser {
            max_depth: self.max_depth,
            retain: self.retain,
            state: State::Expect(Expect::Value),
            frames: Vec::new(),
            depth: 0,
            consumed: 0,
            line: 1,
            line_start: 0,
            subs: self.subs,
            builder: Builder::default(),
            scalar: Scalar::default(),
            root: None,
            events: Vec::new(),
            failed: None,
            ended: false,
        }
    }
}

impl Default for Parser {
    fn default() -> Self {
        Self::new()
    }
}

impl Parser {
    /// A parser with no subscriptions that retains the value (for
    /// [`Parser::finish`]) and has the default depth limit.
    pub fn new() -> Self {
        Self::builder().build()
    }

    /// Starts configuring a parser.
    pub fn builder() -> ParserBuilder {
        ParserBuilder { max_depth: DEFAULT_MAX_DEPTH, retain: true, subs: Subscriptions::default() }
    }

    /// Parses the next chunk of the document. Chunks may split the input
    /// anywhere, including inside a UTF-8 character, an escape or a number.
    /// Events found are queued for [`Parser::drain_events`] (also when an
    /// error stops the chunk part-way). After an error the parser is
    /// poisoned and returns that error again.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.ended {
            return Err(Error::AfterEnd);
        }
        let result = self.run(chunk);
        self.consumed += chunk.len() as u64;
        match result {
            Ok(()) => {
                self.flush_open_string();
                Ok(())
            }
            Err(e) => {
                self.failed = Some(e.clone());
                Err(e)
            }
        }
    }

    /// Takes the events queued so far, in document order.
    pub fn drain_events(&mut self) -> std::vec::Drain<'_, Event> {
        self.events.drain(..)
    }

    /// Declares the end of the input: a number at the top level completes
    /// here (its events are queued), and an incomplete document fails with
    /// [`Error::Truncated`]. Calling it again returns the same result.
    pub fn end(&mut self) -> Result<(), Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        if self.ended {
            return Ok(());
        }
        self.ended = true;
        let result = self.end_of_input();
        if let Err(e) = &result {
            self.failed = Some(e.clone());
        }
        result
    }

    /// Ends the input (see [`Parser::end`]) and returns the document, equal
    /// to what `serde_json::from_slice` gives for the same bytes (numbers,
    /// key order and repeated keys included). Events still queued are
    /// dropped: drain them first if you need them.
    pub fn finish(mut self) -> Result<Value, Error> {
        self.end()?;
        self.root.take().ok_or(Error::ValueNotRetained)
    }

    /// Whether the top-level value is complete (only whitespace may follow).
    /// A top-level number is complete only once [`Parser::end`] is called.
    pub fn is_complete(&self) -> bool {
        self.state == State::Expect(Expect::Done)
    }

    /// Bytes fed so far.
    pub fn bytes_consumed(&self) -> u64 {
        self.consumed
    }

    /// The path of the value being parsed or expected next: the open
    /// containers and, in each, the current key or index. While an object
    /// key is being read, the path ends at that object.
    pub fn current_path(&self) -> Path {
        let awaiting_key = match self.state {
            State::Expect(Expect::FirstKey | Expect::Key) => true,
            State::Str(_) => self.scalar.is_key,
            _ => false,
        };
        let known = if awaiting_key { self.depth.saturating_sub(1) } else { self.depth };
        path_of(&self.frames[..known])
    }

    /// The position of byte `i` of the current chunk.
    pub(crate) fn position(&self, i: usize) -> Position {
        self.position_at(self.consumed + i as u64)
    }

    /// The position of an absolute offset on the current line.
    pub(crate) fn position_at(&self, offset: u64) -> Position {
        Position { offset, line: self.line, column: offset.saturating_sub(self.line_start) + 1 }
    }

    /// A syntax error at byte `i` of the current chunk.
    pub(crate) fn syntax(&self, i: usize, message: impl Into<String>) -> Error {
        Error::Syntax { position: self.position(i), message: message.into() }
    }
}
