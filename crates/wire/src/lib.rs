//! The contract crate: what crosses the boundary between the core and its front ends
//! (desktop shell, `vibe` CLI, audit log). Plain serde types only — no logic, no IO.

pub mod command;
mod error_info;
mod event;
mod kinds;
mod run;
pub mod settings;

pub use error_info::ErrorInfo;
pub use event::{
    ApprovalConnection, Envelope, Event, ProtocolAction, SafetyResource, SkillsChange,
    SkillsChangeKind,
};
pub use kinds::{
    ApprovalSource, DisplayKind, ErrorKind, PlanStepStatus, ProtocolChoice, RunStatus,
    SafetyCategory, SafetyRisk, ToolMode, VoiceMode,
};
pub use run::{
    Phase, Plan, PlanStep, PromptBudget, SectionTokens, StopReason, SummaryBy, TokenUsage,
};

#[cfg(test)]
mod command_map;
#[cfg(test)]
mod ts_bindings;
