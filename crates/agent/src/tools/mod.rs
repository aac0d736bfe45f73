//! Tools the agent can call: the [`Tool`] trait every handler implements, the context a call
//! runs in, and what a call returns. The registry of handlers ([`ToolRegistry`], which also
//! decides a skill's tool set from its `tools.yaml`) and the built-in tools live in the files
//! beside this one; the rules are in docs/tools.md. Deciding *when* to call a tool, budgets
//! and approvals belong to the agent loop, not here.

// Handlers return an error observation (`ToolOutput`) as their `Err`: one per tool call, so
// its size does not matter, and boxing it would only add noise to every early return.
#![allow(clippy::result_large_err)]

mod args;
mod birth;
mod chart;
mod described;
mod mcp_call;
mod plan;
mod protocol_tools;
mod registry;
mod resource;
mod script;
mod state;
mod tarot;
mod toolset;
mod use_connection;
mod use_skill;
mod wellbeing;

pub use mcp_call::McpTool;
pub use registry::{ToolRegistry, ToolsSettings, ToolsSettingsExt};
pub use toolset::ToolSet;
pub use use_connection::{USE_CONNECTION, UseConnection};
pub use wellbeing::FLAG_WELLBEING_CONCERN;
pub use wellbeing::read_flag;

use std::path::PathBuf;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use vibe_llm::ToolDef;
use vibe_skills::Registry;
use vibe_store::{StateWrite, Store};
use vibe_wire::Plan;

use crate::store_io::blocking;
use vibe_runlog::emit::Emitter;

/// What kind of work a tool does (budgets count `Script` calls separately; `Display` tools only
/// emit events).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolKind {
    /// Reads or writes the person's data.
    Data,
    /// Shows something to the person (emits an event), changes nothing.
    Display,
    /// Runs a script from a skill's `scripts/` folder.
    Script,
    /// Computes something (charts, tarot draws).
    Compute,
    /// Activates a skill.
    Skill,
    /// Updates the explicit plan.
    Plan,
    /// Calls a tool of a connected MCP server.
    Connection,
}

/// Everything a tool call may use. Built by the agent for each call.
#[derive(Clone)]
pub struct ToolContext {
    pub store: Arc<Store>,
    pub skills: Arc<Registry>,
    pub user: String,
    pub conversation_id: String,
    pub run_id: String,
    /// The skill active when the call was made (`None` in phase 1).
    pub active_skill: Option<String>,
    /// `runs/<run_id>/` in the data dir, for files a tool writes (None in memory-only runs).
    pub run_dir: Option<PathBuf>,
    /// For display tools' events.
    pub emitter: Emitter,
    /// Seed for tools that draw at random (tarot), so tests and replays are deterministic.
    pub seed: Option<u64>,
    /// The person approved this call. The loop asks all of a round's approvals before it runs
    /// the round, so a tool whose need for approval depends on what is stored (a state write
    /// that would remove data) checks again when it runs, and refuses without it.
    pub approved: bool,
    /// The loop asked [`Tool::approval_in`] for this call and nothing can have changed state
    /// since (no state-changing call of the round ran before it, and the round did not wait
    /// for the person to approve anything), so asking again when it runs would read what was
    /// just read.
    pub approval_checked: bool,
    /// The connected MCP servers (`None`: none configured).
    pub connections: Option<Arc<crate::connections::Connections>>,
    /// The turn's cancellation (Stop): long calls (an MCP tool) stop waiting when it trips.
    pub cancel: tokio_util::sync::CancellationToken,
    /// The app's language choice (`zh-CN`, `en`; `None`: it follows the system), for the
    /// crisis contacts of a wellbeing flag when nothing else names a region.
    pub language: Option<String>,
}

/// What a tool call returns to the loop.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolOutput {
    /// The observation given back to the model (serialised as the tool message content).
    pub result: Value,
    /// `true` when the call failed; the model sees `result` as an error observation.
    pub is_error: bool,
    /// A change the loop must apply (activating a skill, a new plan).
    pub effect: Option<Effect>,
    /// A state write the call checked but did not apply ([`ToolOutput::staged`]). The loop
    /// applies it in the transaction that stores this result, so the change and the result
    /// reporting it are stored together or not at all; a caller that stores no result applies
    /// it with [`ToolOutput::settle`].
    pub write: Option<StateWrite>,
}

impl ToolOutput {
    pub fn ok(result: Value) -> Self {
        Self { result, is_error: false, effect: None, write: None }
    }

    /// A successful result that also asks the loop to apply `effect`.
    pub fn with_effect(result: Value, effect: Effect) -> Self {
        Self { result, is_error: false, effect: Some(effect), write: None }
    }

    /// A successful result that holds only once `write` is applied (see [`ToolOutput::write`]).
    pub fn staged(result: Value, write: StateWrite) -> Self {
        Self { result, is_error: false, effect: None, write: Some(write) }
    }

