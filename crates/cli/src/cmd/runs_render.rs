//! Text rendering for `vibe runs list` and `vibe runs show`: aligned columns for people. The
//! JSON output is built in `runs.rs`; replayed events are printed by `crate::render`.

use std::fmt::Write as _;

use serde_json::Value;
use vibe_wire::command::RunSummary;

pub fn list(rows: &[RunSummary], conversation: Option<&str>) -> String {
    if rows.is_empty() {
        return match conversation {
            Some(c) => {
                format!("no runs in conversation {c} (check the id with `vibe conversations list`)")
            }
            None => "no runs yet (each `vibe chat` turn records one)".to_string(),
        };
    }
    let header = ["ID", "STATUS", "STOP", "STARTED", "FINISHED", "TOKENS", "CONVERSATION"];
    let table: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            [
                r.id.clone(),
                r.status.to_string(),
                r.stop_reason.map_or_else(|| "-".into(), |s| s.to_string()),
                r.started_at.clone(),
                r.finished_at.clone().unwrap_or_else(|| "-".into()),
                r.usage.map_or_else(|| "-".into(), |u| u.total_tokens.to_string()),
                r.conversation_id.clone().unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &table {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> =
            cells.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        padded.join("  ").trim_end().to_string()
    };
    out.push_str(&line(&header.map(str::to_string)));
    for row in &table {
        out.push('\n');
        out.push_str(&line(row));
    }
    out
}

/// `value` is the JSON `vibe runs show --json` prints.
pub fn show(value: &Value) -> String {
    let mut out = String::new();
    let text = |v: &Value| v.as_str().map_or_else(|| "-".to_string(), str::to_string);
    let run = &value["run"];
    let _ = writeln!(out, "run           {}", text(&value["id"]));
    if run.is_null() {
        let _ = writeln!(out, "row           none in the database (shown from the events on disk)");
    } else {
        let _ = writeln!(out, "conversation  {}", text(&run["conversation_id"]));
        let _ = writeln!(
            out,
            "status        {} (stop reason: {})",
            text(&run["status"]),
            text(&run["stop_reason"])
        );
        let _ = writeln!(out, "started       {}", text(&run["started_at"]));
        let _ = writeln!(out, "finished      {}", text(&run["finished_at"]));
        if let Some(u) = run.get("usage").filter(|u| u.is_object()) {
            let n = |k: &str| u[k].as_u64().unwrap_or(0);
            let _ = writeln!(
                out,
                "tokens        {} (prompt {}, completion {})",
                n("total_tokens"),
                n("prompt_tokens"),
                n("completion_tokens")
            );
        }
    }
    let events = &value["events"];
    if events.is_object() {
        let _ = writeln!(out, "rounds        {}", events["rounds"]);
        let _ = writeln!(out, "tool calls    {}", events["tool_calls"]);
        let by_type: Vec<String> = events["by_type"]
            .as_object()
            .map(|m| m.iter().map(|(k, n)| format!("{k} {n}")).collect())
            .unwrap_or_default();
        let _ = writeln!(out, "events        {} ({})", events["events"], by_type.join(", "));
    }
    let _ = writeln!(out, "events file   {}", text(&value["events_path"]));
    if let Some(files) = value["files"].as_array().filter(|f| !f.is_empty()) {
        let _ = writeln!(out, "files");
        for f in files {
            let _ =
                writeln!(out, "  {}  {}", text(&f["name"]), size(f["bytes"].as_u64().unwrap_or(0)));
        }
    }
    for notice in value["notices"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "note: {}", text(notice));
    }
    out.trim_end().to_string()
}

fn size(bytes: u64) -> String {
    if bytes < 1024 { format!("{bytes} B") } else { format!("{:.1} KiB", bytes as f64 / 1024.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, usage: Option<Value>) -> RunSummary {
        RunSummary {
            id: id.into(),
            conversation_id: Some("c1".into()),
            status: vibe_wire::RunStatus::Completed,
            stop_reason: Some(vibe_wire::StopReason::Completed),
            usage: usage.map(|u| serde_json::from_value(u).unwrap()),
            started_at: "2026-01-01T00:00:00Z".into(),
            finished_at: None,
        }
    }

    #[test]
    fn the_list_aligns_columns_and_shows_dashes_for_missing_values() {
        let text = list(
            &[
                row(
                    "run-a",
                    Some(
                        serde_json::json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}),
                    ),
                ),
                row("b", None),
            ],
            None,
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "ID     STATUS     STOP       STARTED               FINISHED  TOKENS  CONVERSATION"
        );
        assert_eq!(
            lines[1],
            "run-a  completed  completed  2026-01-01T00:00:00Z  -         15      c1"
        );
        assert_eq!(
            lines[2],
            "b      completed  completed  2026-01-01T00:00:00Z  -         -       c1"
        );
        assert!(list(&[], Some("c9")).contains("vibe conversations list"));
    }

    #[test]
    fn sizes_read_as_bytes_or_kibibytes() {
        assert_eq!(size(900), "900 B");
        assert_eq!(size(20 * 1024 + 100), "20.1 KiB");
    }
}
