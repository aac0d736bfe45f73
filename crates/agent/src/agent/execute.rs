//! Executing one round's tool calls: argument parsing, approvals (asked one at a time, in
//! order), then the calls run — those that change state (`Tool::changes_state`) one after
//! another in the model's order, read-only ones between them concurrently — and each outcome
//! is handed back the moment it completes. Tool failures, unknown tools, bad arguments and
//! denials are observations, never errors. Storing the outcomes is `tool_round`'s.

use std::sync::Arc;

use futures::StreamExt as _;
use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use vibe_llm::{ToolCall, UNUSABLE_REPLY};
use vibe_wire::Event;

use crate::CoreError;
use crate::agent::approvals::{ApprovalRequest, Approver};
use crate::agent::fsm::{CallVerdict, PlannedCall};
use crate::tools::{Tool, ToolContext, ToolOutput};
use vibe_runlog::emit::Emitter;

/// One call's outcome.
pub struct CallOutcome {
    /// The call's place in the model's answer.
    pub index: usize,
    pub call: ToolCall,
    pub output: ToolOutput,
    /// `false` for calls refused by a budget or denied: they do not count for the failure guard.
    pub executed: bool,
}

/// Parse a call's arguments: empty text is `{}`; anything else must be a JSON object.
pub fn parse_arguments(raw: &str) -> Result<Value, String> {
    if raw.trim().is_empty() {
        return Ok(json!({}));
    }
    // Strict: a duplicate key is refused, not silently collapsed to its last value.
    match vibe_store::parse_strict(raw) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(other) => Err(format!("arguments must be a JSON object, got {other}")),
        Err(e) => Err(format!(
            "arguments are not valid JSON ({e}); send a JSON object matching the tool's schema"
        )),
    }
}

/// The arguments as shown in events: parsed JSON, or the raw text when unparsable.
pub fn shown_arguments(raw: &str) -> Value {
    parse_arguments(raw).unwrap_or_else(|_| Value::String(raw.to_string()))
}

/// Receives each outcome the moment it is known, and may store it (asynchronously) before
/// the next one is taken.
pub trait OutcomeSink: Send {
    fn done(&mut self, outcome: CallOutcome) -> BoxFuture<'_, Result<(), CoreError>>;
    /// Called before the round waits for the person to approve a call, so what is held for
    /// the next commit can be stored first.
    fn before_wait(&mut self) -> BoxFuture<'_, Result<(), CoreError>>;
}

/// A call after its arguments, its tool and its approval were checked.
enum Prepared {
    /// Finished without running (refused, unknown, bad arguments).
    Done(ToolOutput, bool),
    /// The person was asked and said no.
    Denied(ToolOutput),
    /// To run; `true` when the person approved it.
    Run(Arc<dyn Tool>, Value, bool),
}

/// A checked call: ready, or to run only if the person approves it (for this reason).
enum Checked {
    Ready(Prepared),
    Ask(Arc<dyn Tool>, Value, String),
}

/// Run one round's calls. Approvals are asked first, one at a time in call order; then
/// calls that change state run one after another in call order, and each stretch of
/// read-only calls between them runs concurrently. `done` gets each outcome the moment it is
/// known (so it can be stored at once). `Ok(false)`: the run was cancelled; the calls `done`
/// did not get are unfinished.
#[allow(clippy::too_many_arguments)]
pub async fn execute_calls(
    calls: &[ToolCall],
    planned: &[PlannedCall],
    lookup: &(dyn Fn(&str) -> Option<Arc<dyn Tool>> + Sync),
    ctx: &ToolContext,
    approver: &dyn Approver,
    emitter: &Emitter,
    cancel: &CancellationToken,
    done: &mut dyn OutcomeSink,
) -> Result<bool, CoreError> {
    let mut runs = Vec::with_capacity(calls.len());
    // Whether the round waited for the person: state may have changed meanwhile.
    let mut asked = false;
    for (index, (call, plan)) in calls.iter().zip(planned).enumerate() {
        let item = match prepare(call, plan, lookup, ctx) {
            Checked::Ready(item) => item,
            Checked::Ask(tool, args, reason) => {
                done.before_wait().await?;
                match ask(call, tool, args, reason, ctx, approver, emitter, cancel).await {
                    Some(item) => item,
                    None => return Ok(false),
                }
            }
        };
        match item {
            Prepared::Done(output, executed) => {
                done.done(CallOutcome { index, call: call.clone(), output, executed }).await?;
            }
            Prepared::Denied(output) => {
                asked = true;
                done.done(CallOutcome { index, call: call.clone(), output, executed: false })
                    .await?;
            }
            Prepared::Run(tool, args, approved) => {
                asked |= approved;
                runs.push((index, tool, args, approved));
            }
        }
    }
    let mut runs = runs.into_iter().peekable();
    let approved_ctx = ToolContext { approved: true, ..ctx.clone() };
    // Until a state-changing call has run, what `prepare` checked is still what is stored,
    // unless the round waited for the person (who may have edited it meanwhile).
    let checked_ctx = ToolContext { approval_checked: true, ..ctx.clone() };
    let mut changed = asked;
    let ctx_of = |approved: bool, changed: bool| match (approved, changed) {
        (true, _) => &approved_ctx,
        (false, false) => &checked_ctx,
        (false, true) => ctx,
    };
    while let Some((index, tool, args, approved)) = runs.next() {
        let mut batch = FuturesUnordered::new();
        batch.push(run_one(index, tool.clone(), args, ctx_of(approved, changed)));
        if tool.changes_state() {
            changed = true;
        } else {
            while let Some((index, tool, args, approved)) =
                runs.next_if(|(_, t, _, _)| !t.changes_state())
            {
                batch.push(run_one(index, tool, args, ctx_of(approved, changed)));
            }
        }
        loop {
            let finished = tokio::select! {
                biased;
                _ = cancel.cancelled() => return Ok(false),
                next = batch.next() => next,
            };
            let Some((index, output)) = finished else { break };
            let outcome = CallOutcome { index, call: calls[index].clone(), output, executed: true };
            done.done(outcome).await?;
        }
    }
    Ok(true)
}