    /// Apply the staged write on its own (off the async worker) and say which paths changed;
    /// a write the store refuses becomes the error observation. Without one, `self` unchanged.
    pub async fn settle(mut self, ctx: &ToolContext) -> ToolOutput {
        let Some(write) = self.write.take() else { return self };
        let (skill, section) = (write.skill().to_string(), write.section().to_string());
        match blocking(&ctx.store, move |s| s.apply_state_write(&write)).await {
            Ok(()) => {
                state_changed(&ctx.emitter, Some(&skill), [section]);
                self
            }
            Err(e) => ToolOutput::error(e.to_string()),
        }
    }

    /// An error observation: `{"status": "error", "message": ...}`.
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            result: serde_json::json!({"status": "error", "message": message.into()}),
            is_error: true,
            effect: None,
            write: None,
        }
    }

    /// An error observation naming the argument or profile field at fault:
    /// `{"status": "error", "field": ..., "message": ...}`.
    pub fn field_error(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            result: serde_json::json!({
                "status": "error",
                "field": field.into(),
                "message": message.into(),
            }),
            is_error: true,
            effect: None,
            write: None,
        }
    }
}

/// Tells front ends which stored paths a call changed (`state_changed`), after the write
/// committed: `skill` names the skill whose state changed, `None` the person's profile. The
/// one way the event is made, by tools and by the loop that commits a tool's write.
pub(crate) fn state_changed(
    emitter: &Emitter,
    skill: Option<&str>,
    paths: impl IntoIterator<Item = String>,
) {
    let paths: Vec<String> = paths.into_iter().collect();
    if !paths.is_empty() {
        emitter.emit(vibe_wire::Event::StateChanged { skill: skill.map(str::to_string), paths });
    }
}

/// Changes a tool asks the loop to apply.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// `use_skill` activated a skill (already persisted on the conversation): rebuild the
    /// system prompt for phase 2 before the next model call.
    SkillActivated { skill: String, scenario: Option<String> },
    /// `update_plan` replaced the plan.
    PlanUpdated(Plan),
    /// `use_connection`: offer this connected server's tools for the rest of the turn.
    ConnectionUsed { server: String },
}

/// A tool handler.
pub trait Tool: Send + Sync {
    /// The name the model calls it by.
    fn name(&self) -> &str;
    /// Name, description (with examples and edge cases, docs/design.md#tools) and JSON schema
    /// of the arguments.
    fn definition(&self) -> ToolDef;
    fn kind(&self) -> ToolKind {
        ToolKind::Data
    }
    /// Whether a call may change state (the person's data, the active skill, the plan,
    /// files, anything outside the call's own result). Calls that do run one after another
    /// in the order the model gave them; read-only calls of a round may run concurrently.
    /// Defaults to `true`: a tool is read-only only when it says so.
    fn changes_state(&self) -> bool {
        true
    }
    /// `Some(reason)` when this call needs the person's approval before it runs.
    fn needs_approval(&self, _args: &Value) -> Option<String> {
        None
    }
    /// As [`Tool::needs_approval`], for tools whose answer depends on what is stored (a state
    /// write that would remove data). The agent loop asks this one; it defaults to
    /// `needs_approval`.
    fn approval_in(&self, _ctx: &ToolContext, args: &Value) -> Option<String> {
        self.needs_approval(args)
    }
    /// The connected MCP server this tool belongs to, for its approval request (`None`: one
    /// of the app's own tools).
    fn connection(&self) -> Option<vibe_wire::ApprovalConnection> {
        None
    }
    /// Run the call. Failures are returned as [`ToolOutput::error`], never panics.
    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput>;
}

/// The active skill of a call, or the error observation every skill-bound tool returns in
/// phase 1.
pub(crate) fn active_skill<'a>(ctx: &'a ToolContext, tool: &str) -> Result<&'a str, ToolOutput> {
    ctx.active_skill.as_deref().ok_or_else(|| {
        ToolOutput::error(format!(
            "{tool} works on the active skill's data, and no skill is active yet: call use_skill first"
        ))
    })
}

/// Run a tool's synchronous body, which reads or writes the store, off the async worker
/// (`store_io::off_worker`): a write may wait for another process's lock, up to the store's
/// busy timeout, and the other tasks of the runtime must go on meanwhile.
pub(crate) async fn sync_call(
    ctx: &ToolContext,
    args: Value,
    body: fn(&ToolContext, &Value) -> Result<ToolOutput, ToolOutput>,
) -> ToolOutput {
    let ctx = ctx.clone();
    match crate::store_io::off_worker(move || body(&ctx, &args)).await {
        Ok(Ok(out) | Err(out)) => out,
        Err(e) => ToolOutput::error(e.to_string()),
    }
}

/// A built-in tool's definition, built once per process: its text and schema are constants,
/// and a run builds its offered set's definitions anew (building the JSON schemas cost a
/// measurable share of a turn; a copy costs a fraction of that).
pub(crate) fn builtin_def(
    cell: &'static std::sync::OnceLock<ToolDef>,
    build: impl FnOnce() -> ToolDef,
) -> ToolDef {
    cell.get_or_init(build).clone()
}

/// A tool definition from its parts.
pub(crate) fn tool_def(name: &str, description: &str, parameters: Value) -> ToolDef {
    ToolDef {
        name: name.to_string(),
        description: description.to_string(),
        parameters: parameters.into(),
    }
}
