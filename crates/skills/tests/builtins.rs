//! The built-in skills shipped in the repository's `skills/` folder pass the deep check.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use vibe_skills::{Registry, RegistryConfig, check_path};

fn builtin_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../skills")
}

#[test]
fn built_in_skills_pass_check_without_errors() {
    let report = check_path(&builtin_root());
    let errors: Vec<String> =
        report.problems.iter().filter(|p| p.is_error()).map(ToString::to_string).collect();
    assert!(errors.is_empty(), "built-in skills have errors:\n{}", errors.join("\n"));
    let names: Vec<&str> = report.skills.iter().map(|s| s.name.as_str()).collect();
    for expected in ["bazi", "career", "core", "lifecoach", "tarot", "zodiac"] {
        assert!(names.contains(&expected), "missing built-in skill {expected}: {names:?}");
    }
}

#[test]
fn built_in_skills_load_every_part_through_the_registry() {
    let reg = Registry::open(RegistryConfig {
        builtin: Some(builtin_root()),
        ..RegistryConfig::default()
    });
    for entry in reg.skills() {
        let name = &entry.name;
        assert!(!reg.body(name).unwrap().trim().is_empty(), "{name} has a body");
        reg.tools(name).unwrap();
        let parts = reg.parts(name).unwrap();
        assert_eq!(reg.rules(name).unwrap().len(), parts.rules.len(), "{name} rules");
        assert_eq!(reg.scenarios(name).unwrap().len(), parts.scenarios.len(), "{name} scenarios");
        assert_eq!(reg.cases(name).unwrap().len(), parts.cases.len(), "{name} cases");
        assert_eq!(reg.protocols(name).unwrap().len(), parts.protocols.len(), "{name} protocols");
    }
}

#[test]
fn built_in_skills_declare_starters_in_both_languages_and_lifecoach_daily_prompts() {
    let reg = Registry::open(RegistryConfig {
        builtin: Some(builtin_root()),
        ..RegistryConfig::default()
    });
    for name in ["lifecoach", "career", "bazi", "tarot", "zodiac"] {
        let prompts = reg.prompts(name).unwrap().unwrap_or_else(|| panic!("{name}: prompts"));
        assert!((2..=3).contains(&prompts.starters.len()), "{name}: 2–3 starters");
        for text in prompts.starters.iter().chain(&prompts.daily) {
            assert!(text.en.is_some(), "{name}: `{}` has an English version", text.zh);
        }
    }
    let lifecoach = reg.prompts("lifecoach").unwrap().unwrap();
    assert!(lifecoach.daily.len() >= 14, "lifecoach has two weeks of daily prompts");
    assert!(reg.parts("lifecoach").unwrap().prompts);
}
