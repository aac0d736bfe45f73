//! Tests of the literal gates: what a gate is read off a pattern, that the table shipped in
//! `data/safety/gates.json` matches the rules, that gated screening gives the same verdict as
//! running every rule on every labelled message and on generated ones, and that a plain
//! message compiles only a few rules.

use proptest::prelude::*;

use super::gate::{GateTable, required_literals};
use super::rules::{BUILTIN_GATES, joined_pattern, joined_patterns};
use super::{BUILTIN_RULES, RuleSet};

fn literals(pattern: &str) -> Option<Vec<String>> {
    required_literals(pattern).unwrap()
}

#[test]
fn a_gate_holds_the_words_every_match_needs() {
    assert_eq!(literals("我想(死|自杀)"), Some(vec!["我想死".into(), "我想自杀".into()]));
    // The most selective part of a concatenation: the long literal, not the short one.
    assert_eq!(literals("我[^，。]{0,6}(安眠药|农药)"), Some(vec!["农药".into(), "安眠药".into()]));
    // Alternation: one literal from each branch.
    assert_eq!(
        literals("(?:kill myself)|(?:end it all)"),
        Some(vec!["end it all".into(), "kill myself".into()])
    );
    // A literal implied by a shorter one in the set is dropped.
    assert_eq!(literals("pills?|pill bottle"), Some(vec!["pill".into()]));
    // Optional pieces and open classes give no gate: such a pattern always runs.
    assert_eq!(literals("x?"), None);
    assert_eq!(literals(r"\w+ing"), Some(vec!["ing".into()]));
    assert_eq!(literals(r"\w+"), None);
    assert_eq!(literals("(?:a|.*)"), None);
    assert!(required_literals("(unclosed").is_err());
}

#[test]
fn the_gate_table_matches_the_rules() {
    let patterns = joined_patterns(BUILTIN_RULES).unwrap();
    let fresh = GateTable::render(&patterns).unwrap();
    if std::env::var_os("VIBE_UPDATE_GATES").is_some() {
        // Regenerating is a developer's step: under CI the table is checked, never rewritten.
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "VIBE_UPDATE_GATES is set under CI=true: the gate table is checked in CI, not regenerated"
        );
        let path = format!("{}/data/safety/gates.json", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    assert!(
        fresh == BUILTIN_GATES,
        "data/safety/gates.json is out of date with rules.yaml (the screen still works, but works \
         the changed rules' gates out at every start). Regenerate it: \
         VIBE_UPDATE_GATES=1 cargo test -p vibe-core safety::gate_tests"
    );
}

#[test]
fn every_builtin_regex_compiles() {
    for pattern in joined_patterns(BUILTIN_RULES).unwrap() {
        regex::Regex::new(&pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
    }
}

/// Every message of the labelled sets this test may read (the blind sets 3 and 4 are kept
/// apart: their lines are never read by anything but their own measurement; the first blind
/// set became a tuning set in round I).
fn labelled_messages() -> Vec<String> {
    let root = format!("{}/../../tests/safety", env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in
        ["", "heldout", "heldout2", "fresh", "tuning2", "tuning3", "tuning4", "tuning5", "blind"]
    {
        for lang in ["zh", "en"] {
            files.push(format!("{root}/{dir}/{lang}.tsv"));
        }
    }
    let mut messages = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        messages.extend(
            text.lines()
                .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
                .filter_map(|line| line.rsplit('\t').next().map(str::to_string)),
        );
    }
    messages
}

#[test]
fn gated_screening_agrees_with_running_every_rule() {
    let gated = RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap();
    let every = RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap().without_gates();
    let messages = labelled_messages();
    assert!(messages.len() > 2_000, "only {} labelled messages found", messages.len());
    for message in &messages {
        assert_eq!(gated.screen(message), every.screen(message), "{message}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// Messages stitched from pieces of labelled ones (so rule words, negations and guards meet
    /// in new orders) get the same verdict gated and ungated.
    #[test]
    fn gated_screening_agrees_on_stitched_messages(
        picks in prop::collection::vec((0usize..10_000, 0usize..64, 1usize..48), 1..4)
    ) {
        thread_local! {
            static SETS: (Vec<String>, RuleSet, RuleSet) = (
                labelled_messages(),
                RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap(),
                RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap().without_gates(),
            );
        }
        SETS.with(|(messages, gated, every)| {
            let mut text = String::new();
            for (which, from, len) in &picks {
                let chars: Vec<char> = messages[which % messages.len()].chars().collect();
                let from = from % chars.len().max(1);
                text.extend(chars.iter().skip(from).take(*len));
                text.push(' ');
            }
            prop_assert_eq!(gated.screen(&text), every.screen(&text), "{}", text);
            Ok(())
        })?;
    }
}

#[test]
fn a_plain_message_compiles_only_a_few_rules() {
    let rules = RuleSet::parse(BUILTIN_RULES, "rules.yaml").unwrap();
    for message in ["你好，今天过得怎么样？", "I had a good day at work, thanks for asking"]
    {
        rules.screen(message);
    }
    let compiled = rules.rules.iter().filter(|rule| rule.pattern.is_compiled()).count();
    assert!(
        compiled * 10 <= rules.rules.len(),
        "{compiled} of {} rules compiled for two plain messages",
        rules.rules.len()
    );
    // A risky message still compiles and fires its rule.
    assert_eq!(rules.screen("我不想活了").risk, super::Risk::Acute);
}

#[test]
fn a_rule_the_table_does_not_know_gets_its_gate_at_parse() {
    let yaml = "rules:\n  - id: t.one\n    category: suicide\n    risk: acute\n    patterns: ['我想(死|消失)']\n";
    let rules = RuleSet::parse(yaml, "custom.yaml").unwrap();
    assert_eq!(
        rules.rules[0].pattern.gate,
        Some(vec!["我想死".to_string(), "我想消失".to_string()])
    );
    assert_eq!(joined_pattern(&["我想(死|消失)".to_string()]), "(?:我想(死|消失))");
    assert_eq!(rules.screen("我想消失").risk, super::Risk::Acute);
    assert_eq!(rules.screen("你好").risk, super::Risk::None);
}
