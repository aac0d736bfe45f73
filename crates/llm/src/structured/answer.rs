//! Structured-action mode, answer side: reads the model's JSON action object as it streams
//! (incremental parser with subscriptions on `$.action.type` and `$.action.content`),
//! streams a final answer as text deltas, reports a tool call as soon as its type is known,
//! and validates the whole object when the root closes; a `plan_update` beside the action
//! becomes an `update_plan` call after it. Leading prose, Markdown fences, `<think>` blocks
//! and trailing text around the object are tolerated.

use serde_json::{Map, Value};
use vibe_jsonstream::{Mode, Parser, Payload, SubscriptionId};

use crate::errors::LlmError;
use crate::types::Delta;

/// The action type of an answer to the user.
pub(crate) const FINAL: &str = "final_answer";
/// The tool a `plan_update` is a call of (the plan tool of native mode).
pub(crate) const PLAN_TOOL: &str = "update_plan";

enum Phase {
    /// Before the object: skipping prose; `think` while inside `<think>…</think>`.
    Leading {
        seen: String,
        think: bool,
    },
    Json,
    Done,
}

pub(crate) struct AnswerParser {
    parser: Parser,
    type_sub: SubscriptionId,
    content_sub: SubscriptionId,
    phase: Phase,
    raw: String,
    tools: Vec<String>,
    id: String,
    action_type: Option<String>,
    held: String,
    started: bool,
}

impl AnswerParser {
    pub fn new(tools: Vec<String>, id: String) -> Result<Self, LlmError> {
        let mut builder = Parser::builder();
        let bad = |e: vibe_jsonstream::Error| LlmError::protocol(format!("structured mode: {e}"));
        let type_sub = builder.subscribe("$.action.type", Mode::Realtime).map_err(bad)?;
        let content_sub = builder.subscribe("$.action.content", Mode::Delta).map_err(bad)?;
        Ok(Self {
            parser: builder.build(),
            type_sub,
            content_sub,
            phase: Phase::Leading { seen: String::new(), think: false },
            raw: String::new(),
            tools,
            id,
            action_type: None,
            held: String::new(),
            started: false,
        })
    }

    /// Everything the model sent, for the repair message.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// Feed answer text; `Err` describes why the answer is malformed.
    pub fn feed(&mut self, text: &str, out: &mut Vec<Delta>) -> Result<(), String> {
        self.raw.push_str(text);
        let json_part = match &mut self.phase {
            Phase::Done => return Ok(()),
            Phase::Json => text,
            Phase::Leading { seen, think } => match leading(seen, think, text, out) {
                Some(start) => {
                    self.phase = Phase::Json;
                    &text[start..]
                }
                None => return Ok(()),
            },
        };
        // Feed up to each '}' so we can stop exactly where the root object closes.
        let bytes = json_part.as_bytes();
        let mut from = 0;
        while from < bytes.len() {
            let to =
                bytes[from..].iter().position(|&b| b == b'}').map_or(bytes.len(), |i| from + i + 1);
            let fed = self.parser.feed(&bytes[from..to]);
            self.drain(out);
            fed.map_err(|e| format!("the reply is not valid JSON ({e})"))?;
            if self.parser.is_complete() {
                self.phase = Phase::Done;
                break;
            }
            from = to;
        }
        Ok(())
    }

    fn drain(&mut self, out: &mut Vec<Delta>) {
        let events: Vec<_> = self.parser.drain_events().collect();
        for event in events {
            match event.payload {
                Payload::Value(Value::String(t)) if event.subscription == self.type_sub => {
                    if t == FINAL && !self.held.is_empty() {
                        out.push(Delta::Text { text: std::mem::take(&mut self.held) });
                    } else if self.tools.contains(&t) {
                        self.started = true;
                        out.push(Delta::ToolCallStart {
                            index: 0,
                            id: self.id.clone(),
                            name: t.clone(),
                        });
                    }
                    self.action_type = Some(t);
                }
                Payload::Delta(d) if event.subscription == self.content_sub => {
                    match self.action_type.as_deref() {
                        Some(FINAL) => out.push(Delta::Text { text: d }),
                        None => self.held.push_str(&d),
                        Some(_) => {}
                    }
                }
                _ => {}
            }
        }
    }

