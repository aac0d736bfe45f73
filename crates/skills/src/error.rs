//! The crate's one error type. Each variant says what went wrong, where, and how to fix it in
//! its message. None of them is retried by the crate itself; a caller may retry `Io` after the
//! file system settles (e.g. during a save). Validation findings that do not stop a call are
//! [`crate::Problem`]s, not errors.

use std::path::{Path, PathBuf};

use crate::problem::Problem;

#[derive(Debug, thiserror::Error)]
pub enum SkillsError {
    /// No usable skill has this name in any root.
    #[error("no skill named `{name}`")]
    UnknownSkill { name: String },

    /// A skill has no part (scenario, protocol) of this name.
    #[error("skill `{skill}` has no {kind} named `{name}` (known: {known})")]
    UnknownPart { skill: String, kind: &'static str, name: String, known: String },

    /// A resource path leaves the skill folder (`..`, an absolute path, or a symlink out).
    #[error(
        "refused to read `{path}` for skill `{skill}`: {reason}; use a path relative to the skill folder, inside it"
    )]
    PathEscape { skill: String, path: String, reason: &'static str },

    /// A resource path names nothing (or a folder) inside the skill folder.
    #[error("skill `{skill}` has no file `{path}` (its resources are listed with the skill)")]
    ResourceNotFound { skill: String, path: String },

    /// A resource exists but is not UTF-8 text (an image, a binary).
    #[error("{} is not UTF-8 text ({bytes} bytes); only text resources can be loaded", path.display())]
    NotText { path: PathBuf, bytes: u64 },

    /// A file is larger than the limit for its kind.
    #[error("{} is larger than {limit} bytes; shorten it", path.display())]
    TooLarge { path: PathBuf, limit: u64 },

    /// Reading or writing a file failed.
    #[error("cannot access {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// A part of a skill (tools.yaml, a case, a scenario, ...) failed validation and no earlier
    /// good version of it is known.
    #[error("{}", describe_problems(problems))]
    Invalid { problems: Vec<Problem> },

    /// A skill name breaks the naming rules (for `new`).
    #[error("invalid skill name `{name}`: {reason}")]
    InvalidName { name: String, reason: String },

    /// `new` would overwrite an existing folder.
    #[error("{} already exists; pick another name or remove it first", path.display())]
    AlreadyExists { path: PathBuf },

    /// The file watcher could not start or watch a root.
    #[error("cannot watch {} for changes: {source}", path.display())]
    Watch {
        path: PathBuf,
        #[source]
        source: notify::Error,
    },
}

impl SkillsError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io { path: path.to_path_buf(), source }
    }
}

fn describe_problems(problems: &[Problem]) -> String {
    let mut errors = problems.iter().filter(|p| p.is_error());
    match (errors.next(), errors.count()) {
        (Some(first), 0) => first.to_string(),
        (Some(first), more) => {
            format!("{first} (and {more} more: check the skill's files for all of them)")
        }
        (None, _) => "invalid skill part".to_string(),
    }
}

pub type Result<T, E = SkillsError> = std::result::Result<T, E>;
