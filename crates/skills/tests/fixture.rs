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
