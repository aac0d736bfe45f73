//! Errors of the safety module: a rules or resources file that cannot be used, or a labelled
//! test set with a malformed line. Each message names the file, the place and the fix.

/// Why a safety data file or labelled set was refused. Nothing is partially loaded.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SafetyError {
    /// The YAML does not parse or does not have the documented shape.
    #[error("{file}: {message} (see docs/safety.md for the format)")]
    Format { file: String, message: String },
    /// A pattern is not a valid regular expression.
    #[error(
        "{file}: rule \"{rule}\": invalid pattern {pattern:?}: {message} (Rust regex syntax, see docs/safety.md)"
    )]
    Pattern { file: String, rule: String, pattern: String, message: String },
    /// The person's crisis resources override (`<data folder>/safety/resources.yaml`) cannot
    /// be used; the built-in resources are shown instead.
    #[error("{path}:{line}: {message} (see docs/safety.md, \"Crisis resources\")")]
    Resources { path: String, line: usize, message: String },
    /// A line of a labelled test set is malformed.
    #[error("{file}:{line}: {message} (expected: group<TAB>risk<TAB>category<TAB>text)")]
    Labelled { file: String, line: usize, message: String },
}
