//! The status lines `vibe` shows on stderr for run events (tool calls, results, plans,
//! approvals, errors, the stop summary): pure functions from an event to text, so live chat
//! and `vibe runs replay` show exactly the same lines. Streaming text is the printer's job.

use serde_json::Value;
use vibe_wire::{ErrorKind, Event, Plan, PlanStepStatus, SkillsChange, StopReason, SummaryBy};

/// What the CLI advises for a run's model failure, by its kind (a run's error event carries no
/// hint; the desktop app words the same kinds for its Settings screen).
fn kind_advice(kind: ErrorKind) -> Option<&'static str> {
    Some(match kind {
        ErrorKind::Network => {
            "is the model server running? Check --base-url / VIBE_LLM_BASE_URL (`vibe llm probe` tests it)"
        }
        ErrorKind::Auth => "set VIBE_LLM_API_KEY or store the key in the OS keychain",
        _ => return None,
    })
}

/// Longest JSON shown inline for tool arguments, results and display data.
const INLINE_CHARS: usize = 120;

/// The stderr lines for `event` (each without its newline); empty for events shown as
/// streaming text or not shown at all.
pub(crate) fn status_lines(event: &Event) -> Vec<String> {
    match event {
        Event::RunStarted { .. }
        | Event::RoundStarted { .. }
        | Event::ModelRequest { .. }
        | Event::AssistantDelta { .. }
        | Event::ReasoningDelta { .. }
        | Event::Usage { .. } => vec![],
        Event::AssistantRestart { reason } => vec![format!("↺ the answer starts over: {reason}")],
        Event::ToolCall { name, arguments, .. } => vec![tool_call(name, arguments)],
        Event::ToolResult { name, result, is_error, file, .. } => {
            vec![tool_result(name, result, *is_error, file.as_deref())]
        }
        Event::SkillActivated { skill, scenario } => vec![match scenario {
            Some(s) => format!("✨ skill activated: {skill} (scenario {s})"),
            None => format!("✨ skill activated: {skill}"),
        }],
        Event::PlanUpdated { plan } => plan_lines(plan),
        Event::StateChanged { skill, paths } => {
            let whose = skill.as_deref().unwrap_or("profile");
            vec![format!("✎ saved {whose}: {}", paths.join(", "))]
        }
        Event::Display { kind, data } => vec![format!("▣ {kind}: {}", compact(data))],
        Event::ApprovalRequired { tool, args, reason, connection, .. } => {
            let from = connection.as_ref().map_or(String::new(), |c| {
                format!(" [connection {}: {}]", c.server, super::connection_hints(c))
            });
            vec![format!("? approval needed: {}{from} — {reason}", tool_call_text(tool, args))]
        }
        Event::ApprovalResolved { approved, by, .. } => {
            vec![if *approved {
                format!("✓ approved by {by}")
            } else {
                format!("✗ denied by {by}")
            }]
        }
        Event::Compacted {
            folded_messages,
            summary_tokens,
            summary_by,
            fallback_reason,
            usage,
        } => {
            let how = match (summary_by, fallback_reason) {
                (Some(SummaryBy::Model), _) => match usage {
                    Some(u) => format!("; written by the model for {} tokens", u.total_tokens),
                    None => "; written by the model".to_string(),
                },
                (_, Some(reason)) => format!("; digest: {reason}"),
                _ => String::new(),
            };
            vec![format!(
                "… folded {folded_messages} older message{} into a summary ({summary_tokens} tokens{how})",
                plural(*folded_messages)
            )]
        }
        Event::Error { error } => vec![match kind_advice(error.kind) {
            Some(advice) => format!("error [{}]: {} — {advice}", error.kind, error.message),
            None => format!("error [{}]: {}", error.kind, error.message),
        }],
        Event::ReplyUnsaved { message } => vec![format!("unsaved: {message}")],
        Event::RunFinished { stop_reason, rounds, tool_calls, .. } => {
            stop_summary(*stop_reason, *rounds, *tool_calls).into_iter().collect()
        }
        Event::SkillsChanged { changes } => skills_changed(changes),
        // `vibe models pull` draws its own progress bar; a finished or failed download is
        // its answer.
        Event::ModelDownloadProgress { .. } | Event::ModelDownloadFinished { .. } => vec![],
        Event::ModelDownloadFailed { id, error } => {
            vec![format!("error [{}]: download of {id}: {}", error.kind, error.message)]
        }
        // Only the desktop app watches sync; `vibe sync status` answers for itself.
        Event::SyncChanged { .. } => vec![],
        Event::ProtocolInvitation { .. }
        | Event::ProtocolInvitationLapsed { .. }
        | Event::ProtocolProgress { .. }
        | Event::ProtocolCompleted { .. }
        | Event::ProtocolCancelled { .. }
        | Event::ProtocolPaused { .. } => {
            super::protocol::protocol_lines(event).unwrap_or_default()
        }
        Event::SafetyCheck { fallback_reason: Some(why), .. } => {
            vec![format!(
                "notice: the safety model check was not used ({why}); the rules' result stands"
            )]
        }
        Event::SafetyCheck { .. } => Vec::new(),
        Event::SafetyNotice { category, resources, locale, .. } => {
            safety_lines(Some(*category), resources, locale)
        }
    }
}

