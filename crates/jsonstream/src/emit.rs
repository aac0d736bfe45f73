//! Turning completed or growing values into subscription events, and
//! handing completed scalars on.
//!
//! Owns event payload construction. Which subscriptions match is decided in `subscriptions`.

use serde_json::Value;

use crate::event::{Event, Mode, Payload, SubscriptionId};
use crate::parser::Parser;
use crate::path::Path;
use crate::state::{State, path_of};
use crate::subscriptions::Range;

impl Parser {
    fn here(&self) -> Path {
        path_of(&self.frames[..self.depth])
    }

    /// A complete number or literal; `value` is `Some` when it was kept.
    pub(crate) fn complete_scalar(&mut self, value: Option<Value>) {
        if let Some(value) = value.as_ref().filter(|_| !self.subs.current().is_empty()) {
            let path = self.here();
            for &id in self.subs.current() {
                self.events.push(Event {
                    subscription: SubscriptionId(id),
                    path: path.clone(),
                    payload: Payload::Value(value.clone()),
                });
            }
        }
        self.attach(value);
    }

    /// A closed container with targets `targets`.
    pub(crate) fn emit_container_value(&mut self, targets: Range, value: &Value) {
        if targets.0 == targets.1 {
            return;
        }
        let path = self.here();
        for &id in self.subs.container_targets(targets) {
            self.events.push(Event {
                subscription: SubscriptionId(id),
                path: path.clone(),
                payload: Payload::Value(value.clone()),
            });
        }
    }

    /// The closing `"` of a string value.
    pub(crate) fn close_string_value(&mut self) {
        let text = &self.scalar.text;
        if !self.subs.current().is_empty() {
            let path = self.here();
            let flushed = self.scalar.flushed;
            for &id in self.subs.current() {
                let subscription = SubscriptionId(id);
                let mut push =
                    |payload| self.events.push(Event { subscription, path: path.clone(), payload });
                match self.subs.mode(id) {
                    Mode::Realtime => push(Payload::Value(Value::String(text.clone()))),
                    Mode::Delta => {
                        if let Some(rest) = text.get(flushed..).filter(|r| !r.is_empty()) {
                            push(Payload::Delta(rest.to_owned()));
                        }
                        push(Payload::End);
                    }
                }
            }
        }
        // An exact-size copy; the scratch buffer stays for the next string.
        let value = self.parent_builds().then(|| Value::String(self.scalar.text.clone()));
        self.attach(value);
    }

    /// At the end of a chunk: reports what an open subscribed string
    /// gained during it.
    pub(crate) fn flush_open_string(&mut self) {
        let open_value = matches!(self.state, State::Str(_)) && !self.scalar.is_key;
        let grown = self.scalar.text.len() > self.scalar.flushed;
        if !open_value || !grown || self.subs.current().is_empty() {
            return;
        }
        let path = self.here();
        let text = &self.scalar.text;
        for &id in self.subs.current() {
            let payload = match self.subs.mode(id) {
                Mode::Realtime => Payload::Partial(text.clone()),
                Mode::Delta => Payload::Delta(text[self.scalar.flushed..].to_owned()),
            };
            self.events.push(Event {
                subscription: SubscriptionId(id),
                path: path.clone(),
                payload,
            });
        }
        self.scalar.flushed = text.len();
    }
}
