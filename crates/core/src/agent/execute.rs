//! Executing one round's tool calls: argument parsing, approvals (asked one at a time, in
//! order), then the approved calls run concurrently; results come back in call order. Tool
//! failures, unknown tools, bad arguments and denials are observations, never errors.

use std::sync::Arc;

use futures::future::join_all;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use vibe_llm::ToolCall;
use vibe_wire::Event;

use crate::agent::approvals::{ApprovalRequest, Approver};
use crate::agent::fsm::{CallVerdict, PlannedCall};
use crate::emit::Emitter;
use crate::tools::{Tool, ToolContext, ToolOutput};

/// One call's outcome, in call order.
pub struct CallOutcome {
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
    match serde_json::from_str::<Value>(raw) {
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

enum Prepared {
    Done(ToolOutput, bool),
    Run(Arc<dyn Tool>, Value),
}

#[allow(clippy::too_many_arguments)]
pub async fn execute_calls(
    calls: &[ToolCall],
    planned: &[PlannedCall],
    lookup: &dyn Fn(&str) -> Option<Arc<dyn Tool>>,
    ctx: &ToolContext,
    approver: &dyn Approver,
    emitter: &Emitter,
    cancel: &CancellationToken,
) -> Option<Vec<CallOutcome>> {
    let mut prepared = Vec::with_capacity(calls.len());
    for (call, plan) in calls.iter().zip(planned) {
        let item = match &plan.verdict {
            CallVerdict::Refuse(why) => Prepared::Done(ToolOutput::error(why.clone()), false),
            CallVerdict::Run => match (lookup(&call.name), parse_arguments(&call.arguments)) {
                (None, _) => Prepared::Done(
                    ToolOutput::error(format!(
                        "unknown tool \"{}\"; call one of the tools you were given",
                        call.name
                    )),
                    true,
                ),
                (Some(_), Err(why)) => Prepared::Done(ToolOutput::error(why), true),
                (Some(tool), Ok(args)) => match tool.needs_approval(&args) {
                    None => Prepared::Run(tool, args),
                    Some(reason) => {
                        let request = ApprovalRequest {
                            request_id: format!("{}-{}", ctx.run_id, call.id),
                            tool: call.name.clone(),
                            args: args.clone(),
                            reason,
                        };
                        emitter.emit(Event::ApprovalRequired {
                            request_id: request.request_id.clone(),
                            tool: request.tool.clone(),
                            args: request.args.clone(),
                            reason: request.reason.clone(),
                        });
                        let decision = tokio::select! {
                            biased;
                            _ = cancel.cancelled() => return None,
                            d = approver.decide(&request) => d,
                        };
                        emitter.emit(Event::ApprovalResolved {
                            request_id: request.request_id.clone(),
                            approved: decision.approved,
                            by: decision.by.to_string(),
                        });
                        if decision.approved {
                            Prepared::Run(tool, args)
                        } else {
                            let denied = ToolOutput::ok(json!({
                                "status": "denied",
                                "message": format!("the person did not approve {}; do not retry it, continue without it or ask them", call.name),
                            }));
                            Prepared::Done(denied, false)
                        }
                    }
                },
            },
        };
        prepared.push(item);
    }
    let runs = prepared.into_iter().zip(calls).map(|(item, call)| async move {
        match item {
            Prepared::Done(output, executed) => {
                CallOutcome { call: call.clone(), output, executed }
            }
            Prepared::Run(tool, args) => {
                let output = tool.call(ctx, args).await;
                CallOutcome { call: call.clone(), output, executed: true }
            }
        }
    });
    tokio::select! {
        biased;
        _ = cancel.cancelled() => None,
        outcomes = join_all(runs) => Some(outcomes),
    }
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
        assert_eq!(shown_arguments("{oops"), json!("{oops"));
    }
}
