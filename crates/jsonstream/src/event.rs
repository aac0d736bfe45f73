//! What subscribers receive: `Event`, its `Payload`, the `Mode` chosen per
//! subscription, and the `SubscriptionId` handed out when subscribing.
//!
//! Plain data only; deciding when to emit belongs to `subscriptions` and the
//! state machine.

use serde_json::Value;

use crate::path::Path;

/// How a subscription reports string values. Non-string values (numbers,
/// booleans, null, objects, arrays) are reported the same way in both modes:
/// one [`Payload::Value`] when the value is complete.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// While a string is open, each `feed` that decoded new characters emits
    /// [`Payload::Partial`] with the whole text so far; when it closes,
    /// [`Payload::Value`] with the final string. Each partial clones the text
    /// so far: prefer `Delta` for long texts.
    Realtime,
    /// While a string is open, each `feed` that decoded new characters emits
    /// [`Payload::Delta`] with only those characters; when it closes, any last
    /// delta and then [`Payload::End`]. Concatenating the deltas gives the
    /// string.
    Delta,
}

/// Identifies a subscription; returned by [`crate::ParserBuilder::subscribe`].
/// Ids are assigned 0, 1, 2, … in subscription order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubscriptionId(pub(crate) usize);

impl SubscriptionId {
    /// The 0-based position of the subscription in subscription order.
    pub fn index(self) -> usize {
        self.0
    }
}

/// Something a subscription saw.
///
/// Events arrive in document order. How many `Partial`/`Delta` events a
/// string produces depends on how the input was chunked (at most one per
/// `feed` call per string); everything else does not: the concatenated deltas,
/// the last partial's text, and all `Value`/`End` events are the same for any
/// chunking.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Which subscription matched.
    pub subscription: SubscriptionId,
    /// The concrete path of the value, e.g. `$.plan_update.steps[1].title`.
    pub path: Path,
    /// What happened.
    pub payload: Payload,
}

/// The content of an [`Event`].
#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    /// [`Mode::Realtime`]: a string still being received; its text so far.
    Partial(String),
    /// [`Mode::Delta`]: characters of a string decoded since its last event.
    /// Never empty; never splits a character.
    Delta(String),
    /// [`Mode::Delta`]: the string closed; no more deltas follow for it.
    End,
    /// A subscribed value is complete (in `Realtime` mode this includes
    /// strings). Numbers are built from their text exactly as serde_json
    /// does.
    Value(Value),
}