/// A notice answering what the person wrote outside the chat (a check-in, a journal entry, a
/// reminder's answer, the day on Today), as [`safety_lines`].
pub(crate) fn notice_lines(notice: &vibe_wire::command::SafetyNoticeView) -> Vec<String> {
    safety_lines(Some(notice.category), &notice.resources, &notice.locale)
}

/// The crisis resources of a safety notice, one contact a line (`category` is `None` for a
/// mark made before categories were kept).
pub(crate) fn safety_lines(
    category: Option<vibe_wire::SafetyCategory>,
    resources: &[vibe_wire::SafetyResource],
    locale: &str,
) -> Vec<String> {
    let about = category.map(|c| format!("{c}, ")).unwrap_or_default();
    let mut lines = vec![format!(
        "⚠ safety notice ({about}{locale}): you deserve support right now. Please reach out:"
    )];
    for r in resources {
        let note = r.note.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
        lines.push(format!("  ☎ {}: {}{note}", r.name, r.number));
    }
    lines
}

/// The one-line summary of a run that did not simply complete.
pub(crate) fn stop_summary(reason: StopReason, rounds: u32, tool_calls: u32) -> Option<String> {
    (reason != StopReason::Completed).then(|| {
        format!(
            "stopped: {} after {rounds} round{}, {tool_calls} tool call{}",
            reason.as_str(),
            plural(rounds),
            plural(tool_calls)
        )
    })
}

fn tool_call(name: &str, arguments: &Value) -> String {
    format!("→ {}", tool_call_text(name, arguments))
}

fn tool_call_text(name: &str, args: &Value) -> String {
    let empty = match args {
        Value::Null => true,
        Value::Object(map) => map.is_empty(),
        _ => false,
    };
    if empty { name.to_string() } else { format!("{name} {}", compact(args)) }
}

fn tool_result(name: &str, result: &Value, is_error: bool, file: Option<&str>) -> String {
    if is_error {
        return format!("✗ {name} failed: {}", error_message(result));
    }
    match file {
        Some(file) => format!("← {name} ok (large output saved as {file})"),
        None => format!("← {name} ok"),
    }
}

/// The readable part of an error observation: the string, or its `error` / `message` field.
fn error_message(result: &Value) -> String {
    let field = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    match result {
        Value::String(s) => shorten(s),
        Value::Object(_) => field(result, "message")
            .or_else(|| field(result, "error"))
            .or_else(|| result.get("error").and_then(|e| field(e, "message")))
            .map(|s| shorten(&s))
            .unwrap_or_else(|| compact(result)),
        other => compact(other),
    }
}

fn plan_lines(plan: &Plan) -> Vec<String> {
    let mut lines = vec![if plan.goal.is_empty() {
        "plan:".to_string()
    } else {
        format!("plan: {}", plan.goal)
    }];
    for step in &plan.steps {
        let mark = match step.status {
            PlanStepStatus::Done => "[x]",
            PlanStepStatus::InProgress => "[>]",
            PlanStepStatus::Skipped => "[-]",
            PlanStepStatus::Pending => "[ ]",
        };
        lines.push(format!("  {mark} {}", step.title));
    }
    lines
}

fn skills_changed(changes: &[SkillsChange]) -> Vec<String> {
    let mut lines = Vec::new();
    for change in changes {
        let kind =
            serde_json::to_value(change.change).ok().and_then(|v| v.as_str().map(str::to_string));
        lines.push(format!("skill {}: {}", change.name, kind.unwrap_or_default()));
        lines.extend(change.problems.iter().map(|p| format!("  {p}")));
    }
    lines
}

/// Compact JSON, cut to [`INLINE_CHARS`] characters.
fn compact(value: &Value) -> String {
    shorten(&value.to_string())
}

/// One line, at most [`INLINE_CHARS`] characters (an ellipsis marks the cut).
fn shorten(text: &str) -> String {
    let one_line = text.replace(['\n', '\r'], " ");
    match one_line.char_indices().nth(INLINE_CHARS) {
        Some((cut, _)) => format!("{}…", &one_line[..cut]),
        None => one_line,
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}
