//! Model-based test: random sequences of write_state / append_to_list / set_path against the
//! store (which keeps appended lists as separate rows) give the same document, and the same
//! accept/refuse verdicts, as a naive model working on one JSON value with the semantics of
//! docs/design.md#state-semantics.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use vibe_store::{LOCAL_USER as U, Store, deep_merge};

#[derive(Debug, Clone)]
enum Op {
    Write(&'static str, Value),
    Append(&'static str, usize),
    Set(&'static str, Value),
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        (0..5i64).prop_map(|n| json!(n)),
        Just(json!([7])),
        Just(json!({"k": 1}))
    ]
}

fn object() -> impl Strategy<Value = Value> {
    let key = prop_oneof![Just("l"), Just("x"), Just("y")];
    let inner = proptest::collection::btree_map(key.clone(), leaf(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()));
    proptest::collection::btree_map(key, prop_oneof![leaf(), inner], 0..3)
        .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect()))
}

fn op() -> impl Strategy<Value = Op> {
    let section = prop_oneof![Just("a"), Just("l")];
    let list = prop_oneof![Just("l"), Just("a.l"), Just("a.x.l"), Just("a")];
    let set = prop_oneof![
        Just("skills.s.a"),
        Just("skills.s.a.l"),
        Just("skills.s.a.l.z"),
        Just("skills.s.l")
    ];
    prop_oneof![
        (section, object()).prop_map(|(s, v)| Op::Write(s, v)),
        (list, 1..4usize).prop_map(|(p, n)| Op::Append(p, n)),
        (set, prop_oneof![leaf(), object()]).prop_map(|(p, v)| Op::Set(p, v)),
    ]
}

/// The naive model: one JSON object for the skill's state.
fn model_apply(state: &mut Value, op: &Op, counter: i64) -> bool {
    let mut next = state.clone();
    let ok = match op {
        Op::Write(section, data) => {
            let slot = next.as_object_mut().unwrap().entry(*section).or_insert_with(|| json!({}));
            deep_merge(slot, data.clone());
            true
        }
        Op::Append(path, max) => (|| {
            let segs: Vec<&str> = path.split('.').collect();
            let mut cur = &mut next;
            for s in &segs[..segs.len() - 1] {
                let map = cur.as_object_mut()?;
                cur = map.entry(s.to_string()).or_insert_with(|| json!({}));
            }
            let list = cur
                .as_object_mut()?
                .entry(segs[segs.len() - 1].to_string())
                .or_insert_with(|| json!([]));
            let items = list.as_array_mut()?;
            items.insert(0, json!({"n": counter}));
            items.truncate(*max);
            Some(())
        })()
        .is_some(),
        Op::Set(path, value) => (|| {
            let segs: Vec<&str> = path.split('.').skip(2).collect();
            let mut cur = &mut next;
            for s in &segs[..segs.len() - 1] {
                let map = cur.as_object_mut()?;
                cur = map.entry(s.to_string()).or_insert_with(|| json!({}));
            }
            let map = cur.as_object_mut()?;
            if value.is_null() {
                map.remove(segs[segs.len() - 1]);
            } else {
                map.insert(segs[segs.len() - 1].to_string(), value.clone());
            }
            Some(())
        })()
        .is_some(),
    };
    if ok {
        *state = next;
    }
    ok
}

fn strip(value: &Value) -> Value {
    match value {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.starts_with('_'))
                .map(|(k, v)| (k.clone(), strip(v)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip).collect()),
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn split_storage_matches_the_single_document_model(ops in proptest::collection::vec(op(), 1..12)) {
        let store = Store::open_in_memory().unwrap();
        let mut model = json!({});
        for (i, op) in ops.iter().enumerate() {
            let counter = i as i64;
            let stored = match op {
                Op::Write(section, data) => store.write_state(U, "s", section, data.clone()).is_ok(),
                Op::Append(path, max) => store.append_to_list(U, "s", path, json!({"n": counter}), *max).is_ok(),
                Op::Set(path, value) => store.set_path(U, path, value.clone()).is_ok(),
            };
            let modelled = model_apply(&mut model, op, counter);
            prop_assert_eq!(stored, modelled, "verdict differs at {:?}", op);
            let actual = store.profile(U).unwrap()["skills"].get("s").cloned().unwrap_or(json!({}));
            prop_assert_eq!(strip(&actual), strip(&model), "after {:?}", op);
        }
    }
}
