//! `rules/*.md`: plain Markdown rules (the SOP) injected into the phase-2 prompt, in file-name
//! order. The id is the file stem. No frontmatter is expected; an empty rule is a warning.

use std::path::Path;

use serde::Serialize;

use super::{Parsed, stem};
use crate::problem::{Pos, Problem};

/// One rule file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rule {
    /// File stem, e.g. `01-listen-first`.
    pub id: String,
    pub text: String,
}

pub(crate) fn parse_rule(path: &Path, text: &str) -> Parsed<Rule> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut problems = Vec::new();
    if text.trim().is_empty() {
        problems.push(Problem::warning(path, Pos::START, "this rule file is empty"));
    }
    (Some(Rule { id: stem(path), text: text.to_string() }), problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_is_its_text_named_by_its_file() {
        let (rule, problems) = parse_rule(Path::new("s/rules/01-listen.md"), "先倾听。\n");
        assert_eq!(rule.unwrap(), Rule { id: "01-listen".into(), text: "先倾听。\n".into() });
        assert!(problems.is_empty());
        let (_, problems) = parse_rule(Path::new("s/rules/empty.md"), "  \n");
        assert_eq!(
            problems[0].to_string(),
            "s/rules/empty.md:1:1: warning: this rule file is empty"
        );
    }
}
