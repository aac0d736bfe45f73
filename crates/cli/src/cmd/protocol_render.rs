//! Text output of `vibe protocol`: protocol lists, runs with a progress bar, reminders, and
//! the status lines of the events a command caused (the same lines `vibe chat` shows).

use vibe_wire::Event;
use vibe_wire::command::{ProtocolRunStatus, ProtocolRunView, ProtocolView, ReminderView};

use crate::render::{bar, protocol_lines};

pub(super) fn list(list: &[ProtocolView]) -> String {
    if list.is_empty() {
        return "no protocols (a protocol with errors is disabled: run `vibe skills check`)".into();
    }
    list.iter()
        .map(|p| {
            let time = p.estimated_time.as_deref().map(|t| format!(" · {t}")).unwrap_or_default();
            format!("{}/{}  v{}  {} ({} steps{time})", p.skill, p.id, p.version, p.title, p.steps)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn runs(runs: &[ProtocolRunView]) -> String {
    if runs.is_empty() {
        return "no protocol runs yet (start one with `vibe protocol start ID`)".into();
    }
    runs.iter()
        .map(|r| {
            let progress = if r.status == ProtocolRunStatus::Completed {
                1.0
            } else {
                f64::from(r.step - 1) / f64::from(r.total_steps.max(1))
            };
            format!(
                "{}  {} {}/{} v{}  {} step {}/{}  last activity {}",
                r.id,
                bar(progress),
                r.skill,
                r.protocol_id,
                r.protocol_version,
                status(r.status),
                r.step,
                r.total_steps,
                r.last_activity_at
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn reminders(items: &[ReminderView]) -> String {
    if items.is_empty() {
        return "no reminders".into();
    }
    items
        .iter()
        .map(|r| {
            let mark = if r.answered {
                "✓"
            } else if r.due {
                "!"
            } else {
                " "
            };
            // With the person's own times, the protocol's time stays the key `--answer` takes.
            let key =
                if r.time == r.at { String::new() } else { format!(", --answer key {}", r.at) };
            format!(
                "{mark} {} {}  ({}, step {}, run {}{key})",
                r.time, r.question, r.protocol_id, r.step, r.protocol_run_id
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(super) fn events(events: &[Event]) -> String {
    events.iter().filter_map(protocol_lines).flatten().collect::<Vec<_>>().join("\n")
}

fn status(s: ProtocolRunStatus) -> &'static str {
    match s {
        ProtocolRunStatus::Active => "active",
        ProtocolRunStatus::Paused => "paused",
        ProtocolRunStatus::Completed => "completed",
        ProtocolRunStatus::Cancelled => "cancelled",
    }
}
