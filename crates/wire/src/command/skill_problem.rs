//! A skill validation finding as data, so a front end words it in its own language: where
//! (`path:line:col`), how bad, what kind ([`ProblemCode`] with its parameters) and the
//! checker's English sentence (what the CLI prints, and what a front end shows for
//! [`ProblemCode::Other`]).

use serde::{Deserialize, Serialize};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SkillProblemSeverity {
    /// Worth fixing; the file is still used as written.
    Warning,
    /// The file cannot be used until fixed.
    Error,
}

/// What a finding is about, with the names it mentions. New kinds may be added; a front end
/// shows `message` for one it does not know.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ProblemCode {
    /// A required field is absent.
    MissingField { field: String },
    /// A required field is there but empty.
    EmptyField { field: String },
    /// A field holds the wrong kind of value (`expected`: text, list, mapping, boolean,
    /// positive_number; `found` as written or the YAML kind found).
    WrongType { field: String, expected: String, found: String },
    /// A key the format does not know (ignored).
    UnknownKey { key: String, known: String },
    /// A value the field does not know.
    UnknownValue { field: String, value: String, known: String },
    /// The YAML cannot be read (`detail`: the parser's words).
    InvalidYaml { detail: String },
    /// `name` differs from the skill's folder.
    NameNotFolder { name: String, folder: String },
    /// The file or folder cannot be read (`detail`: the system's words).
    CannotRead { detail: String },
    /// Any other finding: show `message`.
    Other,
}

/// One finding about one file of a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SkillProblemView {
    pub path: String,
    pub line: u32,
    pub col: u32,
    pub severity: SkillProblemSeverity,
    pub code: ProblemCode,
    /// The checker's sentence in English (`path:line:col: …` in `problems` holds it too).
    pub message: String,
}
