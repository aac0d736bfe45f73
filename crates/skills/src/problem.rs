//! Validation findings: one [`Problem`] per finding, printed as `path:line:col: message`.
//! Producing problems belongs to the parsers; deciding what a problem means for the index
//! (skill left out, stale version kept) belongs to `index`.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;
pub use vibe_wire::command::ProblemCode;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth fixing; the file is still used as written.
    Warning,
    /// The file (and so the skill or part) cannot be used until fixed.
    Error,
}

/// A 1-based line and column in a text file (columns count characters, not bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize)]
pub struct Pos {
    pub line: usize,
    pub col: usize,
}

impl Pos {
    /// Line 1, column 1: used for findings about a whole file.
    pub const START: Pos = Pos { line: 1, col: 1 };

    pub fn new(line: usize, col: usize) -> Self {
        Self { line, col }
    }
}

/// One validation finding about one file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Problem {
    pub path: PathBuf,
    pub line: usize,
    pub col: usize,
    pub severity: Severity,
    pub message: String,
    /// What the finding is about, for a front end to word it (`Other`: only `message`).
    pub code: ProblemCode,
}

impl Problem {
    pub fn error(path: &Path, pos: Pos, message: impl Into<String>) -> Self {
        Self::new(path, pos, Severity::Error, message)
    }

    pub fn warning(path: &Path, pos: Pos, message: impl Into<String>) -> Self {
        Self::new(path, pos, Severity::Warning, message)
    }

    fn new(path: &Path, pos: Pos, severity: Severity, message: impl Into<String>) -> Self {
        Self {
            path: path.to_path_buf(),
            line: pos.line,
            col: pos.col,
            severity,
            message: message.into(),
            code: ProblemCode::Other,
        }
    }

    /// The same finding with its kind named.
    pub fn with_code(mut self, code: ProblemCode) -> Self {
        self.code = code;
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A file that cannot be read (`cannot read: …`, with the system's words as its detail).
pub fn cannot_read(path: &Path, err: &dyn fmt::Display) -> Problem {
    let detail = err.to_string();
    Problem::error(path, Pos::START, format!("cannot read: {detail}"))
        .with_code(ProblemCode::CannotRead { detail })
}

/// `path:line:col: message`, with `warning: ` before the message of warnings.
impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.path.display(), self.line, self.col)?;
        if self.severity == Severity::Warning {
            f.write_str("warning: ")?;
        }
        f.write_str(&self.message)
    }
}

/// True when any of `problems` is an error.
pub fn has_errors(problems: &[Problem]) -> bool {
    problems.iter().any(Problem::is_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_print_as_path_line_col_message() {
        let p = Problem::error(Path::new("a/SKILL.md"), Pos::new(3, 7), "bad name");
        assert_eq!(p.to_string(), "a/SKILL.md:3:7: bad name");
        let w = Problem::warning(Path::new("a/SKILL.md"), Pos::START, "odd");
        assert_eq!(w.to_string(), "a/SKILL.md:1:1: warning: odd");
        assert!(has_errors(&[w.clone(), p]));
        assert!(!has_errors(&[w]));
    }
}
