//! Reading a report document (the JSON `report::report_json` makes) for the renderers — the
//! Markdown and HTML ones in `report`, the PDF one in `pdf`: a value as lines of text, a string
//! field, the line of facts under the title. Reads only; lays nothing out.

use serde_json::Value;

/// A field's value as lines: a string is one, a list one per item, null none.
pub(super) fn text_of(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(items) => items.iter().flat_map(text_of).collect(),
        Value::Null => vec![],
        other => vec![other.to_string()],
    }
}

/// The string at `k` of `v`, or empty.
pub(super) fn s<'a>(v: &'a Value, k: &str) -> &'a str {
    v.get(k).and_then(Value::as_str).unwrap_or("")
}

/// The line of facts under the title: protocol, status, step, model, start, when made.
pub(super) fn meta_line(doc: &Value) -> String {
    let run = &doc["run"];
    format!(
        "协议 {} v{} · 状态 {} · 第 {}/{} 步 · 模型 {} · 开始 {} · 生成于 {}",
        s(&doc["protocol"], "id"),
        doc["protocol"]["version"],
        s(run, "status"),
        run["step"],
        run["total_steps"],
        run.get("model").and_then(Value::as_str).unwrap_or("—"),
        s(run, "started_at"),
        s(doc, "generated_at"),
    )
}
