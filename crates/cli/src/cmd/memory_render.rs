//! Text output of `vibe memory` for people (the `--json` output is the wire DTOs as they are).

use vibe_wire::command::{
    MemoryItemView, MemoryPass, MemoryPassStatus, MemoryReplacedBy, MemoryStatus,
};

/// The first 8 characters of an id (enough to name an item in `show`, `edit`, `forget`).
pub fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}

/// The day part of an RFC 3339 time.
fn day(time: &str) -> &str {
    time.get(..10).unwrap_or(time)
}

pub fn list(items: &[MemoryItemView], on: bool) -> String {
    let mut text = String::new();
    if !on {
        text.push_str("memory is off: nothing new is remembered and skills see none of this (`vibe memory on`)\n");
    }
    if items.is_empty() {
        text.push_str("nothing remembered yet");
        return text;
    }
    for item in items {
        let edited = if item.edited { " (edited)" } else { "" };
        text.push_str(&format!(
            "{}  {:<11} {:.2}  {}  {}{edited}\n",
            short(&item.id),
            item.kind.as_str(),
            item.confidence,
            day(&item.last_seen),
            item.text
        ));
    }
    text.trim_end().to_string()
}

pub fn show(item: &MemoryItemView) -> String {
    let mut text = format!(
        "{}\nkind:       {}\ntext:       {}\nconfidence: {:.2}\nfirst seen: {}\nlast seen:  {}\nedited:     {}\nsources:",
        item.id,
        item.kind.as_str(),
        item.text,
        item.confidence,
        item.first_seen,
        item.last_seen,
        if item.edited { "yes" } else { "no" }
    );
    for s in &item.sources {
        text.push_str(&format!("\n  conversation {} message {}", s.conversation_id, s.message_id));
    }
    if !item.history.is_empty() {
        text.push_str("\nreplaced versions (oldest first):");
        for h in &item.history {
            let by = match h.by {
                MemoryReplacedBy::Edit => "edit",
                MemoryReplacedBy::Extraction => "extraction",
            };
            text.push_str(&format!("\n  {} by {by}: {}", day(&h.replaced_at), h.text));
        }
    }
    text
}

pub fn switch(on: bool) -> String {
    if on {
        "memory is on".into()
    } else {
        "memory is off: nothing will be extracted, and skills see nothing remembered".into()
    }
}

pub fn passes(passes: &[MemoryPass]) -> String {
    let lines: Vec<String> = passes
        .iter()
        .map(|p| {
            let what = match &p.status {
                MemoryPassStatus::Off => "memory is off".to_string(),
                MemoryPassStatus::NothingNew => "nothing new to read".to_string(),
                MemoryPassStatus::Applied { added, merged, replaced, dropped_forgotten } => {
                    format!(
                        "{} added, {} merged, {} replaced{}",
                        added.len(),
                        merged.len(),
                        replaced.len(),
                        if *dropped_forgotten > 0 {
                            format!(", {dropped_forgotten} forgotten left out")
                        } else {
                            String::new()
                        }
                    )
                }
                MemoryPassStatus::Rejected { reason }
                | MemoryPassStatus::ModelFailed { reason } => {
                    format!("changed nothing: {reason}")
                }
            };
            let risky = if p.skipped_risky > 0 {
                format!(" ({} message(s) kept out by the safety screen)", p.skipped_risky)
            } else {
                String::new()
            };
            let wait = p
                .backoff
                .as_ref()
                .map(|b| {
                    format!(
                        "; {} failed in a row, next automatic try after {}",
                        b.failures, b.next_try_at
                    )
                })
                .unwrap_or_default();
            format!("{}: {what}{risky}{wait}", short(&p.conversation_id))
        })
        .collect();
    lines.join("\n")
}

/// `vibe memory status`: the switch, conversations not read yet, and waits after failures.
pub fn status(status: &MemoryStatus) -> String {
    let (backlog, backoff) = (&status.backlog, &status.backoff);
    let mut lines = vec![switch(status.memory)];
    if backlog.is_empty() {
        lines.push("nothing waits to be read".into());
    }
    for b in backlog {
        lines.push(format!(
            "{}: {} message(s) of yours not read yet (last at {})",
            short(&b.conversation_id),
            b.user_turns,
            b.last_message_at
        ));
    }
    for b in backoff {
        lines.push(format!(
            "{}: {} failed pass(es) in a row, next automatic try after {} (last error: {}); `vibe memory extract --conversation {}` tries now",
            short(&b.conversation_id),
            b.failures,
            b.next_try_at,
            b.last_error,
            b.conversation_id
        ));
    }
    lines.join("\n")
}