    /// The model finished: validate the object and complete the answer.
    pub fn finish(self, out: &mut Vec<Delta>) -> Result<(), String> {
        match self.phase {
            Phase::Leading { .. } => return Err("the reply contains no JSON object".into()),
            Phase::Json => {
                let mut parser = self.parser;
                return Err(match parser.end() {
                    Err(e) => format!("the JSON object is incomplete ({e})"),
                    Ok(()) => "the JSON object is incomplete".into(),
                });
            }
            Phase::Done => {}
        }
        let value =
            self.parser.finish().map_err(|e| format!("the reply is not valid JSON ({e})"))?;
        let action = value
            .get("action")
            .and_then(Value::as_object)
            .ok_or("the object has no \"action\" object")?;
        let kind = action
            .get("type")
            .and_then(Value::as_str)
            .ok_or("action.type is missing or not a string")?;
        let plan = plan_update(&value, &self.tools)?;
        if kind == FINAL {
            if !action.get("content").is_some_and(Value::is_string) {
                return Err("action.content must be a string holding the answer".into());
            }
            let reason = if plan.is_some() { "tool_calls" } else { "stop" };
            push_plan(out, &self.id, plan, 0);
            out.push(Delta::Finish { reason: Some(reason.into()) });
            return Ok(());
        }
        if !self.tools.iter().any(|t| t == kind) {
            return Err(format!(
                "action.type {kind:?} is neither a tool (available: {}) nor \"final_answer\"",
                self.tools.join(", ")
            ));
        }
        if !self.started {
            out.push(Delta::ToolCallStart {
                index: 0,
                id: self.id.clone(),
                name: kind.to_string(),
            });
        }
        let arguments = arguments(action)?;
        out.push(Delta::ToolCallArgs { index: 0, fragment: arguments.to_string() });
        push_plan(out, &self.id, plan, 1);
        out.push(Delta::Finish { reason: Some("tool_calls".into()) });
        Ok(())
    }
}

/// The object's `plan_update`, when `update_plan` is offered (else it is ignored): the
/// arguments of an `update_plan` call.
fn plan_update(value: &Value, tools: &[String]) -> Result<Option<Value>, String> {
    let Some(plan) = value.get("plan_update") else { return Ok(None) };
    if !tools.iter().any(|t| t == PLAN_TOOL) {
        tracing::info!("structured answer has a plan_update, but update_plan is not offered");
        return Ok(None);
    }
    match plan {
        Value::Object(_) => Ok(Some(plan.clone())),
        Value::Null => Ok(None),
        _ => Err("plan_update must be an object like {\"goal\": ..., \"steps\": [...]}".into()),
    }
}

/// A plan update becomes an `update_plan` call at stream index `index`, id `<id>_plan`.
fn push_plan(out: &mut Vec<Delta>, id: &str, plan: Option<Value>, index: usize) {
    let Some(plan) = plan else { return };
    out.push(Delta::ToolCallStart { index, id: format!("{id}_plan"), name: PLAN_TOOL.into() });
    out.push(Delta::ToolCallArgs { index, fragment: plan.to_string() });
}

/// The tool arguments: `action.arguments` (an object, or a string holding one), else the
/// action's other fields.
fn arguments(action: &Map<String, Value>) -> Result<Value, String> {
    match action.get("arguments") {
        Some(Value::Object(o)) => Ok(Value::Object(o.clone())),
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(v @ Value::Object(_)) => Ok(v),
            _ => Err("action.arguments must be a JSON object".into()),
        },
        Some(_) => Err("action.arguments must be a JSON object".into()),
        None => Ok(Value::Object(
            action
                .iter()
                .filter(|(k, _)| *k != "type")
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )),
    }
}

/// Skip prose before the object; `<think>` text becomes reasoning. Returns the byte offset
/// in `text` where the object starts.
fn leading(seen: &mut String, think: &mut bool, text: &str, out: &mut Vec<Delta>) -> Option<usize> {
    let mut offset = 0;
    while offset < text.len() {
        let rest = &text[offset..];
        if *think {
            match rest.find("</think>") {
                Some(end) => {
                    if end > 0 {
                        out.push(Delta::Reasoning { text: rest[..end].to_string() });
                    }
                    *think = false;
                    offset += end + "</think>".len();
                    seen.clear();
                }
                None => {
                    out.push(Delta::Reasoning { text: rest.to_string() });
                    return None;
                }
            }
            continue;
        }
        seen.push_str(rest);
        if seen.trim_start().starts_with("<think>") {
            *think = true;
            let at = rest.find("<think>").map_or(rest.len(), |i| i + "<think>".len());
            offset += at;
            seen.clear();
            continue;
        }
        return rest.find('{').map(|i| offset + i);
    }
    None
}

#[cfg(test)]
#[path = "answer_tests.rs"]
mod tests;
