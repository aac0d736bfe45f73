//! Reading extraction answers: good ones become changes, every kind of bad one is refused.

use std::collections::HashSet;

use vibe_store::{MemoryChange, MemoryItem};
use vibe_wire::command::MemoryKind;

use super::parse_answer;

fn item(id: &str, kind: &str) -> MemoryItem {
    MemoryItem {
        id: id.into(),
        kind: MemoryKind::from_name(kind).unwrap(),
        text: "x".into(),
        confidence: 0.5,
        first_seen: "t".into(),
        last_seen: "t".into(),
        edited: false,
        history: Vec::new(),
        sources: Vec::new(),
        updated_at: "t".into(),
    }
}

#[test]
fn a_good_answer_in_a_code_fence_becomes_adds_merges_and_replacements() {
    let sources: HashSet<i64> = [3, 5].into();
    let items = [item("abc1", "facts"), item("abc2", "goals")];
    let text = "```json\n{\"items\": [
        {\"kind\": \"facts\", \"text\": \" 在杭州 \", \"confidence\": 0.9, \"sources\": [3]},
        {\"kind\": \"facts\", \"text\": \"same\", \"sources\": [5], \"same_as\": \"abc1\", \"replaces\": null},
        {\"kind\": \"goals\", \"text\": \"new goal\", \"confidence\": 0.7, \"sources\": [3, 5], \"replaces\": \"abc2\"}
    ]}\n```";
    let changes = parse_answer(text, &sources, &items).unwrap();
    assert_eq!(
        changes,
        vec![
            MemoryChange::Add {
                kind: MemoryKind::Facts,
                text: "在杭州".into(),
                confidence: 0.9,
                sources: vec![3]
            },
            MemoryChange::Merge { id: "abc1".into(), confidence: 0.6, sources: vec![5] },
            MemoryChange::Replace {
                id: "abc2".into(),
                text: "new goal".into(),
                confidence: 0.7,
                sources: vec![3, 5]
            },
        ]
    );
    assert_eq!(parse_answer("{\"items\": []}", &sources, &items).unwrap(), vec![]);
}

#[test]
fn every_bad_answer_is_refused_with_what_is_wrong() {
    let sources: HashSet<i64> = [3].into();
    let items = [item("abc1", "facts")];
    let cases = [
        ("not json", "not the expected JSON"),
        ("{\"items\": [], \"mood\": 1}", "unknown field `mood`"),
        (
            "{\"items\": [{\"kind\": \"facts\", \"text\": \"x\", \"sources\": [3], \"why\": \"\"}]}",
            "unknown field `why`",
        ),
        (
            "{\"items\": [{\"kind\": \"moods\", \"text\": \"x\", \"sources\": [3]}]}",
            "kind \"moods\"",
        ),
        ("{\"items\": [{\"kind\": \"facts\", \"text\": \"x\"}]}", "no source"),
        (
            "{\"items\": [{\"kind\": \"facts\", \"text\": \"x\", \"sources\": [4]}]}",
            "cites message 4",
        ),
        ("{\"items\": [{\"kind\": \"facts\", \"text\": \"  \", \"sources\": [3]}]}", "no text"),
        (
            "{\"items\": [{\"kind\": \"facts\", \"text\": \"x\", \"sources\": [3], \"confidence\": 2}]}",
            "confidence 2",
        ),
        (
            "{\"items\": [{\"kind\": \"facts\", \"text\": \"x\", \"sources\": [3], \"same_as\": \"zzz\"}]}",
            "not one of the listed items",
        ),
        (
            "{\"items\": [{\"kind\": \"goals\", \"text\": \"x\", \"sources\": [3], \"same_as\": \"abc1\"}]}",
            "of kind facts",
        ),
        (
            "{\"items\": [{\"kind\": \"facts\", \"text\": \"x\", \"sources\": [3], \"same_as\": \"abc1\", \"replaces\": \"abc1\"}]}",
            "both",
        ),
    ];
    for (text, expected) in cases {
        let err = parse_answer(text, &sources, &items).unwrap_err().to_string();
        assert!(err.contains(expected), "{text}: {err}");
    }
}
