//! The protocol engine (docs/design.md#protocols, issue 10): guided multi-step coaching protocols
//! defined in skills' `protocols/*.yaml`, run inside chat. It owns the commands (invite, start,
//! advance, cancel, pause by starting another, resume, later), the rules applied before each chat
//! turn (typed start of an invitation, resume recap, idle timeout, reminder answers), the protocol
//! prompt section, reminders, and reports (Markdown, HTML, JSON, PDF). Storing runs is
//! `vibe-store`'s (`protocol_runs`); parsing definitions is `vibe-skills`'; the agent loop knows
//! nothing of protocols: it only gets the prompt section and the three tools. This crate sits
//! below `vibe-core` (which composes the engine into a chat turn and exposes the protocol tools)
//! and knows nothing of chat, the agent or the app.

mod clock;
mod engine;
mod error;
mod find;
pub(crate) mod invite;
mod notify;
mod pdf;
mod pdf_font;
mod pdf_wrap;
mod prompt;
mod reminder_times;
mod reminders;
mod report;
mod report_doc;
mod turn;

pub use invite::{Invitation, default_actions};

pub use clock::{Clock, fixed_clock, system_clock};
pub use engine::{Advance, ProtocolEngine};
pub use error::ProtocolError;
pub use find::ProtocolInfo;
pub use pdf::render_pdf;
pub use pdf_font::{PdfError, ReportFont};
pub use reminder_times::{
    QuietHours, REMINDER_TIMES_PATH, ReminderSettings, ReminderSettingsExt, TimeOfDay,
    check_reminder_times, personal_times,
};
pub use reminders::ReminderItem;
pub use report::{REPORT_SCHEMA_VERSION, ReportFormat, render_report, report_json};
pub use turn::{TurnInputs, TurnPlan};

/// The `protocol` section of the chat settings (a wire type, with its defaults).
pub use vibe_wire::settings::ProtocolSettings;

/// Top-level keys of a skill's state the engine owns: the active run's mirror (`protocol`) and
/// the invitation (`protocol_invitation`). The state tools refuse to write them (issue 28: a
/// model could otherwise forge an invitation the person never saw, or mark a run completed).
pub const ENGINE_OWNED_KEYS: [&str; 2] = ["protocol", "protocol_invitation"];

/// Whether the state path `path` (dotted, relative to the skill) is in engine-owned state.
pub fn engine_owned(path: &str) -> bool {
    let first = path.split('.').next().unwrap_or_default();
    ENGINE_OWNED_KEYS.contains(&first)
}
