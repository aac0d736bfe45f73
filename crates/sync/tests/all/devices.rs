//! Test devices: a store with sync set up, the journal ops a person makes, one sync run.

use serde_json::{Value, json};
use vibe_store::{AppendCap, ChangeBy, LOCAL_USER as U, Store};
use vibe_sync::{DalTarget, SyncKey, SyncReport};

pub const SKILL: &str = "lifecoach";
pub const LIST: &str = "journal";

pub struct Device {
    pub id: String,
    pub store: Store,
}

impl Device {
    /// A device with sync set up as `id` (its store in memory).
    pub fn new(id: &str) -> Self {
        let store = Store::open_in_memory().unwrap();
        store.sync_enable(id).unwrap();
        Self { id: id.into(), store }
    }

    /// A device whose store already holds data before sync is set up.
    pub fn with_store(id: &str, store: Store) -> Self {
        store.sync_enable(id).unwrap();
        Self { id: id.into(), store }
    }

    pub fn add(&self, text: &str) {
        self.store
            .append_to_list_by(
                U,
                SKILL,
                LIST,
                json!({"text": text}),
                AppendCap::NONE,
                &ChangeBy::Cli,
            )
            .unwrap();
    }

    /// The journal, newest first.
    pub fn journal(&self) -> Vec<Value> {
        let read = self.store.read_state(U, SKILL, None).unwrap();
        read.data.get(LIST).and_then(Value::as_array).cloned().unwrap_or_default()
    }

    pub fn texts(&self) -> Vec<String> {
        self.journal().iter().map(|e| e["text"].as_str().unwrap_or("").to_string()).collect()
    }

    fn created_at(&self, index: usize) -> String {
        self.journal()[index]["_created_at"].as_str().unwrap().to_string()
    }

    /// Edit the entry whose text is `text`.
    pub fn edit(&self, text: &str, new: &str) {
        let index = self.texts().iter().position(|t| t == text).unwrap();
        self.edit_at(index, new);
    }

    pub fn edit_at(&self, index: usize, new: &str) {
        let at = self.created_at(index);
        self.store.edit_list_entry(U, SKILL, LIST, index, &at, json!({"text": new})).unwrap();
    }

    /// Delete the entry whose text is `text`.
    pub fn delete(&self, text: &str) {
        let index = self.texts().iter().position(|t| t == text).unwrap();
        self.delete_at(index);
    }

    pub fn delete_at(&self, index: usize) {
        let at = self.created_at(index);
        self.store.remove_list_entry_by(U, SKILL, LIST, index, &at, &ChangeBy::Cli).unwrap();
    }

    pub async fn sync(&self, target: &DalTarget, key: &SyncKey) -> SyncReport {
        vibe_sync::sync_now(&self.store, target, key, Some(&self.id)).await.unwrap()
    }
}

/// A folder target in a temporary folder, set up with a new key.
pub async fn target() -> (tempfile::TempDir, DalTarget, SyncKey) {
    let dir = tempfile::tempdir().unwrap();
    let target = DalTarget::folder(dir.path()).unwrap();
    let key = SyncKey::generate().unwrap();
    vibe_sync::setup(&target, &key).await.unwrap();
    (dir, target, key)
}

/// Every file under `dir`, with its bytes.
pub fn files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                todo.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                out.push((path, bytes));
            }
        }
    }
    out.sort();
    out
}
