//! The contract crate: what crosses the boundary between the core and its front ends
//! (desktop shell, `vibe` CLI, audit log). Plain serde types only — no logic, no IO.

mod error_info;
mod event;
mod run;

pub use error_info::ErrorInfo;
pub use event::{Envelope, Event, ProtocolAction, SafetyResource, SkillsChange, SkillsChangeKind};
pub use run::{Phase, Plan, PlanStep, SectionTokens, StopReason, SummaryBy, TokenUsage};

#[cfg(test)]
mod ts_bindings;
