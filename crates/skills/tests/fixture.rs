//! A skill written in the public Agent Skills format loads unchanged.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use vibe_skills::{ResourceKind, check_path};

use crate::support::open;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agent-skills")
}

#[test]
fn an_agent_skills_folder_loads_with_its_standard_fields_and_folders() {
    let reg = open(None, None, Some(&fixtures()));
    assert!(reg.problems().is_empty(), "{:?}", reg.problems());
    let entry = reg.skill("pdf-processing").unwrap();
    assert!(entry.valid);
    let meta = &entry.meta;
    assert_eq!(meta.license.as_deref(), Some("Apache-2.0"));
    assert_eq!(meta.compatibility.as_deref(), Some("Requires Python 3.10+ and the pypdf package."));
    assert_eq!(meta.metadata["version"], "1.0");
    assert_eq!(meta.allowed_tools, vec!["Bash(python:*)", "Read"]);
    assert!(reg.body("pdf-processing").unwrap().starts_with("\n# PDF processing"));

    let resources: Vec<_> =
        reg.resources("pdf-processing").unwrap().into_iter().map(|r| (r.path, r.kind)).collect();
    assert_eq!(
        resources,
        vec![
            ("assets/form-template.txt".to_string(), ResourceKind::Asset),
            ("references/REFERENCE.md".to_string(), ResourceKind::Reference),
            ("scripts/extract.py".to_string(), ResourceKind::Script),
        ]
    );
    let reference = reg.load_resource("pdf-processing", "references/REFERENCE.md").unwrap();
    assert!(reference.text.starts_with("# PDF reference"));
    assert!(check_path(&fixtures()).problems.is_empty());
}

/// The shape of `anthropics/skills`' `claude-api` SKILL.md: a `|-` block description of 1,068
/// characters, over the Agent Skills limit of 1,024. It loads (with a warning), not as broken.
#[test]
fn a_public_skill_with_an_over_long_description_loads_with_a_warning() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/public-skills");
    let reg = open(None, None, Some(&root));
    let entry = reg.skill("claude-api").expect("the skill is in the catalog");
    assert!(entry.valid);
    let description = &entry.meta.description;
    assert_eq!(description.chars().count(), 1024);
    assert!(description.starts_with("Reference for building on a hosted LLM API"));
    assert!(description.ends_with('…'), "{description}");
    let problems: Vec<String> = reg.problems().iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].ends_with(
            "claude-api/SKILL.md:4:3: warning: `description` has 1068 characters, over the limit \
             of 1024; loaded with the first 1024 kept (shorten it so nothing is cut)"
        ),
        "{problems:?}"
    );
    let report = check_path(&root.join("claude-api"));
    assert!(!vibe_skills::has_errors(&report.problems), "{:?}", report.problems);
    assert!(reg.body("claude-api").unwrap().contains("# Building applications"));
}
