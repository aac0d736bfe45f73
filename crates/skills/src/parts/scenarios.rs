//! `scenarios/*.md`: situations a skill handles differently (frontmatter `name`, `description`;
//! the body is the scenario's instructions). `name` defaults to the file stem and, when given,
//! must equal it, so `default_scenario` and the agent refer to one id.

use std::path::Path;

use serde::Serialize;

use super::md_part::{read_md, reader, required};
use super::{Parsed, stem};
use crate::problem::has_errors;

/// One scenario file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Scenario {
    /// File stem, equal to the frontmatter `name`.
    pub name: String,
    pub description: String,
    pub body: String,
}

pub(crate) fn parse_scenario(path: &Path, text: &str) -> Parsed<Scenario> {
    let mut r = reader(path);
    let Some((node, body)) = read_md(&mut r, text, "scenario") else { return (None, r.problems) };
    let entries = node.as_map().unwrap_or_default();
    r.unknown_keys(entries, &["name", "description"], "scenario field");
    let id = stem(path);
    if let Some(n) = node.get("name")
        && let Some(name) = r.text(n, "name")
        && name != id
    {
        r.error(
            n.pos,
            format!("scenario name `{name}` must equal its file name `{id}` (without .md)"),
        );
    }
    let description = required(&mut r, &node, "description");
    if body.trim().is_empty() {
        r.warn(
            crate::problem::Pos::START,
            "this scenario has no instructions after its frontmatter",
        );
    }
    let ok = !has_errors(&r.problems);
    let scenario =
        description.map(|description| Scenario { name: id, description, body: body.to_string() });
    (scenario.filter(|_| ok), r.problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_reads_description_and_body() {
        let text = "---\nname: first-chat\ndescription: 第一次对话\n---\n先问候。\n";
        let (s, problems) = parse_scenario(Path::new("x/scenarios/first-chat.md"), text);
        assert!(problems.is_empty(), "{problems:?}");
        let s = s.unwrap();
        assert_eq!((s.name.as_str(), s.body.as_str()), ("first-chat", "先问候。\n"));
    }

    #[test]
    fn scenario_name_must_match_its_file() {
        let text = "---\nname: other\ndescription: d\n---\nbody\n";
        let (s, problems) = parse_scenario(Path::new("x/scenarios/first.md"), text);
        assert!(s.is_none());
        assert_eq!(
            problems[0].to_string(),
            "x/scenarios/first.md:2:7: scenario name `other` must equal its file name `first` (without .md)"
        );
    }

    #[test]
    fn scenario_without_description() {
        let (s, problems) =
            parse_scenario(Path::new("x/scenarios/a.md"), "---\nname: a\n---\nbody\n");
        assert!(s.is_none());
        assert_eq!(
            problems[0].to_string(),
            "x/scenarios/a.md:1:1: missing required field `description` in the frontmatter"
        );
    }
}
