//! The typed protocol definition (what `protocols/<id>.yaml` means once valid): steps, the
//! fields each step collects and how a value is checked against its field, reminders, the
//! completion mapping and the report template. Parsing and positioned findings live in
//! `parse`; running a protocol belongs to the engine in `vibe-core`.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// One coaching protocol, as defined in a skill's `protocols/<id>.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protocol {
    /// Equal to the file name without `.yaml`.
    pub id: String,
    /// Raised by the author when steps or fields change; every run records it.
    pub version: u32,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_en: Option<String>,
    pub description: String,
    /// The description in English, for a person whose app speaks English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description_en: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time: Option<String>,
    /// The estimated time in English.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time_en: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub persona: Option<String>,
    /// Instructions that hold for every step.
    #[serde(default)]
    pub principles: Vec<String>,
    pub steps: Vec<Step>,
    /// Where collected fields go in the skill state when the protocol completes:
    /// `section -> key -> "step.field"` (nested mappings allowed).
    #[serde(default)]
    pub completion: serde_json::Map<String, Json>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportTemplate>,
}

/// One step of a protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    pub id: String,
    pub title: String,
    /// The title in English, for a person whose app speaks English (absent: `title`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_en: Option<String>,
    /// A free label such as `morning`, `daytime`, `evening`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// What the step is for.
    pub goal: String,
    /// How the coach opens the step.
    pub opening: String,
    /// Questions the coach may ask during the step.
    #[serde(default)]
    pub questions: Vec<String>,
    /// What the step collects (`advance_protocol_step`'s `step_data` is checked against it).
    pub fields: Vec<Field>,
    /// When the step counts as done, in words for the coach.
    pub done_when: String,
    /// Questions asked at fixed times of day while this step is current.
    #[serde(default)]
    pub reminders: Vec<Reminder>,
}

/// One field a step collects.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub key: String,
    #[serde(rename = "type")]
    pub kind: FieldType,
    /// What the field holds, in words for the coach (the model reads it).
    pub description: String,
    /// What the person sees above their answer (the completion card, the report): the
    /// question as asked of them, not the coach's note. Absent: the description is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<FieldLabel>,
    /// Defaults to true.
    #[serde(default = "yes")]
    pub required: bool,
}

impl Field {
    /// The words the person sees for this field (its Chinese label, else its description).
    pub fn person_label(&self) -> &str {
        self.label.as_ref().map_or(&self.description, |l| &l.zh)
    }
}

/// A field's label for the person: Chinese (the skill's language), English optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldLabel {
    pub zh: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub en: Option<String>,
}

fn yes() -> bool {
    true
}

/// The type of a collected field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldType {
    /// Non-empty text.
    Text,
    /// A non-empty list of texts.
    List,
    Number,
    Boolean,
}

/// A question asked at a fixed time of day (`HH:MM`, local time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reminder {
    pub at: String,
    pub question: String,
}

impl Reminder {
    /// Minutes after midnight (the schema guarantees `HH:MM`).
    pub fn minute_of_day(&self) -> u32 {
        let mut parts = self.at.split(':').map(|p| p.parse::<u32>().unwrap_or(0));
        let h = parts.next().unwrap_or(0);
        let m = parts.next().unwrap_or(0);
        h * 60 + m
    }
}

/// The report's layout: sections, each listing the fields (`step.field`) it shows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportTemplate {
    pub title: String,
    pub sections: Vec<ReportSection>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportSection {
    pub title: String,
    pub from: Vec<String>,
}

/// One leaf of the completion mapping: the state path it writes and the field it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionTarget {
    /// Section first, e.g. `["north_star", "vision"]`.
    pub path: Vec<String>,
    /// `step.field`.
    pub from: String,
}

impl Protocol {
    /// The step with this id, with its 0-based index.
    pub fn step(&self, id: &str) -> Option<(usize, &Step)> {
        self.steps.iter().enumerate().find(|(_, s)| s.id == id)
    }

    /// The field a `step.field` reference names.
    pub fn field(&self, reference: &str) -> Option<(&Step, &Field)> {
        let (step, key) = reference.split_once('.')?;
        let (_, step) = self.step(step)?;
        step.fields.iter().find(|f| f.key == key).map(|f| (step, f))
    }

    /// The completion mapping flattened to its leaves, in file order.
    pub fn completion_targets(&self) -> Vec<CompletionTarget> {
        fn walk(
            map: &serde_json::Map<String, Json>,
            at: &mut Vec<String>,
            out: &mut Vec<CompletionTarget>,
        ) {
            for (k, v) in map {
                at.push(k.clone());
                match v {
                    Json::String(from) => {
                        out.push(CompletionTarget { path: at.clone(), from: from.clone() });
                    }
                    Json::Object(inner) => walk(inner, at, out),
                    _ => {}
                }
                at.pop();
            }
        }
        let mut out = Vec::new();
        walk(&self.completion, &mut Vec::new(), &mut out);
        out
    }
}

