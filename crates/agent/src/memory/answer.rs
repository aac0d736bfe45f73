//! Reading the model's extraction answer: one JSON object `{"items": [...]}` whose items name
//! a kind, a text, a confidence, their source messages and at most one of `same_as` /
//! `replaces`. Anything else — not JSON, an unknown field, an unknown kind, an item without a
//! source or citing a message it was not shown, an id that is not a listed item — rejects the
//! whole answer, so bad output changes nothing. Applying the changes is the store's.

use std::collections::HashSet;

use serde::Deserialize;
use vibe_store::{MemoryChange, MemoryItem};
use vibe_wire::command::MemoryKind;

/// Confidence when the model gives none.
const DEFAULT_CONFIDENCE: f64 = 0.6;

/// Why an answer was rejected (for the run's `error` event).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("the extraction answer is not the expected JSON: {0}")]
    Json(String),
    #[error("the extraction answer's item {index} {problem}")]
    Item { index: usize, problem: String },
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    items: Vec<RawItem>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    kind: String,
    text: String,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    sources: Vec<i64>,
    #[serde(default)]
    same_as: Option<String>,
    #[serde(default)]
    replaces: Option<String>,
}

/// The JSON text of an answer: without a Markdown code fence around it.
fn json_text(text: &str) -> &str {
    let t = text.trim();
    let Some(inner) = t.strip_prefix("```") else { return t };
    let inner = inner.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    inner.strip_suffix("```").unwrap_or(inner).trim()
}

/// The changes an answer asks for. `sources` are the person's message ids the model was
/// shown; `items` the live items it was shown.
pub fn parse_answer(
    text: &str,
    sources: &HashSet<i64>,
    items: &[MemoryItem],
) -> Result<Vec<MemoryChange>, AnswerError> {
    let answer: Answer =
        serde_json::from_str(json_text(text)).map_err(|e| AnswerError::Json(e.to_string()))?;
    answer
        .items
        .into_iter()
        .enumerate()
        .map(|(i, raw)| {
            change(raw, sources, items)
                .map_err(|problem| AnswerError::Item { index: i + 1, problem })
        })
        .collect()
}

fn change(
    raw: RawItem,
    sources: &HashSet<i64>,
    items: &[MemoryItem],
) -> Result<MemoryChange, String> {
    let Some(kind) = MemoryKind::from_name(&raw.kind) else {
        let known: Vec<&str> = MemoryKind::ALL.iter().map(|k| k.as_str()).collect();
        return Err(format!("has kind \"{}\", not one of: {}", raw.kind, known.join(", ")));
    };
    let text = raw.text.trim().to_string();
    if text.is_empty() {
        return Err("has no text".into());
    }
    let confidence = raw.confidence.unwrap_or(DEFAULT_CONFIDENCE);
    if !(0.0..=1.0).contains(&confidence) {
        return Err(format!("has confidence {confidence}, not between 0 and 1"));
    }
    if raw.sources.is_empty() {
        return Err("has no source messages".into());
    }
    if let Some(bad) = raw.sources.iter().find(|s| !sources.contains(s)) {
        return Err(format!(
            "cites message {bad}, which is not one of the person's messages it was shown"
        ));
    }
    let target = |id: &str| -> Result<String, String> {
        match items.iter().find(|i| i.id == id) {
            Some(item) if item.kind == kind => Ok(item.id.clone()),
            Some(item) => Err(format!("names item {id} of kind {}, not {kind}", item.kind)),
            None => Err(format!("names item \"{id}\", which is not one of the listed items")),
        }
    };
    let sources = raw.sources;
    match (raw.same_as.filter(|s| !s.is_empty()), raw.replaces.filter(|s| !s.is_empty())) {
        (Some(_), Some(_)) => Err("has both same_as and replaces; give one".into()),
        (Some(id), None) => Ok(MemoryChange::Merge { id: target(&id)?, confidence, sources }),
        (None, Some(id)) => {
            Ok(MemoryChange::Replace { id: target(&id)?, text, confidence, sources })
        }
        (None, None) => Ok(MemoryChange::Add { kind, text, confidence, sources }),
    }
}