fn run_one<'a>(
    index: usize,
    tool: Arc<dyn Tool>,
    args: Value,
    ctx: &'a ToolContext,
) -> BoxFuture<'a, (usize, ToolOutput)> {
    Box::pin(async move { (index, tool.call(ctx, args).await) })
}

/// What was wrong with a structured-mode reply that could not be used (the adapter's
/// [`UNUSABLE_REPLY`] call), as the observation the model gets.
fn unusable_reply(call: &ToolCall) -> String {
    let args = serde_json::from_str::<Value>(&call.arguments).unwrap_or(Value::Null);
    match args["message"].as_str() {
        Some(message) => message.to_string(),
        None => "your reply could not be used; answer with exactly one JSON action object".into(),
    }
}

/// Check one call: its verdict, its tool, its arguments and whether it needs approval.
fn prepare(
    call: &ToolCall,
    plan: &PlannedCall,
    lookup: &(dyn Fn(&str) -> Option<Arc<dyn Tool>> + Sync),
    ctx: &ToolContext,
) -> Checked {
    let done = |output, executed| Checked::Ready(Prepared::Done(output, executed));
    let tool = match &plan.verdict {
        CallVerdict::Refuse(why) => return done(ToolOutput::error(why.clone()), false),
        CallVerdict::Run if call.name == UNUSABLE_REPLY => {
            return done(ToolOutput::error(unusable_reply(call)), true);
        }
        CallVerdict::Run => match lookup(&call.name) {
            Some(tool) => tool,
            None => {
                let why =
                    format!("unknown tool \"{}\"; call one of the tools you were given", call.name);
                return done(ToolOutput::error(why), true);
            }
        },
    };
    let args = match parse_arguments(&call.arguments) {
        Ok(args) => args,
        Err(why) => return done(ToolOutput::error(why), true),
    };
    match tool.approval_in(ctx, &args) {
        Some(reason) => Checked::Ask(tool, args, reason),
        None => Checked::Ready(Prepared::Run(tool, args, false)),
    }
}

/// Ask the person to approve one call; `None` when the run was cancelled meanwhile.
#[allow(clippy::too_many_arguments)]
async fn ask(
    call: &ToolCall,
    tool: Arc<dyn Tool>,
    args: Value,
    reason: String,
    ctx: &ToolContext,
    approver: &dyn Approver,
    emitter: &Emitter,
    cancel: &CancellationToken,
) -> Option<Prepared> {
    let request = ApprovalRequest {
        request_id: format!("{}-{}", ctx.run_id, call.id),
        tool: call.name.clone(),
        args: args.clone(),
        reason,
        connection: tool.connection(),
    };
    emitter.emit(Event::ApprovalRequired {
        request_id: request.request_id.clone(),
        tool: request.tool.clone(),
        args: request.args.clone(),
        reason: request.reason.clone(),
        connection: request.connection.clone(),
    });
    let decision = tokio::select! {
        biased;
        _ = cancel.cancelled() => return None,
        d = approver.decide(&request) => d,
    };
    emitter.emit(Event::ApprovalResolved {
        request_id: request.request_id.clone(),
        approved: decision.approved,
        by: decision.by,
    });
    if decision.approved {
        return Some(Prepared::Run(tool, args, true));
    }
    let denied = ToolOutput::ok(json!({
        "status": "denied",
        "message": format!("the person did not approve {}; do not retry it, continue without it or ask them", call.name),
    }));
    Some(Prepared::Denied(denied))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_must_be_an_object() {
        assert_eq!(parse_arguments("").unwrap(), json!({}));
        assert_eq!(parse_arguments(r#"{"a":1}"#).unwrap(), json!({"a": 1}));
        assert!(parse_arguments("[1]").unwrap_err().contains("JSON object"));
        assert!(parse_arguments("{\"a\":").unwrap_err().contains("not valid JSON"));
        let dup = parse_arguments(r#"{"section": "goals", "section": "journal"}"#).unwrap_err();
        assert!(dup.contains("duplicate key \"section\""), "{dup}");
        assert_eq!(shown_arguments("{oops"), json!("{oops"));
    }
}
