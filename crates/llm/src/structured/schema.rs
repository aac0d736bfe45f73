//! Structured-action mode, schema side: the JSON Schema of one action object built from the
//! offered tools, for models that can constrain their decoding to it (`Params::response_schema`).
//! `action` is one of `{"type": <tool name>, "arguments": <that tool's parameters>}` per tool
//! or `{"type": "final_answer", "content": <string>}`; when `update_plan` is offered, an
//! optional `plan_update` (the plan tool's parameters) comes before `action`, as the prompt
//! asks. Property order is the order a constrained model writes them (`type` first, so the
//! answer parser reports a tool call early). A tool whose parameters use what grammar
//! converters refuse or mistranslate (`$ref`, regex `pattern`, unknown types, malformed
//! keywords) gets "any JSON object" for its arguments: one odd tool never costs the round.
//! Parsing and validating the answer stay `answer.rs`'s.

use serde_json::{Value, json};

use super::answer::{FINAL, PLAN_TOOL};
use crate::types::ToolDef;

/// The schema of one action object offering `tools` (what the adapter puts in
/// `Params::response_schema`).
pub fn action_schema(tools: &[ToolDef]) -> Value {
    let mut actions: Vec<Value> = tools
        .iter()
        .filter(|t| t.name != FINAL)
        .map(|t| {
            json!({
                "type": "object",
                "properties": {
                    "type": {"const": t.name},
                    "arguments": arguments_schema(t),
                },
                "required": ["type", "arguments"],
            })
        })
        .collect();
    actions.push(json!({
        "type": "object",
        "properties": {
            "type": {"const": FINAL},
            "content": {"type": "string"},
        },
        "required": ["type", "content"],
    }));
    let action = json!({"anyOf": actions});
    let action_only = json!({
        "type": "object",
        "properties": {"action": action},
        "required": ["action"],
    });
    let Some(plan) = tools.iter().find(|t| t.name == PLAN_TOOL) else { return action_only };
    // An optional property would be written after the required ones: two shapes keep
    // `plan_update` before `action`.
    json!({"anyOf": [
        {
            "type": "object",
            "properties": {"plan_update": arguments_schema(plan), "action": action},
            "required": ["plan_update", "action"],
        },
        action_only,
    ]})
}

/// A tool's parameters schema when a grammar can express it, else any JSON object.
fn arguments_schema(tool: &ToolDef) -> Value {
    match expressible(&tool.parameters, "") {
        Ok(()) if is_object_schema(&tool.parameters) => (*tool.parameters).clone(),
        Ok(()) => any_object(tool, "its parameters schema does not describe an object"),
        Err(problem) => any_object(tool, &problem),
    }
}

fn any_object(tool: &ToolDef, problem: &str) -> Value {
    tracing::info!(
        tool = %tool.name,
        "structured mode: the arguments of this tool are constrained to any JSON object ({problem})"
    );
    json!({"type": "object"})
}

/// True when the schema can only describe objects (its `type` is "object", or it has no
/// `type` but `properties`).
fn is_object_schema(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        None => schema.get("properties").is_some(),
        Some(_) => false,
    }
}

const TYPES: [&str; 7] = ["object", "string", "array", "integer", "number", "boolean", "null"];
const COUNTS: [&str; 4] = ["minItems", "maxItems", "minLength", "maxLength"];
const BOUNDS: [&str; 4] = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];

/// `Ok` when a JSON-Schema-to-grammar converter (llama.cpp's) translates `schema` faithfully;
/// else what it would refuse, with the path (`/properties/x`). Annotations and keywords it
/// ignores (description, default, …) only loosen the grammar and are accepted.
fn expressible(schema: &Value, path: &str) -> Result<(), String> {
    let Value::Object(s) = schema else {
        return Err(format!("{} is not a schema object", at(path)));
    };
    for refused in ["$ref", "pattern", "patternProperties", "not", "if", "dependentSchemas"] {
        if s.contains_key(refused) {
            return Err(format!("{} uses {refused:?}", at(path)));
        }
    }
    match s.get("type") {
        None => {}
        Some(Value::String(t)) if TYPES.contains(&t.as_str()) => {}
        Some(Value::Array(ts))
            if !ts.is_empty()
                && ts.iter().all(|t| t.as_str().is_some_and(|t| TYPES.contains(&t))) => {}
        Some(other) => return Err(format!("{} has an unknown type {other}", at(path))),
    }
    if s.get("enum").is_some_and(|e| e.as_array().is_none_or(Vec::is_empty)) {
        return Err(format!("{}: enum must be a non-empty array", at(path)));
    }
    for key in COUNTS {
        if s.get(key).is_some_and(|v| v.as_u64().is_none_or(|n| n > i32::MAX as u64)) {
            return Err(format!("{}: {key} must be a non-negative integer", at(path)));
        }
    }
    for key in BOUNDS {
        if s.get(key).is_some_and(|v| !v.is_number()) {
            return Err(format!("{}: {key} must be a number", at(path)));
        }
    }
    if s.get("format").is_some_and(|f| !f.is_string()) {
        return Err(format!("{}: format must be a string", at(path)));
    }
    if let Some(p) = s.get("properties") {
        let Value::Object(props) = p else {
            return Err(format!("{}: properties must be an object", at(path)));
        };
        for (name, sub) in props {
            expressible(sub, &format!("{path}/properties/{name}"))?;
        }
    }
    match s.get("additionalProperties") {
        None | Some(Value::Bool(_)) => {}
        Some(sub) => expressible(sub, &format!("{path}/additionalProperties"))?,
    }
    for key in ["items", "prefixItems"] {
        match s.get(key) {
            None => {}
            Some(Value::Array(items)) => each(items, path, key)?,
            Some(sub) => expressible(sub, &format!("{path}/{key}"))?,
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        match s.get(key) {
            None => {}
            Some(Value::Array(alts)) if !alts.is_empty() => each(alts, path, key)?,
            Some(_) => return Err(format!("{}: {key} must be a non-empty array", at(path))),
        }
    }
    Ok(())
}

fn each(schemas: &[Value], path: &str, key: &str) -> Result<(), String> {
    schemas
        .iter()
        .enumerate()
        .try_for_each(|(i, sub)| expressible(sub, &format!("{path}/{key}/{i}")))
}

fn at(path: &str) -> String {
    if path.is_empty() { "the schema".into() } else { format!("the schema at {path}") }
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
