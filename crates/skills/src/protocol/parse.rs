//! `protocols/<id>.yaml` text → a [`Protocol`] with positioned findings: YAML syntax, then the
//! committed JSON Schema (`protocol.schema.json`, draft 2020-12), then what a schema cannot
//! say (id equal to the file name, unique step ids and field keys, references `step.field`
//! in the completion mapping and the report naming a real field). A file with any error
//! yields no protocol, so only that protocol is disabled.

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use jsonschema::error::ValidationErrorKind;
use serde_json::Value as Json;

use super::def::Protocol;
use crate::parts::stem;
use crate::parts::tools_schema::node_at;
use crate::problem::{Pos, Problem, ProblemCode, has_errors};
use crate::yaml::{Node, parse};

/// The JSON Schema of a protocol file, as committed.
pub const PROTOCOL_SCHEMA: &str = include_str!("protocol.schema.json");

fn validator() -> Result<&'static jsonschema::Validator, String> {
    static VALIDATOR: OnceLock<Result<jsonschema::Validator, String>> = OnceLock::new();
    VALIDATOR
        .get_or_init(|| {
            let schema: Json = serde_json::from_str(PROTOCOL_SCHEMA).map_err(|e| e.to_string())?;
            jsonschema::draft202012::new(&schema).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Parse and validate one protocol file.
pub fn parse_protocol_def(path: &Path, text: &str) -> (Option<Protocol>, Vec<Problem>) {
    let node = match parse(text, 1) {
        Ok(node) => node,
        Err(e) => {
            let msg = format!("invalid YAML in protocol: {}", e.message);
            let code = ProblemCode::InvalidYaml { detail: e.message.clone() };
            return (None, vec![Problem::error(path, e.pos, msg).with_code(code)]);
        }
    };
    let value = node.to_json();
    let mut problems = schema_problems(path, &node, &value);
    if has_errors(&problems) {
        return (None, problems);
    }
    let protocol: Protocol = match serde_json::from_value(value) {
        Ok(p) => p,
        Err(e) => {
            problems.push(Problem::error(path, node.pos, format!("invalid protocol: {e}")));
            return (None, problems);
        }
    };
    problems.extend(semantic_problems(path, &node, &protocol));
    let ok = !has_errors(&problems);
    (ok.then_some(protocol), problems)
}

fn schema_problems(path: &Path, node: &Node, value: &Json) -> Vec<Problem> {
    let validator = match validator() {
        Ok(v) => v,
        Err(e) => {
            let msg = format!("the built-in protocol schema is broken ({e}); report this bug");
            return vec![Problem::error(path, Pos::START, msg)];
        }
    };
    let mut out: Vec<Problem> = validator
        .iter_errors(value)
        .map(|e| {
            let pointer = e.instance_path().to_string();
            let at = node_at(node, &pointer);
            let here = dotted(&pointer);
            let (pos, message) = match e.kind() {
                ValidationErrorKind::AdditionalProperties { unexpected } => {
                    let key = unexpected.first().cloned().unwrap_or_default();
                    let pos = at
                        .as_map()
                        .and_then(|m| m.iter().find(|(k, _)| k.text == key))
                        .map_or(at.pos, |(k, _)| k.pos);
                    (
                        pos,
                        format!(
                            "unknown field `{}` in {here} (see docs/protocols.md)",
                            unexpected.join("`, `")
                        ),
                    )
                }
                ValidationErrorKind::Required { property } => {
                    let name = property.as_str().unwrap_or_default();
                    (at.pos, format!("{here} is missing `{name}`"))
                }
                ValidationErrorKind::Enum { options } => {
                    let options: Vec<String> = options
                        .as_array()
                        .map(|o| {
                            o.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect()
                        })
                        .unwrap_or_default();
                    (
                        at.pos,
                        format!(
                            "{here} must be one of {}, found {}",
                            options.join(", "),
                            e.instance()
                        ),
                    )
                }
                ValidationErrorKind::Pattern { .. } => {
                    (at.pos, format!("{here} {}, found {}", pattern_hint(&pointer), e.instance()))
                }
                _ => (at.pos, format!("{here}: {e}")),
            };
            Problem::error(path, pos, message)
        })
        .collect();
    out.dedup();
    out
}

/// What a string matching the pattern at `pointer` looks like.
fn pattern_hint(pointer: &str) -> &'static str {
    let last = pointer.rsplit('/').next().unwrap_or_default();
    if last == "at" {
        "must be a time of day HH:MM (00:00–23:59)"
    } else if pointer.starts_with("/completion") || pointer.contains("/from/") {
        "must be step_id.field_key (lowercase letters, digits, _)"
    } else if pointer == "/id" {
        "must be 1–64 characters of a-z, 0-9, _ or - (the file name)"
    } else {
        "must be 1–64 characters of a-z, 0-9 and _"
    }
}

/// `/steps/0/fields/1` → `steps[0].fields[1]`; the root is `the protocol`.
fn dotted(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        if seg.parse::<usize>().is_ok() {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg.replace("~1", "/").replace("~0", "~"));
        }
    }
    if out.is_empty() { "the protocol".into() } else { out }
}

fn semantic_problems(path: &Path, node: &Node, p: &Protocol) -> Vec<Problem> {
    let mut out = Vec::new();
    let at = |pointer: &str| node_at(node, pointer).pos;
    let file_id = stem(path);
    if p.id != file_id {
        out.push(Problem::error(
            path,
            at("/id"),
            format!("id `{}` must equal the file name `{file_id}` (rename one of them)", p.id),
        ));
    }
    let mut steps = HashSet::new();
    for (i, step) in p.steps.iter().enumerate() {
        if !steps.insert(step.id.as_str()) {
            out.push(Problem::error(
                path,
                at(&format!("/steps/{i}/id")),
                format!("step id `{}` is used twice", step.id),
            ));
        }
        let mut keys = HashSet::new();
        for (j, field) in step.fields.iter().enumerate() {
            if !keys.insert(field.key.as_str()) {
                out.push(Problem::error(
                    path,
                    at(&format!("/steps/{i}/fields/{j}/key")),
                    format!("field `{}` is declared twice in step `{}`", field.key, step.id),
                ));
            }
        }
    }
    let check_ref = |reference: &str, pointer: String, out: &mut Vec<Problem>| {
        if p.field(reference).is_none() {
            out.push(Problem::error(
                path,
                at(&pointer),
                format!(
                    "`{reference}` names no field (write step_id.field_key of a declared field)"
                ),
            ));
        }
    };
    fn walk(map: &serde_json::Map<String, Json>, pointer: String, f: &mut dyn FnMut(&str, String)) {
        for (k, v) in map {
            let here = format!("{pointer}/{}", k.replace('~', "~0").replace('/', "~1"));
            match v {
                Json::String(r) => f(r, here),
                Json::Object(inner) => walk(inner, here, f),
                _ => {}
            }
        }
    }
    walk(&p.completion, "/completion".into(), &mut |r, ptr| check_ref(r, ptr, &mut out));
    if let Some(report) = &p.report {
        for (i, section) in report.sections.iter().enumerate() {
            for (j, r) in section.from.iter().enumerate() {
                check_ref(r, format!("/report/sections/{i}/from/{j}"), &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
