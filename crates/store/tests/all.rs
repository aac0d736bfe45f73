//! Integration tests of the store against real SQLite files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod crypt;
mod first_open;
mod history;
mod open;
mod profile;
mod runs;
mod skill_view;
mod standard_sqlcipher;
mod state;
mod state_model;

use serde_json::Value;
use vibe_store::Store;

pub fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("vibe.db")).unwrap();
    (dir, store)
}

pub fn lifecoach(store: &Store) -> Value {
    store.profile(vibe_store::LOCAL_USER).unwrap()["skills"]["lifecoach"].clone()
}
