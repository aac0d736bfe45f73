//! Helpers shared by the integration tests: whole / byte-by-byte parsing,
//! exact value comparison, and event normalization across chunkings.

use std::collections::HashMap;

use serde_json::Value;
use vibe_jsonstream::{Error, Event, Parser, Path, Payload, SubscriptionId};

/// Parses `bytes` fed as one chunk.
pub fn parse_whole(bytes: &[u8]) -> Result<Value, Error> {
    let mut p = Parser::new();
    p.feed(bytes)?;
    p.finish()
}

/// Parses `bytes` fed one byte at a time.
pub fn parse_bytewise(bytes: &[u8]) -> Result<Value, Error> {
    let mut p = Parser::new();
    for b in bytes {
        p.feed(std::slice::from_ref(b))?;
    }
    p.finish()
}

/// Equal values with the same rendering: catches key order and number
/// representation differences that `Value`'s `==` ignores.
pub fn assert_same(ours: &Value, theirs: &Value, what: &str) {
    assert_eq!(ours, theirs, "{what}");
    assert_eq!(ours.to_string(), theirs.to_string(), "{what}");
}

/// The syntax error message of a rejected input, fed whole.
pub fn syntax_message(bytes: &[u8]) -> String {
    match parse_whole(bytes) {
        Err(Error::Syntax { message, .. }) => message,
        other => {
            panic!("{:?} should be a syntax error, got {other:?}", String::from_utf8_lossy(bytes))
        }
    }
}

/// Feeds `chunks` to `parser`, collecting every event, then ends it.
pub fn run_chunks(mut parser: Parser, chunks: &[&[u8]]) -> (Vec<Event>, Result<Value, Error>) {
    let mut events = Vec::new();
    for chunk in chunks {
        if let Err(e) = parser.feed(chunk) {
            events.extend(parser.drain_events());
            return (events, Err(e));
        }
        events.extend(parser.drain_events());
    }
    let end = parser.end();
    events.extend(parser.drain_events());
    let value = end.and_then(|()| parser.finish());
    (events, value)
}

/// Removes what depends on chunking: partials are checked to be prefixes of
/// the final string and dropped; the deltas of one string are merged into
/// one, placed just before its `End`.
pub fn normalize(events: Vec<Event>) -> Vec<Event> {
    let mut partials: HashMap<(SubscriptionId, Path), String> = HashMap::new();
    let mut deltas: HashMap<(SubscriptionId, Path), String> = HashMap::new();
    let mut out = Vec::new();
    for e in events {
        let key = (e.subscription, e.path.clone());
        match e.payload {
            Payload::Partial(text) => {
                if let Some(previous) = partials.get(&key) {
                    assert!(text.starts_with(previous.as_str()) && text.len() > previous.len());
                }
                partials.insert(key, text);
            }
            Payload::Delta(text) => {
                assert!(!text.is_empty(), "empty delta");
                deltas.entry(key).or_default().push_str(&text);
            }
            Payload::End => {
                if let Some(text) = deltas.remove(&key) {
                    out.push(Event {
                        subscription: e.subscription,
                        path: e.path.clone(),
                        payload: Payload::Delta(text),
                    });
                }
                out.push(Event { payload: Payload::End, ..e });
            }
            Payload::Value(v) => {
                if let (Some(prefix), Some(full)) = (partials.remove(&key), v.as_str()) {
                    assert!(full.starts_with(&prefix), "partial {prefix:?} of {full:?}");
                }
                out.push(Event { payload: Payload::Value(v), ..e });
            }
        }
    }
    assert!(deltas.is_empty(), "deltas without End: {deltas:?}");
    out
}
