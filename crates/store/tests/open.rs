use std::path::Path;

use vibe_store::{Store, StoreError, latest_version, list_backups};

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

#[test]
fn a_file_from_a_newer_schema_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 99;",
        )
        .unwrap();
    }
    let before = bytes(&path);
    let err = Store::open(&path).err().expect("must refuse");
    assert!(matches!(err, StoreError::NewerSchema { found: 99, .. }), "{err}");
    let msg = err.to_string();
    assert!(msg.contains("schema version 99") && msg.contains("update VibeLife"), "{msg}");
    assert_eq!(bytes(&path), before, "the file must not change");
    assert!(list_backups(&path).is_empty());
}

#[test]
fn opening_a_file_with_foreign_tables_backs_it_up_before_migrating() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('keep me');")
            .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), latest_version());
    let backups = list_backups(&path);
    assert_eq!(backups.len(), 1, "{backups:?}");
    let old = rusqlite::Connection::open(&backups[0]).unwrap();
    let t: String = old.query_row("SELECT t FROM notes", [], |r| r.get(0)).unwrap();
    assert_eq!(t, "keep me");
}

#[test]
fn reopening_a_current_file_makes_no_backup_and_keeps_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    store.set_path("local", "account.display_name", serde_json::json!("Ann")).unwrap();
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.profile("local").unwrap()["account"]["display_name"], "Ann");
    assert!(list_backups(&path).is_empty());
    let mode: String = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
}

#[test]
fn in_memory_stores_work() {
    let store = Store::open_in_memory().unwrap();
    assert_eq!(store.schema_version().unwrap(), latest_version());
    assert!(store.path().is_none());
}
