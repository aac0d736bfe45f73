//! Replaying the model side of a recorded run: an `events.jsonl` (one `vibe_wire::Envelope`
//! per line) becomes an ordered script. Each `model_request` starts a response;
//! `assistant_delta`, `reasoning_delta`, `tool_call` and `usage` events fill it, keeping
//! the recorded chunking; `assistant_restart` drops what the response held so far (the
//! replay gives the answer that stood). Other event types are skipped. A sealed run file is
//! read by the reader the app passes in (`ReadRecording`).

use std::path::Path;

use serde_json::Value;

use crate::errors::LlmError;
use crate::reassemble::parse_usage;
use crate::scripted::script::{Order, Response, Script, ScriptedCall};

pub(crate) fn load_events(
    path: &Path,
    recordings: Option<&super::ReadRecording>,
) -> Result<Script, LlmError> {
    let text = match recordings {
        Some(read) => read(path).map_err(LlmError::config)?,
        None => super::read_script_file(path, "the recorded run")?,
    };
    if text.starts_with("#vibelife-sealed") {
        return Err(LlmError::config(format!(
            "{} is an encrypted recorded run; replay it with `vibe` on the data folder it belongs to",
            path.display()
        )));
    }
    parse_events(&text, &path.display().to_string())
}

pub(crate) fn parse_events(text: &str, source: &str) -> Result<Script, LlmError> {
    let mut responses: Vec<Response> = Vec::new();
    let mut open = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let event: Value = serde_json::from_str(line).map_err(|e| {
            LlmError::config(format!(
                "{source}:{}: not a JSON event ({e}); is this an events.jsonl of a run?",
                n + 1
            ))
        })?;
        let kind = event.get("type").and_then(Value::as_str).unwrap_or("");
        let text_of = |e: &Value| e.get("text").and_then(Value::as_str).unwrap_or("").to_string();
        if kind == "model_request" || (!open && is_model_event(kind)) {
            responses.push(Response::default());
            open = true;
            if kind == "model_request" {
                continue;
            }
        }
        let Some(current) = responses.last_mut() else { continue };
        match kind {
            "assistant_delta" => current.text_chunks.push(text_of(&event)),
            "reasoning_delta" => current.reasoning_chunks.push(text_of(&event)),
            "tool_call" => {
                let name = event.get("name").and_then(Value::as_str).unwrap_or("").to_string();
                if name.is_empty() {
                    return Err(LlmError::config(format!(
                        "{source}:{}: tool_call event without a name",
                        n + 1
                    )));
                }
                current.tool_calls.push(ScriptedCall {
                    name,
                    arguments: event.get("arguments").cloned().unwrap_or(Value::Null),
                    id: event.get("id").and_then(Value::as_str).map(str::to_string),
                });
            }
            "usage" => current.usage = Some(parse_usage(event.get("usage").unwrap_or(&event))),
            // The model's first answer was discarded (structured-mode repair): keep the retry.
            "assistant_restart" => {
                current.text_chunks.clear();
                current.reasoning_chunks.clear();
                current.tool_calls.clear();
            }
            _ => {}
        }
    }
    if responses.is_empty() {
        return Err(LlmError::config(format!(
            "{source}: no model events (model_request, assistant_delta, tool_call) to replay"
        )));
    }
    Ok(Script {
        model: Some("replay".into()),
        mode: Order::Ordered,
        responses,
        ..Script::default()
    })
}

fn is_model_event(kind: &str) -> bool {
    matches!(kind, "assistant_delta" | "reasoning_delta" | "tool_call" | "usage")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_model_request_starts_a_response_with_its_recorded_chunks() {
        let jsonl = r#"{"type":"run_started","run_id":"r","seq":0,"ts":"t"}
{"type":"model_request","run_id":"r","seq":1,"ts":"t"}
{"type":"reasoning_delta","run_id":"r","seq":2,"ts":"t","text":"hm"}
{"type":"tool_call","run_id":"r","seq":3,"ts":"t","id":"call_0","name":"use_skill","arguments":{"name":"bazi"}}
{"type":"usage","run_id":"r","seq":4,"ts":"t","usage":{"prompt_tokens":10,"completion_tokens":2}}
{"type":"model_request","run_id":"r","seq":5,"ts":"t"}
{"type":"assistant_delta","run_id":"r","seq":6,"ts":"t","text":"bad"}
{"type":"assistant_restart","run_id":"r","seq":6,"ts":"t","reason":"malformed"}
{"type":"assistant_delta","run_id":"r","seq":6,"ts":"t","text":"你"}
{"type":"assistant_delta","run_id":"r","seq":7,"ts":"t","text":"好"}
"#;
        let s = parse_events(jsonl, "events.jsonl").unwrap();
        assert_eq!(s.responses.len(), 2);
        assert_eq!(s.responses[0].tool_calls[0].name, "use_skill");
        assert_eq!(s.responses[0].usage.map(|u| u.total_tokens), Some(12));
        assert_eq!(s.responses[1].text_chunks, ["你", "好"]);
    }

    #[test]
    fn a_broken_line_names_its_number() {
        let e = parse_events("{\"type\":\"model_request\"}\nnot json\n", "ev.jsonl").unwrap_err();
        assert!(e.to_string().starts_with("ev.jsonl:2:"));
    }
}
