//! Reports of a protocol run (completed or partial), made from the run and its definition:
//! JSON (every field, with a schema version), Markdown, self-contained printable HTML
//! (inline CSS, CJK-safe font stack, no network), and the dispatch to the PDF report (laid out
//! in `pdf`). Each records when it was made, the protocol id and version, and the model that
//! ran it. Writing files is the caller's job.

use std::fmt::Write;

use serde_json::{Value, json};
use vibe_skills::Protocol;
use vibe_store::{ProtocolRun, step_key};

use super::engine::{REMINDERS_KEY, collected};
use super::pdf::render_pdf;
use super::pdf_font::{PdfError, ReportFont};
use super::report_doc::{meta_line, s, text_of};

/// Version of the JSON report's shape; raised when a field changes meaning or goes away.
pub const REPORT_SCHEMA_VERSION: u32 = 1;

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    Markdown,
    Html,
    Json,
    /// A4 pages in an installed CJK font (see `pdf`).
    Pdf,
}

impl ReportFormat {
    /// `md`, `html`, `json`, `pdf` (as `--format` takes them).
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "md" | "markdown" => Some(Self::Markdown),
            "html" => Some(Self::Html),
            "json" => Some(Self::Json),
            "pdf" => Some(Self::Pdf),
            _ => None,
        }
    }

    /// Whether the report is binary (not for a terminal).
    pub fn is_binary(self) -> bool {
        self == Self::Pdf
    }
}

/// The report of `run` in `format`, made at `generated_at`: UTF-8 text, or the PDF file made
/// with the system's CJK font (the only format that can fail: no such font).
pub fn render_report(
    def: &Protocol,
    run: &ProtocolRun,
    generated_at: &str,
    format: ReportFormat,
) -> Result<Vec<u8>, PdfError> {
    let doc = report_json(def, run, generated_at);
    Ok(match format {
        ReportFormat::Json => serde_json::to_string_pretty(&doc).unwrap_or_default().into_bytes(),
        ReportFormat::Markdown => markdown(&doc).into_bytes(),
        ReportFormat::Html => html(&doc).into_bytes(),
        ReportFormat::Pdf => render_pdf(&doc, &ReportFont::system()?)?,
    })
}

/// Every field of the run as one JSON document.
pub fn report_json(def: &Protocol, run: &ProtocolRun, generated_at: &str) -> Value {
    let steps: Vec<Value> = def
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let key = step_key(i as u32 + 1);
            let data = run.data.get(&key).cloned().unwrap_or(Value::Null);
            let fields: Vec<Value> = step
                .fields
                .iter()
                .filter_map(|f| {
                    data.get(&f.key).map(|v| json!({"key": f.key, "label": f.person_label(), "value": v}))
                })
                .collect();
            json!({
                "step": i + 1,
                "id": step.id,
                "title": step.title,
                "phase": step.phase,
                "done": data.is_object() && (run.step as usize > i + 1 || run.status == vibe_store::ProtocolStatus::Completed),
                "summary": run.summaries.get(&key),
                "fields": fields,
                "reminders": data.get(REMINDERS_KEY),
            })
        })
        .collect();
    let sections: Vec<Value> = def
        .report
        .iter()
        .flat_map(|r| &r.sections)
        .map(|s| {
            let items: Vec<Value> = s
                .from
                .iter()
                .filter_map(|reference| {
                    let value = collected(def, &run.data, reference)?;
                    let label = def.field(reference).map(|(_, f)| f.person_label().to_owned());
                    Some(json!({"field": reference, "label": label, "value": value}))
                })
                .collect();
            json!({"title": s.title, "items": items})
        })
        .collect();
    json!({
        "schema_version": REPORT_SCHEMA_VERSION,
        "generated_at": generated_at,
        "title": def.report.as_ref().map_or(def.title.as_str(), |r| r.title.as_str()),
        "protocol": {"id": def.id, "version": run.protocol_version, "title": def.title, "title_en": def.title_en},
        "run": {
            "id": run.id,
            "skill": run.skill,
            "status": run.status,
            "step": run.step,
            "total_steps": run.total_steps,
            "model": run.model,
            "started_at": run.started_at,
            "last_activity_at": run.last_activity_at,
            "completed_at": run.completed_at,
            "cancel_reason": run.cancel_reason,
        },
        "sections": sections,
        "steps": steps,
    })
}

