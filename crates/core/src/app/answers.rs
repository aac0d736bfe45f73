//! What a person answered in a protocol run, step by step (`ProtocolRunView.answers`): the
//! run's `data` (`{"step_1": {field: value}}`) read through the protocol definition's steps
//! and fields, so the completion card and the report show the person's words under the
//! questions that asked for them. Pure: no store, no engine; validating step data is the
//! engine's.

use serde_json::Value;
use vibe_skills::Protocol;
use vibe_store::{ProtocolRun, step_key};
use vibe_wire::command::{FieldAnswer, StepAnswers};

/// One item per recorded step, in step order; steps without a recorded field are left out.
/// Fields follow the definition's order; keys the definition does not name (an older
/// version's) follow, as recorded, with their key as label; keys starting with `_` (reminder answers) are
/// not answers. Without a definition (the skill is gone) every recorded key is listed under
/// an empty title.
pub(crate) fn step_answers(def: Option<&Protocol>, run: &ProtocolRun) -> Vec<StepAnswers> {
    let steps = def.map_or(0, |d| d.steps.len()).max(recorded_steps(run));
    (1..=steps)
        .filter_map(|n| {
            let n = u32::try_from(n).ok()?;
            let data = run.data.get(step_key(n))?.as_object()?;
            let step = def.and_then(|d| d.steps.get(n as usize - 1));
            let mut fields: Vec<FieldAnswer> = Vec::new();
            for field in step.map(|s| s.fields.as_slice()).unwrap_or_default() {
                if let Some(text) = data.get(&field.key).and_then(text_of) {
                    fields.push(FieldAnswer {
                        key: field.key.clone(),
                        label: field.person_label().to_owned(),
                        label_en: field.label.as_ref().and_then(|l| l.en.clone()),
                        text,
                    });
                }
            }
            for (key, value) in data {
                let declared = step.is_some_and(|s| s.fields.iter().any(|f| &f.key == key));
                if declared || key.starts_with('_') {
                    continue;
                }
                if let Some(text) = text_of(value) {
                    fields.push(FieldAnswer {
                        key: key.clone(),
                        label: key.clone(),
                        label_en: None,
                        text,
                    });
                }
            }
            (!fields.is_empty()).then(|| StepAnswers {
                step: n,
                title: step.map(|s| s.title.clone()).unwrap_or_default(),
                title_en: step.and_then(|s| s.title_en.clone()),
                fields,
            })
        })
        .collect()
}

/// The highest `step_N` key in the run's data.
fn recorded_steps(run: &ProtocolRun) -> usize {
    run.data
        .as_object()
        .map(|m| {
            m.keys()
                .filter_map(|k| k.strip_prefix("step_")?.parse::<usize>().ok())
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0)
}

/// A value as text: a list one item per line, text as written, others as compact JSON;
/// `None` for nothing (null, empty text, empty list).
fn text_of(value: &Value) -> Option<String> {
    let text = match value {
        Value::Null => return None,
        Value::String(s) => s.trim().to_string(),
        Value::Array(items) => items
            .iter()
            .filter_map(|i| match i {
                Value::String(s) => Some(s.trim().to_string()),
                Value::Null => None,
                other => Some(other.to_string()),
            })
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    };
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
#[path = "answers_tests.rs"]
mod tests;
