//! Three data folders (SQLite files through the store's API) change every synced kind while
//! apart — messages, conversation deletions, profile writes, list appends and removals,
//! write_state values, protocol starts, memory additions, edits and forgets — then sync
//! through one folder target in a random order, and end with the same canonical dump. Each
//! device compacts its files into a snapshot once 1 to 3 of its batches follow the last one,
//! so devices read snapshots of batches they never saw, in the middle of it all.

use proptest::prelude::*;
use serde_json::{Value, json};
use vibe_store::{LOCAL_USER as U, MemoryChange, NewMessage, NewProtocolRun, Role, Store};
use vibe_wire::command::MemoryKind;

use super::devices::target;

const SKILL: &str = "coach";

#[derive(Debug, Clone)]
enum Step {
    NewConversation(usize),
    Message(usize, usize),
    DeleteConversation(usize, usize),
    Profile(usize, u8, u8),
    ListAdd(usize),
    ListRemove(usize, usize),
    WriteState(usize, u8),
    StartRun(usize),
    Remember(usize),
    EditMemory(usize, usize),
    Forget(usize, usize),
    Sync(usize),
}

fn step() -> impl Strategy<Value = Step> {
    let d = 0..3usize;
    prop_oneof![
        1 => d.clone().prop_map(Step::NewConversation),
        2 => (d.clone(), 0..4usize).prop_map(|(d, i)| Step::Message(d, i)),
        1 => (d.clone(), 0..4usize).prop_map(|(d, i)| Step::DeleteConversation(d, i)),
        2 => (d.clone(), 0..3u8, 0..4u8).prop_map(|(d, f, v)| Step::Profile(d, f, v)),
        2 => d.clone().prop_map(Step::ListAdd),
        1 => (d.clone(), 0..4usize).prop_map(|(d, i)| Step::ListRemove(d, i)),
        1 => (d.clone(), 0..3u8).prop_map(|(d, k)| Step::WriteState(d, k)),
        1 => d.clone().prop_map(Step::StartRun),
        1 => d.clone().prop_map(Step::Remember),
        1 => (d.clone(), 0..4usize).prop_map(|(d, i)| Step::EditMemory(d, i)),
        1 => (d.clone(), 0..4usize).prop_map(|(d, i)| Step::Forget(d, i)),
        2 => d.prop_map(Step::Sync),
    ]
}

/// A device: its data folder's database file, sync set up as `id`.
struct Folder {
    id: String,
    store: Store,
}

impl Folder {
    fn new(dir: &std::path::Path, id: &str) -> Self {
        let store = Store::open(&dir.join(format!("{id}.db"))).unwrap();
        store.sync_enable(id).unwrap();
        Self { id: id.into(), store }
    }

    fn conversations(&self) -> Vec<String> {
        let mut ids: Vec<String> =
            self.store.list_conversations(U).unwrap().into_iter().map(|c| c.id).collect();
        ids.sort();
        ids
    }

    fn do_step(&self, step: &Step, n: usize) {
        let s = &self.store;
        match *step {
            Step::NewConversation(_) => {
                s.create_conversation(U, Some(&format!("conversation {n}"))).unwrap();
            }
            Step::Message(_, i) => {
                let all = self.conversations();
                let id = match all.get(i) {
                    Some(id) => id.clone(),
                    None => s.create_conversation(U, None).unwrap().id,
                };
                s.append_message(&id, NewMessage::text(Role::User, format!("message {n}")))
                    .unwrap();
            }
            Step::DeleteConversation(_, i) => {
                if let Some(id) = self.conversations().get(i) {
                    s.delete_conversation(id).unwrap();
                }
            }
            Step::Profile(_, field, v) => {
                let (path, value) = match field {
                    0 => ("birth_info.place", json!(format!("city {v}"))),
                    1 => {
                        ("preferences.tone", json!({"style": format!("s{v}"), "emoji": v % 2 == 0}))
                    }
                    _ => ("preferences.tone.style", json!(format!("t{v}"))),
                };
                s.set_path(U, path, value).unwrap();
            }
            Step::ListAdd(_) => {
                s.append_to_list(U, SKILL, "journal", json!({"text": format!("entry {n}")}), 1000)
                    .unwrap();
            }
            Step::ListRemove(_, i) => {
                let journal = self.journal();
                if !journal.is_empty() {
                    let i = i % journal.len();
                    let at = journal[i]["_created_at"].as_str().unwrap().to_string();
                    s.remove_list_entry_by(U, SKILL, "journal", i, &at, &vibe_store::ChangeBy::Cli)
                        .unwrap();
                }
            }
            Step::WriteState(_, k) => {
                s.write_state(U, SKILL, "goals", json!({format!("g{k}"): n})).unwrap();
            }
            Step::StartRun(_) => {
                let id = format!("run-{n}");
                let now = format!("2026-03-01T10:{:02}:00Z", n % 60);
                let new = NewProtocolRun {
                    id: &id,
                    user: U,
                    skill: SKILL,
                    protocol_id: "reset",
                    protocol_version: 1,
                    total_steps: 3,
                    conversation_id: None,
                    model: None,
                    now: &now,
                };
                s.start_protocol_run(&new).unwrap();
            }
            Step::Remember(_) => {
                let conv = s.create_conversation(U, None).unwrap();
                let text = format!("fact {n}");
                let msg = s.append_message(&conv.id, NewMessage::text(Role::User, &text)).unwrap();
                let add = MemoryChange::Add {
                    kind: MemoryKind::Facts,
                    text,
                    confidence: 0.7,
                    sources: vec![msg.id],
                };
                s.apply_memory(U, &conv.id, msg.id, &[add]).unwrap();
            }
            Step::EditMemory(_, i) => {
                if let Some(id) = self.memory_ids().get(i) {
                    s.edit_memory_item(U, id, &format!("edited {n}")).unwrap();
                }
            }
            Step::Forget(_, i) => {
                if let Some(id) = self.memory_ids().get(i) {
                    s.forget_memory_item(U, id).unwrap();
                }
            }
            Step::Sync(_) => unreachable!("synced by the caller"),
        }
    }

