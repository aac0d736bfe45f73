//! `cases/*.md`: worked examples the agent may cite (frontmatter `title` and `keywords`, the
//! body is the case). The id is the file stem. Matching cases to a message is `casematch`.

use std::path::Path;

use serde::Serialize;

use super::md_part::{read_md, reader, required};
use super::{Parsed, stem};
use crate::problem::{Pos, has_errors};

/// One case file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Case {
    /// File stem.
    pub id: String,
    pub title: String,
    pub keywords: Vec<String>,
    pub body: String,
}

pub(crate) fn parse_case(path: &Path, text: &str) -> Parsed<Case> {
    let mut r = reader(path);
    let Some((node, body)) = read_md(&mut r, text, "case") else { return (None, r.problems) };
    let entries = node.as_map().unwrap_or_default();
    r.unknown_keys(entries, &["title", "keywords"], "case field");
    let title = required(&mut r, &node, "title");
    let keywords: Vec<String> = match node.get("keywords") {
        Some(n) => r
            .text_list(n, "keywords")
            .into_iter()
            .map(|(k, _)| k)
            .filter(|k| !k.trim().is_empty())
            .collect(),
        None => {
            r.error(
                Pos::START,
                "missing required field `keywords` (a list of words this case is about)",
            );
            Vec::new()
        }
    };
    if keywords.is_empty() && node.get("keywords").is_some() {
        r.warn(
            node.get("keywords").map_or(Pos::START, |n| n.pos),
            "no keywords: this case is matched by its title and text only",
        );
    }
    if body.trim().is_empty() {
        r.error(Pos::START, "this case has no text after its frontmatter");
    }
    let ok = !has_errors(&r.problems);
    let case = title.map(|title| Case { id: stem(path), title, keywords, body: body.to_string() });
    (case.filter(|_| ok), r.problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_reads_title_keywords_and_body() {
        let text = "---\ntitle: 加班焦虑\nkeywords: [焦虑, 加班, anxiety]\n---\n来访者……\n";
        let (c, problems) = parse_case(Path::new("x/cases/overtime.md"), text);
        assert!(problems.is_empty(), "{problems:?}");
        let c = c.unwrap();
        assert_eq!(c.id, "overtime");
        assert_eq!(c.keywords, vec!["焦虑", "加班", "anxiety"]);
    }

    #[test]
    fn case_problems_are_positioned() {
        let (c, problems) =
            parse_case(Path::new("x/cases/a.md"), "---\ntitle: t\nkeywords: {a: b}\n---\ntext\n");
        assert!(c.is_none());
        assert_eq!(
            problems[0].to_string(),
            "x/cases/a.md:3:11: `keywords` must be a list, found a mapping"
        );
        let (c, problems) =
            parse_case(Path::new("x/cases/b.md"), "---\ntitle: t\nkeywords: [k]\n---\n\n");
        assert!(c.is_none());
        assert_eq!(
            problems[0].to_string(),
            "x/cases/b.md:1:1: this case has no text after its frontmatter"
        );
    }
}
