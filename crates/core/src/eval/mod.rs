//! Evals (docs/design.md#audit-and-replay): a scenario file runs scripted turns through the
//! real chat service (a temporary data dir, the scripted model) and scores each turn from its
//! events: the tool calls and their order, budget compliance, guardrail hits, stop reason, the
//! reply and the stored state. The same event stream the UI and the audit see is what gets judged.
//! This module reads scenarios and scores turns; running one through the app is
//! `crate::app`'s (`app/eval_run.rs`), so nothing here reaches up into the app.

mod scenario;
mod score;

pub use scenario::{Expect, Scenario, ScenarioTurn};
pub use score::{Check, Observed, score_turn};
