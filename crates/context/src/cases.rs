//! Matched cases for a phase-2 prompt, rendered as `### title` + body. Matched once per run (a
//! run's later calls reuse them through `run_parts.rs`); a process-wide cache of results was
//! removed earlier because it did not pay (docs/performance.md, "Caches measured"). The case
//! files themselves are the registry's.

use std::sync::Arc;

use vibe_skills::Registry;

use super::sections::demote_headings;
use crate::ContextError;

/// The best `k` cases of `skill` for `message`, rendered, best first.
pub(crate) fn matched(
    skills: &Registry,
    skill: &str,
    message: &str,
    k: usize,
) -> Result<Arc<Vec<String>>, ContextError> {
    Ok(Arc::new(
        skills
            .match_cases(skill, message, k)?
            .iter()
            .map(|m| format!("### {}\n{}", m.case.title.trim(), demote_headings(&m.case.body, 3)))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use vibe_skills::RegistryConfig;

    #[test]
    fn an_edited_case_file_is_matched_again() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("demo");
        std::fs::create_dir_all(dir.join("cases")).unwrap();
        std::fs::write(
            dir.join("SKILL.md"),
            "---\nname: demo\ndescription: 演示。\n---\n\n# 演示\n",
        )
        .unwrap();
        let case = |title: &str| format!("---\ntitle: {title}\nkeywords: [拖延]\n---\n\n正文。\n");
        std::fs::write(dir.join("cases/a.md"), case("旧标题")).unwrap();
        let skills = Registry::open(RegistryConfig {
            project: Some(root.path().into()),
            ..RegistryConfig::default()
        });
        let first = matched(&skills, "demo", "我总是拖延", 2).unwrap();
        assert!(first[0].starts_with("### 旧标题"));
        // A different size and modification time, so the change is seen at once.
        std::fs::write(dir.join("cases/a.md"), case("新的标题，更长一些")).unwrap();
        let again = matched(&skills, "demo", "我总是拖延", 2).unwrap();
        assert!(again[0].starts_with("### 新的标题"), "{again:?}");
    }
}
