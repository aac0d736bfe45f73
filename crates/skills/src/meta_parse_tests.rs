//! Frontmatter validation: each finding at its line and column.

use super::*;
use crate::meta::{ComputeType, VoiceMode};

fn parse(yaml: &str, folder: &str) -> (Option<SkillMeta>, Vec<String>) {
    let parsed = parse_meta(yaml, 2, Path::new("s/SKILL.md"), folder);
    (parsed.meta, parsed.problems.iter().map(ToString::to_string).collect())
}

fn errors_of(yaml: &str) -> Vec<String> {
    let (meta, problems) = parse(yaml, "bazi");
    assert!(meta.is_none(), "expected errors for {yaml:?}");
    problems
}

#[test]
fn full_frontmatter_is_read_into_typed_fields() {
    let yaml = "\
name: bazi
description: 八字命理分析
license: MIT
metadata:
  author: vibe
  version: 1.0
allowed-tools: read_state write_state
requires_birth_info: true
requires_compute: true
compute_type: bazi
profile_fields: [birth_info, skills.bazi, skill_data.bazi]
expert_persona: 命理师
personas:
  future_self: 未来的你
  coach: 教练
voice_modes: [warm, direct]
triggers: [八字, 命盘]
ethics:
  forbidden: [医疗诊断]
default_scenario: reading
history: {max_messages: 10, max_tokens: 4000}
";
    let (meta, problems) = parse(yaml, "bazi");
    let meta = meta.unwrap();
    assert_eq!(
        problems,
        vec![
            "s/SKILL.md:12:43: warning: `skill_data.bazi` is the legacy name; read as `skills.bazi`"
        ]
    );
    assert_eq!(meta.metadata["version"], "1.0");
    assert_eq!(meta.allowed_tools, vec!["read_state", "write_state"]);
    assert_eq!(meta.compute_type, Some(ComputeType::Bazi));
    assert_eq!(meta.profile_fields, vec!["birth_info", "skills.bazi", "skills.bazi"]);
    assert_eq!(meta.personas[0].id, "future_self");
    assert_eq!(meta.voice_modes, vec![VoiceMode::Warm, VoiceMode::Direct]);
    assert_eq!(meta.ethics.forbidden, vec!["医疗诊断"]);
    assert_eq!(meta.history.max_messages, Some(10));
    assert!(meta.user_invocable && !meta.disable_model_invocation);
}

#[test]
fn missing_name_and_description_point_at_the_fence() {
    assert_eq!(
        errors_of("license: MIT\n"),
        vec![
            "s/SKILL.md:1:1: missing required field `name` in the frontmatter",
            "s/SKILL.md:1:1: missing required field `description` in the frontmatter",
        ]
    );
}

#[test]
fn name_rules_and_folder_mismatch_point_at_the_value() {
    assert_eq!(
        errors_of("name: Bazi\ndescription: d\n"),
        vec![
            "s/SKILL.md:2:7: invalid name `Bazi`: a name may only use lowercase a-z, digits 0-9 and `-`, found `B`"
        ]
    );
    assert_eq!(
        errors_of("description: d\nname: zodiac\n"),
        vec![
            "s/SKILL.md:3:7: name `zodiac` must equal its folder name `bazi` (rename one of them)"
        ]
    );
}

#[test]
fn description_too_long_loads_shortened_with_a_warning() {
    let long = "x".repeat(1025);
    let (meta, problems) = parse(&format!("name: bazi\ndescription: {long}\n"), "bazi");
    assert_eq!(
        problems,
        vec![
            "s/SKILL.md:3:14: warning: `description` has 1025 characters, over the limit of 1024; loaded with the first 1024 kept (shorten it so nothing is cut)"
        ]
    );
    let description = meta.expect("an over-long description still loads").description;
    assert_eq!(description.chars().count(), 1024);
    assert!(description.ends_with("x…"), "{description}");
}

#[test]
fn shortening_never_splits_a_character() {
    let text = "八字命理".repeat(300);
    let short = shorten(&text, 1024);
    assert_eq!(short.chars().count(), 1024);
    assert!(short.starts_with("八字命理八字") && short.ends_with('…'));
    assert_eq!(shorten("短", 1024), "短");
    let (meta, problems) = parse(
        &format!("name: bazi\ndescription: x\ncompatibility: {}\n", "需".repeat(501)),
        "bazi",
    );
    assert!(problems[0].contains("warning: `compatibility` has 501 characters"), "{problems:?}");
    assert_eq!(meta.unwrap().compatibility.unwrap().chars().count(), 500);
}

#[test]
fn empty_description_is_an_error() {
    assert_eq!(
        errors_of("name: bazi\ndescription:\n"),
        vec!["s/SKILL.md:3:12: `description` is empty; it is required"]
    );
    assert_eq!(
        errors_of("name: bazi\ndescription: \"  \"\n"),
        vec!["s/SKILL.md:3:14: `description` is empty; write at least one character"]
    );
}

#[test]
fn unknown_compute_type_and_voice_mode() {
    assert_eq!(
        errors_of("name: bazi\ndescription: d\ncompute_type: tarot\nvoice_modes: [warm, shouty]\n"),
        vec![
            "s/SKILL.md:4:15: unknown compute_type `tarot` (known: bazi, zodiac)",
            "s/SKILL.md:5:21: unknown voice mode `shouty` (known: warm, direct, playful)",
        ]
    );
}

