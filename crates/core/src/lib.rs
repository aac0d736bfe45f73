//! The VibeLife app crate: the `App` facade every front end opens (settings and their
//! resolution into one assembly, keys, recovery, the wire commands), backups (create, check,
//! crash-safe restore), erase and export, evals and benchmarks. The agent, the chat service,
//! tools, memory and safety are `vibe-agent`'s and the run log `vibe-runlog`'s, below this
//! crate; parsing CLI input or talking to a front end does not belong here.
//!
//! A module imports only modules listed before it (docs/architecture.md, "Module boundaries"):
//! `backup`, `eval`, `app`, `bench`. Front ends use `app` and the narrow re-exports below,
//! never the crates under this one (a test in tests/all/layering.rs keeps it so).

pub mod app;
pub mod backup;
pub mod bench;
pub mod eval;

pub use vibe_agent::CoreError;
pub use vibe_runlog::RunLogError;

/// Approving a turn's tool calls (`App::send_message_with`): what a front end implements to
/// answer them, and the fixed policies.
pub mod approvals {
    pub use vibe_agent::agent::{ApprovalDecision, ApprovalPolicy, ApprovalRequest, Approver};
}

/// Reading a file or stdin on a person's behalf, capped (what the CLI reads goes through it),
/// and JSON a person typed or named, read strictly (a duplicate key is refused, naming it).
pub mod input {
    pub use vibe_agent::input::{CappedLines, FILE_CAP, LINE_CAP, read_text};
    pub use vibe_store::parse_strict;
}
/// Events of a run as the front ends receive them: a sink they implement, the emitter a host
/// stamps its own notices with.
pub use vibe_runlog::emit;

/// The run log as the front ends see it: finishing the writes a run left waiting before the
/// process exits, the data folder's run folders (`App::run_folders`) and what they hold.
pub mod audit {
    pub use vibe_runlog::{EXTERNALIZE_THRESHOLD, RunAudit, RunFolders, RunKey, write_waiting};
}
