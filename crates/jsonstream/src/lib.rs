//! An incremental JSON parser with path subscriptions.
//!
//! Feed it the bytes of one JSON document in chunks of any size, as they
//! arrive from the network; it reports the values you subscribed to as soon
//! as they are known — strings even while they are still arriving — and
//! gives the whole document as a `serde_json::Value` at the end.
//!
//! * Strict RFC 8259: one top-level value, no comments, no trailing commas,
//!   exact number grammar, escapes with surrogate pairs, valid UTF-8 (also
//!   when a character is split between chunks). Errors carry the byte offset,
//!   line and column ([`Error`], [`Position`]).
//! * A state machine with an explicit container stack: no recursion, so
//!   depth costs heap only; nesting is limited to
//!   [`DEFAULT_MAX_DEPTH`] levels by default (like serde_json).
//! * Subscriptions on JSONPath-like patterns (`$.action.type`,
//!   `$.plan_update.steps[*].title`, `$['odd key'][0]`, `.*`), each in a
//!   [`Mode`]: `Realtime` (the string so far) or `Delta` (only the new
//!   characters, then an end marker). Non-string values are reported once
//!   complete, as a `serde_json::Value`.
//! * [`Parser::finish`] returns exactly what `serde_json::from_slice` would
//!   (number representation, key order, repeated keys). Build the parser
//!   with `retain_value(false)` to only validate and stream, which skips
//!   building everything not subscribed.
//!
//! ```
//! use vibe_jsonstream::{Mode, Parser, Payload};
//!
//! let mut builder = Parser::builder();
//! let kind = builder.subscribe("$.action.type", Mode::Realtime)?;
//! let answer = builder.subscribe("$.final_answer.content", Mode::Delta)?;
//! let titles = builder.subscribe("$.plan_update.steps[*].title", Mode::Realtime)?;
//! let mut parser = builder.build();
//!
//! let mut text = String::new();
//! let mut action = None;
//! let mut steps = Vec::new();
//! for chunk in [
//!     r#"{"plan_update": {"steps": [{"title": "Re"#,
//!     r#"ad notes", "status": "done"}]}, "action": {"ty"#,
//!     r#"pe": "final_answer"}, "final_answer": {"content": "Hel"#,
//!     r#"lo, w"#,
//!     r#"orld \u2728"}}"#,
//! ] {
//!     parser.feed(chunk.as_bytes())?;
//!     for event in parser.drain_events() {
//!         match event.payload {
//!             Payload::Value(v) if event.subscription == kind => action = v.as_str().map(str::to_owned),
//!             Payload::Delta(delta) if event.subscription == answer => text.push_str(&delta),
//!             Payload::Value(v) if event.subscription == titles => {
//!                 steps.push((event.path.to_string(), v));
//!             }
//!             _ => {}
//!         }
//!     }
//! }
//! let whole = parser.finish()?;
//!
//! assert_eq!(action.as_deref(), Some("final_answer"));
//! assert_eq!(text, "Hello, world ✨");
//! assert_eq!(steps, [("$.plan_update.steps[0].title".to_owned(), "Read notes".into())]);
//! assert_eq!(whole["final_answer"]["content"], "Hello, world ✨");
//! # Ok::<(), vibe_jsonstream::Error>(())
//! ```

mod builder;
mod classes;
mod emit;
mod error;
mod event;
mod machine;
mod parser;
mod path;
mod pattern;
mod scalars;
mod state;
mod strings;
mod subscriptions;

pub use error::{Error, Position};
pub use event::{Event, Mode, Payload, SubscriptionId};
pub use parser::{DEFAULT_MAX_DEPTH, Parser, ParserBuilder};
pub use path::{Path, PathSegment};