    fn journal(&self) -> Vec<Value> {
        let read = self.store.read_state(U, SKILL, None).unwrap();
        read.data.get("journal").and_then(Value::as_array).cloned().unwrap_or_default()
    }

    fn memory_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> =
            self.store.memory_items(U, None).unwrap().into_iter().map(|m| m.id).collect();
        ids.sort();
        ids
    }

    /// Every synced kind, in a form that does not depend on local row ids or arrival order.
    fn dump(&self) -> Value {
        let s = &self.store;
        let conversations: Vec<Value> = self
            .conversations()
            .iter()
            .map(|id| {
                let c = s.conversation(id).unwrap();
                let mut messages: Vec<(String, String, String)> = s
                    .messages(id)
                    .unwrap()
                    .into_iter()
                    .map(|m| (m.created_at, m.role.as_str().to_string(), m.content))
                    .collect();
                messages.sort();
                json!({"id": c.id, "title": c.title, "messages": messages})
            })
            .collect();
        let mut profile = s.profile(U).unwrap();
        profile.as_object_mut().unwrap().remove("skills");
        let mut state = s.read_state(U, SKILL, None).unwrap().data;
        let state = state.as_object_mut().unwrap();
        state.remove("_meta");
        state.remove("protocol");
        let memory: Vec<Value> = s
            .memory_items(U, None)
            .unwrap()
            .into_iter()
            .map(|m| json!([m.id, m.text, m.edited]))
            .collect();
        let mut memory = memory;
        memory.sort_by_key(|v| v.to_string());
        let mut runs: Vec<Value> = s
            .protocol_runs(U, Some(SKILL))
            .unwrap()
            .into_iter()
            .map(|r| json!([r.id, r.status, r.step]))
            .collect();
        runs.sort_by_key(|v| v.to_string());
        json!({
            "conversations": conversations,
            "profile": profile,
            "state": state,
            "memory": memory,
            "forgotten": s.forgotten_memory_count(U).unwrap(),
            "runs": runs,
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn three_data_folders_converge_on_every_kind_after_changes_apart(
        steps in prop::collection::vec(step(), 1..30),
        order in Just(vec![0usize, 1, 2]).prop_shuffle(),
        compact_after in 1u64..4,
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let (_target_dir, target, key) = target().await;
            let data = tempfile::tempdir().unwrap();
            let folders = [
                Folder::new(data.path(), "dev-a"),
                Folder::new(data.path(), "dev-b"),
                Folder::new(data.path(), "dev-c"),
            ];
            for (n, s) in steps.iter().enumerate() {
                let d = match *s {
                    Step::NewConversation(d) | Step::Message(d, _) | Step::DeleteConversation(d, _)
                    | Step::Profile(d, _, _) | Step::ListAdd(d) | Step::ListRemove(d, _)
                    | Step::WriteState(d, _) | Step::StartRun(d) | Step::Remember(d)
                    | Step::EditMemory(d, _) | Step::Forget(d, _) | Step::Sync(d) => d,
                };
                if let Step::Sync(_) = s {
                    let f = &folders[d];
                    let report = vibe_sync::sync_now_with(&f.store, &target, &key, Some(&f.id), compact_after).await.unwrap();
                    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
                } else {
                    folders[d].do_step(s, n);
                }
            }
            for &d in order.iter().chain(order.iter()) {
                let f = &folders[d];
                let report = vibe_sync::sync_now_with(&f.store, &target, &key, Some(&f.id), compact_after).await.unwrap();
                assert!(report.skipped.is_empty(), "{:?}", report.skipped);
            }
            let first = folders[0].dump();
            for f in &folders[1..] {
                assert_eq!(f.dump(), first, "{} differs from {}", f.id, folders[0].id);
            }
        });
    }
}
