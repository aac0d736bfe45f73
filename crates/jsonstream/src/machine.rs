//! The structural state machine: the explicit container stack, whitespace,
//! `{ } [ ] : ,`, where values start, and the end of input.
//!
//! Owns the transitions between values (the state they move is in `state`). The inside of
//! strings is in `strings`, numbers and literals in `scalars`; it never
//! recurses, so nesting depth costs heap, not stack.

use crate::classes::{describe, is_ws};
use crate::error::Error;
use crate::parser::Parser;
use crate::state::{Expect, Frame, Kind, Literal, NumState, State, child_segment};
use crate::subscriptions::Range;

impl Parser {
    /// Runs the machine over one chunk.
    pub(crate) fn run(&mut self, buf: &[u8]) -> Result<(), Error> {
        let mut i = 0;
        while i < buf.len() {
            i = match self.state {
                State::Expect(expect) => self.structural(expect, buf, i)?,
                State::Str(state) => self.string(state, buf, i)?,
                State::Num(state) => self.number(state, buf, i)?,
                State::Lit(literal, matched) => self.literal(literal, matched, buf, i)?,
            };
        }
        Ok(())
    }

    /// Skips whitespace, then handles one structural byte.
    fn structural(&mut self, expect: Expect, buf: &[u8], mut i: usize) -> Result<usize, Error> {
        while let Some(&b) = buf.get(i) {
            if !is_ws(b) {
                break;
            }
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.consumed + i as u64 + 1;
            }
            i += 1;
        }
        let Some(&b) = buf.get(i) else {
            return Ok(i);
        };
        match expect {
            Expect::Value | Expect::Element => {
                if matches!(b, b']' | b'}') {
                    let why = if expect == Expect::Element {
                        "expected a value after ',', found {} (trailing commas are not allowed)"
                    } else {
                        "expected a value, found {}"
                    };
                    return Err(self.syntax(i, why.replace("{}", &describe(b))));
                }
                self.begin_value(b, i)
            }
            Expect::FirstElement if b == b']' => self.close_container(i),
            Expect::FirstElement => self.begin_value(b, i),
            Expect::FirstKey if b == b'}' => self.close_container(i),
            Expect::FirstKey | Expect::Key if b == b'"' => {
                self.begin_key(i);
                Ok(i + 1)
            }
            Expect::FirstKey => {
                Err(self.syntax(i, format!("expected a string key or '}}', found {}", describe(b))))
            }
            Expect::Key if b == b'}' => Err(self.syntax(
                i,
                "expected a string key after ',', found '}' (trailing commas are not allowed)",
            )),
            Expect::Key => {
                Err(self
                    .syntax(i, format!("expected a string key after ',', found {}", describe(b))))
            }
            Expect::Colon if b == b':' => {
                self.state = State::Expect(Expect::Value);
                Ok(i + 1)
            }
            Expect::Colon => {
                Err(self.syntax(i, format!("expected ':' after the key, found {}", describe(b))))
            }
            Expect::AfterValue => self.after_value(b, i),
            Expect::Done => Err(self.syntax(
                i,
                format!(
                    "found {} after the end of the JSON value; a document holds exactly one value",
                    describe(b)
                ),
            )),
        }
    }

    /// `,` or a closing bracket after a value inside a container.
    fn after_value(&mut self, b: u8, i: usize) -> Result<usize, Error> {
        let Some(frame) = self.depth.checked_sub(1).and_then(|d| self.frames.get_mut(d)) else {
            return Err(self.syntax(i, "internal: a value ended outside any container"));
        };
        match (b, frame.kind) {
            (b',', Kind::Array) => {
                frame.index += 1;
                self.state = State::Expect(Expect::Element);
                Ok(i + 1)
            }
            (b',', Kind::Object) => {
                self.state = State::Expect(Expect::Key);
                Ok(i + 1)
            }
            (b']', Kind::Array) | (b'}', Kind::Object) => self.close_container(i),
            (_, Kind::Array) => Err(self.syntax(
                i,
                format!("expected ',' or ']' after an array element, found {}", describe(b)),
            )),
            (_, Kind::Object) => Err(self.syntax(
                i,
                format!("expected ',' or '}}' after an object member, found {}", describe(b)),
            )),
        }
    }

    /// The first byte of a value.
    fn begin_value(&mut self, b: u8, i: usize) -> Result<usize, Error> {
        match b {
            b'{' => self.open_container(Kind::Object, i),
            b'[' => self.open_container(Kind::Array, i),
            b'"' => {
                self.begin_scalar(i);
                self.begin_string_value();
                Ok(i + 1)
            }
            b'-' | b'0'..=b'9' => {
                self.begin_scalar(i);
                self.state = State::Num(NumState::Start);
                Ok(i)
            }
            b't' | b'f' | b'n' => {
                self.begin_scalar(i);
                let literal = match b {
                    b't' => Literal::True,
                    b'f' => Literal::False,
                    _ => Literal::Null,
                };
                self.state = State::Lit(literal, 1);
                Ok(i + 1)
            }
            _ => Err(self.syntax(
                i,
                format!(
                    "expected a JSON value (object, array, string, number, true, false or null), found {}",
                    describe(b)
                ),
            )),
        }
    }

    /// Whether the value about to start goes into a value being built.
    pub(crate) fn parent_builds(&self) -> bool {
        match self.depth.checked_sub(1) {
            Some(d) => self.frames[d].build,
            None => self.retain,
        }
    }

    /// Candidates of the innermost container (or of the root).
    fn parent_cands(&self) -> Range {
        match self.depth.checked_sub(1) {
            Some(d) => self.frames[d].cands,
            None => self.subs.root(),
        }
    }

    /// Selects the subscriptions targeting the value that starts now.
    fn select_targets(&mut self) {
        let cands = self.parent_cands();
        let seg = child_segment(&self.frames[..self.depth]);
        self.subs.select(cands, self.depth, seg);
    }

    /// Prepares the scalar state for a string, number or literal value.
    fn begin_scalar(&mut self, i: usize) {
        let cands = self.parent_cands();
        if cands.0 == cands.1 {
            self.subs.clear_current();
        } else {
            self.select_targets();
        }
        self.scalar.keep = self.parent_builds() || !self.subs.current().is_empty();
        self.scalar.is_key = false;
        self.scalar.text.clear();
        self.scalar.flushed = 0;
        self.scalar.start = self.consumed + i as u64;
    }

    fn open_container(&mut self, kind: Kind, i: usize) -> Result<usize, Error> {
        if self.depth >= self.max_depth {
            return Err(Error::TooDeep { position: self.position(i), limit: self.max_depth });
        }
        self.select_targets();
        let build = self.parent_builds() || !self.subs.current().is_empty();
        let parent = self.parent_cands();
        let cands = if parent.0 == parent.1 {
            parent
        } else {
            let seg = child_segment(&self.frames[..self.depth]);
            self.subs.push_children(parent, self.depth, seg)
        };
        let targets = self.subs.push_current();
        if build {
            match kind {
                Kind::Array => self.builder.open_array(),
                Kind::Object => self.builder.open_object(),
            }
        }
        let frame = Frame { kind, index: 0, key: String::new(), build, cands, targets };
        match self.frames.get_mut(self.depth) {
            Some(slot) => {
                let mut key = std::mem::take(&mut slot.key);
                key.clear();
                *slot = Frame { key, ..frame };
            }
            None => self.frames.push(frame),
        }
        self.depth += 1;
        self.state = State::Expect(match kind {
            Kind::Array => Expect::FirstElement,
            Kind::Object => Expect::FirstKey,
        });
        Ok(i + 1)
    }

    /// The closing bracket at byte `i` (already checked to match).
    fn close_container(&mut self, i: usize) -> Result<usize, Error> {
        self.depth -= 1;
        let frame = &self.frames[self.depth];
        let (build, cands, targets) = (frame.build, frame.cands, frame.targets);
        let value = build.then(|| self.builder.close());
        if let Some(value) = &value {
            self.emit_container_value(targets, value);
        }
        self.subs.pop(cands, targets);
        self.attach(value);
        Ok(i + 1)
    }

    /// Hands a completed value to its parent (or keeps it as the root) and
    /// moves on.
    pub(crate) fn attach(&mut self, value: Option<serde_json::Value>) {
        let Some(d) = self.depth.checked_sub(1) else {
            if self.retain {
                self.root = value;
            }
            self.state = State::Expect(Expect::Done);
            return;
        };
        let parent = &self.frames[d];
        if let (true, Some(value)) = (parent.build, value) {
            let key = (parent.kind == Kind::Object).then(|| parent.key.clone());
            self.builder.add(key, value);
        }
        self.state = State::Expect(Expect::AfterValue);
    }

    /// Checks the end of input; a top-level number completes here.
    pub(crate) fn end_of_input(&mut self) -> Result<(), Error> {
        if let State::Num(state) = self.state
            && state.is_complete()
        {
            self.complete_number(&[])?;
        }
        let what = match self.state {
            State::Expect(Expect::Done) => return Ok(()),
            State::Expect(Expect::Value) if self.depth == 0 => {
                "the input holds no JSON value (empty or only whitespace)".to_owned()
            }
            State::Str(_) if self.scalar.is_key => "unterminated key string".to_owned(),
            State::Str(_) => "unterminated string".to_owned(),
            State::Num(_) => "incomplete number".to_owned(),
            State::Lit(literal, _) => format!("incomplete literal (expected `{}`)", literal.word()),
            State::Expect(_) => {
                let innermost = match self.depth.checked_sub(1).map(|d| self.frames[d].kind) {
                    Some(Kind::Object) => "object",
                    _ => "array",
                };
                format!(
                    "{} container(s) still open (innermost: an {innermost} at {})",
                    self.depth,
                    self.current_path()
                )
            }
        };
        Err(Error::Truncated { position: self.position(0), message: what })
    }
}
