//! The data folder v0.1.0 made (`tests/fixtures/v0.1.0/`, written once by
//! `scripts/make-v010-fixture.sh` with that release's `vibe`): a copy of it in a test's own
//! folder, and the manifest of what it holds (`expected.json`). Only copies and reads; what
//! opening it must keep is the tests' to say. The committed folder is never opened in place
//! (opening migrates it and writes a backup beside it).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The fixture folder in the repository.
pub fn v010_fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/v0.1.0")
}

/// The fixture's manifest (`expected.json`): what v0.1.0's `vibe --json` showed of the folder
/// (`passphrase`, `schema_version`, `conversations` with every message, `journal`, `goals`,
/// `current`, `protocol_runs`, `memory`, `profile`).
///
/// # Panics
/// When the manifest cannot be read or is not JSON.
pub fn v010_manifest() -> Value {
    let path = v010_fixture_dir().join("expected.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// A copy of the fixture's data folder at `to` (made when missing), files and folders as
/// committed.
///
/// # Panics
/// When a file cannot be copied.
pub fn copy_v010_data(to: &Path) {
    copy_tree(&v010_fixture_dir().join("data"), to);
}

fn copy_tree(from: &Path, to: &Path) {
    let made = std::fs::create_dir_all(to);
    made.unwrap_or_else(|e| panic!("cannot make {}: {e}", to.display()));
    let entries =
        std::fs::read_dir(from).unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", from.display()));
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            copy_tree(&source, &target);
        } else if let Err(e) = std::fs::copy(&source, &target) {
            panic!("cannot copy {} to {}: {e}", source.display(), target.display());
        }
    }
}

/// A message (a `ChatMessage` as JSON, today's or v0.1.0's) as the manifest records it: id,
/// role, content, run id, its tool calls' names, the tool call it answers.
pub fn v010_recorded_message(message: &Value) -> Value {
    let m = message;
    let mut out = serde_json::json!({
        "id": m["id"], "role": m["role"], "content": m["content"], "run_id": m["run_id"],
    });
    if let Some(calls) = m["tool_calls"].as_array().filter(|c| !c.is_empty()) {
        out["tool_calls"] = calls.iter().map(|c| c["name"].clone()).collect();
    }
    if let Some(id) = m["tool_call_id"].as_str() {
        out["tool_call_id"] = Value::from(id);
    }
    out
}
