use serde_json::json;
use vibe_store::{LOCAL_USER as U, StateStatus};

use crate::{lifecoach, temp_store};

#[test]
fn read_state_is_empty_before_anything_is_written() {
    let (_d, store) = temp_store();
    let read = store.read_state(U, "lifecoach", None).unwrap();
    assert_eq!(read.status, StateStatus::Empty);
    assert_eq!(read.data, json!({}));
}

#[test]
fn write_state_deep_merges_and_null_removes() {
    let (_d, store) = temp_store();
    store
        .write_state(
            U,
            "lifecoach",
            "goals",
            json!({"q1": {"title": "10k", "done": false}, "q2": "read"}),
        )
        .unwrap();
    store
        .write_state(U, "lifecoach", "goals", json!({"q1": {"done": true}, "q2": null, "q3": [1]}))
        .unwrap();
    let goals = &lifecoach(&store)["goals"];
    assert_eq!(goals, &json!({"q1": {"title": "10k", "done": true}, "q3": [1]}));
}

#[test]
fn write_state_replaces_non_objects_inside_sections() {
    let (_d, store) = temp_store();
    store.write_state(U, "career", "resume", json!({"skills": ["rust"], "years": 3})).unwrap();
    store.write_state(U, "career", "resume", json!({"skills": ["go"]})).unwrap();
    let doc = store.profile(U).unwrap();
    assert_eq!(doc["skills"]["career"]["resume"], json!({"skills": ["go"], "years": 3}));
}

#[test]
fn every_write_stamps_meta_updated_at() {
    let (_d, store) = temp_store();
    store.write_state(U, "lifecoach", "goals", json!({"a": 1})).unwrap();
    let first = lifecoach(&store)["_meta"]["updated_at"].as_str().unwrap().to_string();
    assert!(first.ends_with('Z') && first.contains('T'), "{first}");
    std::thread::sleep(std::time::Duration::from_millis(5));
    store.append_to_list(U, "lifecoach", "journal", json!({"t": "x"}), 100).unwrap();
    let second = lifecoach(&store)["_meta"]["updated_at"].as_str().unwrap().to_string();
    assert!(second > first, "{second} should be after {first}");
}

#[test]
fn read_state_filters_sections() {
    let (_d, store) = temp_store();
    store.write_state(U, "lifecoach", "goals", json!({"a": 1})).unwrap();
    store.write_state(U, "lifecoach", "north_star", json!({"v": "free"})).unwrap();
    let read = store.read_state(U, "lifecoach", Some(&["goals".to_string()])).unwrap();
    assert_eq!(read.status, StateStatus::Success);
    assert_eq!(read.data, json!({"goals": {"a": 1}}));
    let none = store.read_state(U, "lifecoach", Some(&["missing".to_string()])).unwrap();
    assert_eq!(none.status, StateStatus::Empty);
}

#[test]
fn append_puts_newest_first_with_created_at_and_creates_parents() {
    let (_d, store) = temp_store();
    store.append_to_list(U, "lifecoach", "progress.milestones", json!({"n": 1}), 100).unwrap();
    store.append_to_list(U, "lifecoach", "progress.milestones", json!({"n": 2}), 100).unwrap();
    let list = lifecoach(&store)["progress"]["milestones"].as_array().unwrap().clone();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["n"], 2);
    assert_eq!(list[1]["n"], 1);
    assert!(list[0]["_created_at"].as_str().unwrap().ends_with('Z'));
}

#[test]
fn append_trims_the_oldest_beyond_max_items() {
    let (_d, store) = temp_store();
    for n in 0..5 {
        store.append_to_list(U, "lifecoach", "journal", json!({"n": n}), 3).unwrap();
    }
    let list = lifecoach(&store)["journal"].as_array().unwrap().clone();
    let ns: Vec<i64> = list.iter().map(|e| e["n"].as_i64().unwrap()).collect();
    assert_eq!(ns, vec![4, 3, 2]);
}

#[test]
fn append_under_a_non_list_is_refused_and_changes_nothing() {
    let (_d, store) = temp_store();
    store
        .write_state(U, "lifecoach", "progress", json!({"milestones": {"not": "a list"}}))
        .unwrap();
    let before = store.profile(U).unwrap();
    let err = store
        .append_to_list(U, "lifecoach", "progress.milestones", json!({"n": 1}), 10)
        .unwrap_err();
    assert!(err.to_string().contains("not a list"), "{err}");
    assert_eq!(store.profile(U).unwrap(), before);
}

#[test]
fn bad_inputs_are_refused_with_specific_messages() {
    let (_d, store) = temp_store();
    let cases = [
        store.write_state(U, "Life Coach", "goals", json!({})).unwrap_err().to_string(),
        store.write_state(U, "lifecoach", "goals", json!([1, 2])).unwrap_err().to_string(),
        store.write_state(U, "lifecoach", "_meta", json!({})).unwrap_err().to_string(),
        store.append_to_list(U, "lifecoach", "a..b", json!({}), 10).unwrap_err().to_string(),
        store.append_to_list(U, "lifecoach", "journal", json!("text"), 10).unwrap_err().to_string(),
        store.append_to_list(U, "lifecoach", "journal", json!({}), 0).unwrap_err().to_string(),
    ];
    assert!(cases[0].contains("invalid skill id \"Life Coach\""), "{}", cases[0]);
    assert!(
        cases[1].contains("must be a JSON object") && cases[1].contains("a list"),
        "{}",
        cases[1]
    );
    assert!(cases[2].contains("reserved"), "{}", cases[2]);
    assert!(cases[3].contains("empty segment"), "{}", cases[3]);
    assert!(cases[4].contains("entry must be a JSON object"), "{}", cases[4]);
    assert!(cases[5].contains("at least 1"), "{}", cases[5]);
    assert_eq!(store.profile(U).unwrap(), vibe_store_empty());
}

