//! Text rendering for `vibe skills`: aligned lists for people. The JSON output is the wire
//! DTOs; nothing here decides what is shown, only how.

use std::fmt::Write as _;

use serde_json::Value;
use vibe_wire::command::{CaseMatches, SkillCheckReport};

/// Terminal columns of a character: East Asian wide characters take two.
fn width(c: char) -> usize {
    let wide = matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD);
    if wide { 2 } else { 1 }
}

/// The first line of `text` fitted into `max` terminal columns, with `…` when cut.
fn clip(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or_default();
    let total: usize = line.chars().map(width).sum();
    if total <= max && text.lines().nth(1).is_none() {
        return line.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in line.chars() {
        if used + width(c) > max.saturating_sub(1) {
            break;
        }
        used += width(c);
        out.push(c);
    }
    out.push('…');
    out
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key].as_str().unwrap_or_default()
}

pub fn list(rows: &[Value]) -> String {
    if rows.is_empty() {
        return "no skills found (create one with `vibe skills new NAME`)".to_string();
    }
    let width = rows.iter().map(|r| str_of(r, "name").chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    for r in rows {
        let valid = r["valid"].as_bool().unwrap_or(false);
        let description = if valid || r["description"].is_string() {
            clip(str_of(r, "description"), 64)
        } else {
            "(left out: broken)".to_string()
        };
        let mark = if valid { " " } else { "!" };
        let _ = writeln!(
            out,
            "{mark} {:<width$}  {:<8}  {description}",
            str_of(r, "name"),
            str_of(r, "root")
        );
        if let Some(shadows) = r["shadows"].as_array().filter(|s| !s.is_empty()) {
            let roots: Vec<&str> = shadows.iter().map(|s| str_of(s, "root")).collect();
            let _ = writeln!(out, "  {:<width$}  shadows: {}", "", roots.join(", "));
        }
        if !valid {
            for p in r["problems"].as_array().into_iter().flatten().filter_map(Value::as_str) {
                let _ = writeln!(out, "  {:<width$}  {p}", "");
            }
        }
    }
    out.trim_end().to_string()
}

pub fn show(v: &Value) -> String {
    let meta = &v["meta"];
    let mut out = String::new();
    let valid = if v["valid"].as_bool().unwrap_or(false) {
        ""
    } else {
        " (INVALID: last good version shown)"
    };
    let _ = writeln!(out, "{} [{}]{valid}", str_of(v, "name"), str_of(v, "root"));
    let _ = writeln!(out, "  {:<17} {}", "folder", str_of(v, "dir"));
    let _ = writeln!(out, "  {:<17} {}", "description", str_of(meta, "description"));
    for key in ["expert_persona", "compute_type", "default_scenario", "license", "compatibility"] {
        if let Some(text) = meta[key].as_str() {
            let _ = writeln!(out, "  {key:<17} {text}");
        }
    }
    for key in ["profile_fields", "triggers", "voice_modes", "allowed-tools"] {
        let items: Vec<&str> =
            meta[key].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if !items.is_empty() {
            let _ = writeln!(out, "  {key:<17} {}", items.join(", "));
        }
    }
    for p in meta["personas"].as_array().into_iter().flatten() {
        let _ = writeln!(
            out,
            "  {:<17} {}: {}",
            "persona",
            str_of(p, "id"),
            clip(str_of(p, "description"), 60)
        );
    }
    let parts = &v["parts"];
    let _ = writeln!(out, "  parts:");
    for key in ["rules", "scenarios", "cases", "protocols"] {
        let ids: Vec<&str> =
            parts[key].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if !ids.is_empty() {
            let _ = writeln!(out, "    {key:<10} {}", ids.join(", "));
        }
    }
    if parts["tools"].as_bool().unwrap_or(false) {
        let _ = writeln!(out, "    tools      tools.yaml");
    }
    for (key, label) in [("daily_prompts", "daily"), ("starters", "starters")] {
        let texts = parts[key].as_array().cloned().unwrap_or_default();
        if !texts.is_empty() {
            let _ = writeln!(out, "    {label:<10} prompts.yaml ({})", texts.len());
        }
        for t in &texts {
            let en = t["en"].as_str().map(|en| format!(" / {}", clip(en, 60))).unwrap_or_default();
            let _ = writeln!(out, "      - {}{en}", clip(str_of(t, "zh"), 40));
        }
    }
    let resources = v["resources"].as_array().cloned().unwrap_or_default();
    let _ = writeln!(out, "  resources ({}):", resources.len());
    for r in &resources {
        let _ = writeln!(
            out,
            "    {:<40} {:>8} B  {}",
            str_of(r, "path"),
            r["bytes"],
            str_of(r, "kind")
        );
    }
    for s in v["shadows"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "  shadows {} skill at {}", str_of(s, "root"), str_of(s, "dir"));
    }
    for p in v["problems"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let _ = writeln!(out, "  {p}");
    }
    out.trim_end().to_string()
}

pub fn check(report: &SkillCheckReport) -> String {
    let mut out = String::new();
    for p in &report.problems {
        let _ = writeln!(out, "{}", p.text);
    }
    let _ = write!(
        out,
        "checked {} skill(s): {} error(s), {} warning(s)",
        report.skills.len(),
        report.errors,
        report.warnings
    );
    out
}

pub fn cases(found: &CaseMatches) -> String {
    if found.matches.is_empty() {
        return format!("no case of `{}` matches this message", found.skill);
    }
    let mut out = String::new();
    for (i, m) in found.matches.iter().enumerate() {
        let _ = writeln!(
            out,
            "{}. {}  {}  (score {:.2}; matched: {})",
            i + 1,
            m.id,
            m.title,
            m.score,
            m.matched.join(", ")
        );
    }
    out.trim_end().to_string()
}
