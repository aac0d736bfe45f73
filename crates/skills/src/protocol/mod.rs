//! Coaching protocol definitions (`protocols/<id>.yaml` in any skill folder): the typed
//! format ([`Protocol`], `def`), its committed JSON Schema and the parser that reports every
//! problem as `path:line:col: message` (`parse`). Running protocols (state, steps, events,
//! reports) belongs to the engine in `vibe-core`, storing runs to `vibe-store`.

mod def;
mod parse;

pub use def::{
    CompletionTarget, Field, FieldLabel, FieldType, Protocol, Reminder, ReportSection,
    ReportTemplate, Step,
};
pub use parse::{PROTOCOL_SCHEMA, parse_protocol_def};