fn markdown(doc: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n\n{}\n", s(doc, "title"), meta_line(doc));
    for section in doc["sections"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "## {}\n", s(section, "title"));
        for item in section["items"].as_array().into_iter().flatten() {
            let label = item.get("label").and_then(Value::as_str).unwrap_or(s(item, "field"));
            let values = text_of(&item["value"]);
            if values.len() == 1 {
                let _ = writeln!(out, "- **{label}**：{}", values[0]);
            } else {
                let _ = writeln!(out, "- **{label}**：");
                for v in values {
                    let _ = writeln!(out, "  - {v}");
                }
            }
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "## 全部步骤\n");
    for step in doc["steps"].as_array().into_iter().flatten() {
        let _ = writeln!(out, "### {}. {}\n", step["step"], s(step, "title"));
        if let Some(summary) = step.get("summary").and_then(Value::as_str) {
            let _ = writeln!(out, "> {summary}\n");
        }
        for f in step["fields"].as_array().into_iter().flatten() {
            let _ = writeln!(
                out,
                "- {}（`{}`）：{}",
                s(f, "label"),
                s(f, "key"),
                text_of(&f["value"]).join("；")
            );
        }
        if let Some(Value::Object(answers)) = step.get("reminders") {
            for (at, a) in answers {
                let _ = writeln!(out, "- 提醒 {at}「{}」：{}", s(a, "question"), s(a, "answer"));
            }
        }
        let _ = writeln!(out);
    }
    out.trim_end().to_string() + "\n"
}

fn esc(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

const CSS: &str = "body{font-family:\"Noto Sans CJK SC\",\"Noto Sans SC\",\"Source Han Sans SC\",\"PingFang SC\",\"Hiragino Sans GB\",\"Microsoft YaHei\",\"WenQuanYi Micro Hei\",sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.7;color:#222}\
h1{font-size:1.8rem;margin-bottom:.2rem}h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}\
.meta{color:#666;font-size:.85rem}blockquote{color:#555;border-left:3px solid #ccc;margin:0;padding-left:.8rem}\
dt{font-weight:bold}dd{margin:0 0 .6rem 0}@media print{body{margin:0;max-width:none}h2{break-after:avoid}section{break-inside:avoid}}";

fn html(doc: &Value) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"zh\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{}</h1>\n<p class=\"meta\">{}</p>\n",
        esc(s(doc, "title")),
        esc(s(doc, "title")),
        esc(&meta_line(doc))
    );
    let dd = |v: &Value| text_of(v).iter().map(|t| esc(t)).collect::<Vec<_>>().join("<br>");
    for section in doc["sections"].as_array().into_iter().flatten() {
        let _ = write!(out, "<section>\n<h2>{}</h2>\n<dl>\n", esc(s(section, "title")));
        for item in section["items"].as_array().into_iter().flatten() {
            let label = item.get("label").and_then(Value::as_str).unwrap_or(s(item, "field"));
            let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", esc(label), dd(&item["value"]));
        }
        out.push_str("</dl>\n</section>\n");
    }
    out.push_str("<h2>全部步骤</h2>\n");
    for step in doc["steps"].as_array().into_iter().flatten() {
        let _ = write!(out, "<section>\n<h3>{}. {}</h3>\n", step["step"], esc(s(step, "title")));
        if let Some(summary) = step.get("summary").and_then(Value::as_str) {
            let _ = writeln!(out, "<blockquote>{}</blockquote>", esc(summary));
        }
        out.push_str("<dl>\n");
        for f in step["fields"].as_array().into_iter().flatten() {
            let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", esc(s(f, "label")), dd(&f["value"]));
        }
        if let Some(Value::Object(answers)) = step.get("reminders") {
            for (at, a) in answers {
                let _ = writeln!(
                    out,
                    "<dt>提醒 {} {}</dt><dd>{}</dd>",
                    esc(at),
                    esc(s(a, "question")),
                    esc(s(a, "answer"))
                );
            }
        }
        out.push_str("</dl>\n</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
#[path = "report_tests.rs"]
pub(crate) mod tests;