#[test]
fn requires_compute_needs_a_compute_type() {
    assert_eq!(
        errors_of("name: bazi\ndescription: d\nrequires_compute: true\n"),
        vec![
            "s/SKILL.md:4:19: `requires_compute` is true but `compute_type` is missing (known: bazi, zodiac)"
        ]
    );
}

#[test]
fn bad_yaml_is_reported_at_its_position() {
    let problems = errors_of("name: bazi\ndescription: [unclosed\n");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].starts_with("s/SKILL.md:4:"), "{problems:?}");
    assert!(problems[0].contains("invalid YAML in frontmatter"), "{problems:?}");
}

#[test]
fn unquoted_colon_in_description_still_loads() {
    let (meta, problems) = parse("name: bazi\ndescription: Use when: asked about 八字\n", "bazi");
    assert_eq!(meta.unwrap().description, "Use when: asked about 八字");
    assert_eq!(problems.len(), 1);
    assert!(problems[0].starts_with("s/SKILL.md:3:14: warning:"), "{problems:?}");
}

#[test]
fn unknown_fields_and_wrong_shapes() {
    let (meta, problems) = parse("name: bazi\ndescription: d\nrequries_birth_info: true\n", "bazi");
    assert!(meta.is_some());
    assert!(
        problems[0].starts_with("s/SKILL.md:4:1: warning: unknown field `requries_birth_info`"),
        "{problems:?}"
    );
    assert_eq!(
        errors_of(
            "name: bazi\ndescription: d\nrequires_birth_info: yes\nprofile_fields: [life_context]\n"
        ),
        vec![
            "s/SKILL.md:4:22: `requires_birth_info` must be true or false, found `yes`",
            "s/SKILL.md:5:18: unknown profile field `life_context` (known: account, birth_info, preferences, state, skills, extracted)",
        ]
    );
}

#[test]
fn frontmatter_that_is_not_a_mapping() {
    assert_eq!(
        errors_of("- a\n- b\n"),
        vec![
            "s/SKILL.md:2:1: frontmatter must be a mapping of fields (name: ..., description: ...), found a list"
        ]
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// Half-saved or mangled frontmatter never panics: it parses or reports problems.
    #[test]
    fn any_text_parses_or_reports_without_panicking(yaml in "[a-z_:\\- \n\t'\"\\[\\]{}#&*!|>,.0-9八字]{0,200}") {
        let parsed = parse_meta(&yaml, 2, Path::new("s/SKILL.md"), "bazi");
        proptest::prop_assert!(parsed.meta.is_some() || parsed.problems.iter().any(Problem::is_error));
    }

    /// Truncating a valid frontmatter at any character never panics either.
    #[test]
    fn truncated_frontmatter_never_panics(cut in 0usize..400) {
        let full = "name: bazi\ndescription: \"八字: 命理\"\nmetadata:\n  a: b\npersonas:\n  coach: 教练\nvoice_modes: [warm, direct]\nhistory: {max_messages: 3}\ntriggers:\n  - 八字\n";
        let end = full.char_indices().map(|(i, _)| i).chain([full.len()]).nth(cut).unwrap_or(full.len());
        let parsed = parse_meta(&full[..end], 2, Path::new("s/SKILL.md"), "bazi");
        proptest::prop_assert!(parsed.meta.is_some() || !parsed.problems.is_empty());
    }
}

#[test]
fn findings_name_their_kind_and_parameters_for_a_front_end_to_word() {
    use crate::problem::ProblemCode as C;
    let codes = |yaml: &str, folder: &str| -> Vec<C> {
        parse_meta(yaml, 2, Path::new("s/SKILL.md"), folder)
            .problems
            .into_iter()
            .map(|p| p.code)
            .collect()
    };
    assert_eq!(codes("name: bazi\n", "bazi"), [C::MissingField { field: "description".into() }]);
    assert_eq!(
        codes("name: bazi\ndescription:\n", "bazi"),
        [C::EmptyField { field: "description".into() }]
    );
    assert_eq!(
        codes("name: tarot\ndescription: d\n", "bazi"),
        [C::NameNotFolder { name: "tarot".into(), folder: "bazi".into() }]
    );
    assert_eq!(
        codes("name: bazi\ndescription: d\ncompute_type: runes\n", "bazi"),
        [C::UnknownValue {
            field: "compute_type".into(),
            value: "runes".into(),
            known: known_compute()
        }]
    );
    assert_eq!(
        codes("name: bazi\ndescription: [a, b]\n", "bazi"),
        [C::WrongType {
            field: "description".into(),
            expected: "text".into(),
            found: "a list".into()
        }]
    );
    let yaml = codes("name: bazi\ndescription: \"unclosed\n", "bazi");
    assert!(matches!(yaml.as_slice(), [C::InvalidYaml { .. }]), "{yaml:?}");
}

#[test]
fn declared_lists_carry_their_caps_and_bad_paths_are_named() {
    let yaml = "name: coach\ndescription: d\nlists:\n  journal: {}\n  moods: {max_items: 30}\n";
    let (meta, problems) = parse(yaml, "coach");
    assert!(problems.is_empty(), "{problems:?}");
    let lists = meta.unwrap().lists;
    assert_eq!(lists["journal"].max_items, None);
    assert_eq!(lists["moods"].max_items, Some(30));
    let bad = "name: coach\ndescription: d\nlists:\n  _meta: {max_items: 3}\n  m: {max_items: 0}\n";
    let (_, problems) = parse(bad, "coach");
    assert!(problems.iter().any(|p| p.contains("list path `_meta`")), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("lists.m.max_items")), "{problems:?}");
}