fn vibe_store_empty() -> serde_json::Value {
    json!({"account": {}, "birth_info": {}, "preferences": {}, "state": {}, "skills": {}, "extracted": {}})
}

#[test]
fn an_inline_list_from_an_import_keeps_its_entries_when_appended_to() {
    let (_d, store) = temp_store();
    store
        .import_profile(U, json!({"skills": {"lifecoach": {"journal": [{"n": 2}, {"n": 1}]}}}))
        .unwrap();
    store.append_to_list(U, "lifecoach", "journal", json!({"n": 3}), 100).unwrap();
    let ns: Vec<i64> = lifecoach(&store)["journal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["n"].as_i64().unwrap())
        .collect();
    assert_eq!(ns, vec![3, 2, 1]);
}

#[test]
fn replacing_a_lists_parent_drops_the_list() {
    let (_d, store) = temp_store();
    store.append_to_list(U, "lifecoach", "progress.milestones", json!({"n": 1}), 100).unwrap();
    store.write_state(U, "lifecoach", "progress", json!({"streak": 3})).unwrap();
    assert_eq!(
        lifecoach(&store)["progress"]["milestones"].as_array().unwrap().len(),
        1,
        "a merge beside it keeps it"
    );
    store.write_state(U, "lifecoach", "progress", json!({"milestones": null})).unwrap();
    assert_eq!(lifecoach(&store)["progress"], json!({"streak": 3}));
    store.append_to_list(U, "lifecoach", "progress.milestones", json!({"n": 2}), 100).unwrap();
    assert_eq!(
        lifecoach(&store)["progress"]["milestones"].as_array().unwrap().len(),
        1,
        "a new list starts empty"
    );
}

/// Nothing written can make a skill's state unreadable: each bound refuses with its limit
/// named, changes nothing, and what was there still reads back.
#[test]
fn writes_past_the_bounds_are_refused_and_the_state_stays_readable() {
    let (_d, store) = temp_store();
    store.append_to_list(U, "lifecoach", "journal", json!({"text": "kept"}), 10).unwrap();
    let long_path = vec!["a"; 130].join(".");
    let err = store
        .append_to_list(U, "lifecoach", &long_path, json!({"t": 1}), 10)
        .unwrap_err()
        .to_string();
    assert!(err.contains("130 segments") && err.contains("limit is 16"), "{err}");
    let mut deep = json!(1);
    for _ in 0..100 {
        deep = json!({ "x": deep });
    }
    let err = store.write_state(U, "lifecoach", "notes", deep.clone()).unwrap_err().to_string();
    assert!(err.contains("nested") && err.contains("limit is 48"), "{err}");
    let err = store
        .append_to_list(U, "lifecoach", "journal", json!({"deep": deep}), 10)
        .unwrap_err()
        .to_string();
    assert!(err.contains("limit is 48"), "{err}");
    let err = store
        .write_state(U, "lifecoach", "money", json!({"cents": 12_345_678_901_234_567u64}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("beyond ±2^53"), "{err}");
    let err = store.set_path(U, &format!("skills.lifecoach.{long_path}"), json!(1)).unwrap_err();
    assert!(err.to_string().contains("limit is 16"), "{err}");
    let read = store.read_state(U, "lifecoach", None).unwrap();
    assert_eq!(read.data["journal"][0]["text"], "kept");
    assert!(read.data.get("notes").is_none() && read.data.get("money").is_none());
}

/// A model's write and the tool result reporting it go in one transaction: when the result
/// cannot be stored (its conversation is gone), the write is not applied either, and its
/// undo step is not recorded.
#[test]
fn a_state_write_and_its_result_message_are_stored_together_or_not_at_all() {
    use vibe_store::{ChangeBy, HistoryTarget, NewMessage, Role, StateWrite};
    let (_d, store) = temp_store();
    let conversation = store.create_conversation(U, None).unwrap().id;
    let by = ChangeBy::Model { run_id: "run-1".into() };
    let result = |call: &str| NewMessage {
        tool_call_id: Some(call.into()),
        ..NewMessage::text(Role::Tool, r#"{"status":"success"}"#)
    };
    let write = StateWrite::new(U, "lifecoach", "goals", json!({"run": "5k"}), by.clone()).unwrap();
    assert_eq!((write.skill(), write.section()), ("lifecoach", "goals"));
    let stored =
        store.append_tool_result(&conversation, None, Some(&write), result("call_1")).unwrap();
    assert_eq!(store.messages(&conversation).unwrap().last().unwrap().id, stored.id);
    assert_eq!(lifecoach(&store)["goals"], json!({"run": "5k"}));

    let later = StateWrite::new(U, "lifecoach", "goals", json!({"run": "10k"}), by).unwrap();
    let err =
        store.append_tool_result("no-such-conversation", None, Some(&later), result("call_2"));
    assert!(err.is_err(), "a result for a missing conversation must be refused");
    assert_eq!(lifecoach(&store)["goals"], json!({"run": "5k"}), "the write must not be applied");
    let target = HistoryTarget::Skill("lifecoach".into());
    assert_eq!(store.state_history(U, &target, 10).unwrap().len(), 1);
    assert_eq!(store.messages(&conversation).unwrap().len(), 1);
}