impl Step {
    /// The step's title in `lang` ("en…": `title_en` when written; else the Chinese title).
    pub fn title_in(&self, lang: &str) -> &str {
        match &self.title_en {
            Some(en) if lang.starts_with("en") => en,
            _ => &self.title,
        }
    }

    /// Check `data` (an object) against the step's fields: every problem, naming the field.
    /// Keys the step does not declare are reported too, so a typo is not silently lost.
    pub fn check_data(&self, data: &Json) -> Vec<String> {
        let Some(obj) = data.as_object() else {
            return vec![format!(
                "step_data must be an object with the fields of step `{}` ({})",
                self.id,
                self.field_list()
            )];
        };
        let mut out = Vec::new();
        for field in &self.fields {
            match obj.get(&field.key) {
                None | Some(Json::Null) if field.required => out.push(format!(
                    "missing required field `{}` ({}): {}",
                    field.key,
                    field.kind.describe(),
                    field.description
                )),
                None | Some(Json::Null) => {}
                Some(value) => {
                    if let Err(why) = field.kind.check(value) {
                        out.push(format!("field `{}` {why}", field.key));
                    }
                }
            }
        }
        for key in obj.keys() {
            if !self.fields.iter().any(|f| &f.key == key) {
                out.push(format!(
                    "unknown field `{key}` for step `{}` (fields: {})",
                    self.id,
                    self.field_list()
                ));
            }
        }
        out
    }

    fn field_list(&self) -> String {
        self.fields.iter().map(|f| f.key.as_str()).collect::<Vec<_>>().join(", ")
    }
}

impl FieldType {
    /// "text", "a list of texts", ... for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::List => "a list of texts",
            Self::Number => "a number",
            Self::Boolean => "true or false",
        }
    }

    /// Whether `value` fits this type; the reason when it does not.
    pub fn check(self, value: &Json) -> Result<(), String> {
        let ok = match (self, value) {
            (Self::Text, Json::String(s)) => !s.trim().is_empty(),
            (Self::List, Json::Array(items)) => {
                !items.is_empty()
                    && items.iter().all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty()))
            }
            (Self::Number, Json::Number(_)) | (Self::Boolean, Json::Bool(_)) => true,
            _ => false,
        };
        if ok {
            Ok(())
        } else {
            Err(format!("must be {} (non-empty), got {}", self.describe(), short(value)))
        }
    }
}

fn short(value: &Json) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step() -> Step {
        Step {
            id: "s".into(),
            title: "t".into(),
            title_en: None,
            phase: None,
            goal: "g".into(),
            opening: "o".into(),
            questions: vec![],
            fields: vec![
                Field {
                    key: "a".into(),
                    kind: FieldType::Text,
                    description: "A".into(),
                    label: None,
                    required: true,
                },
                Field {
                    key: "b".into(),
                    kind: FieldType::List,
                    description: "B".into(),
                    label: None,
                    required: false,
                },
            ],
            done_when: "d".into(),
            reminders: vec![],
        }
    }

    #[test]
    fn step_data_problems_name_the_field() {
        let s = step();
        assert!(s.check_data(&json!({"a": "x", "b": ["y"]})).is_empty());
        assert!(s.check_data(&json!({"a": "x"})).is_empty(), "b is optional");
        assert_eq!(
            s.check_data(&json!({"b": ["y"]})),
            vec!["missing required field `a` (text): A"]
        );
        assert_eq!(
            s.check_data(&json!({"a": "x", "b": "y"})),
            vec!["field `b` must be a list of texts (non-empty), got \"y\""]
        );
        assert_eq!(
            s.check_data(&json!({"a": "x", "c": 1})),
            vec!["unknown field `c` for step `s` (fields: a, b)"]
        );
        assert!(s.check_data(&json!("x"))[0].starts_with("step_data must be an object"));
    }

    #[test]
    fn reminders_know_their_minute() {
        let r = Reminder { at: "13:30".into(), question: "q".into() };
        assert_eq!(r.minute_of_day(), 13 * 60 + 30);
    }

    #[test]
    fn a_step_is_titled_in_english_only_when_written() {
        let mut s = step();
        s.title = "反愿景".into();
        assert_eq!(s.title_in("en"), "反愿景");
        s.title_en = Some("Anti-vision".into());
        assert_eq!(s.title_in("en"), "Anti-vision");
        assert_eq!(s.title_in("en-GB"), "Anti-vision");
        assert_eq!(s.title_in("zh-CN"), "反愿景");
    }
}
