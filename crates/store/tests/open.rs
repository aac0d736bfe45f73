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

/// A copy of a real database with some data, checkpointed so the main file is whole.
fn filled_copy(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("vibe.db");
    {
        let store = Store::open(&path).unwrap();
        for n in 0..200 {
            let entry = serde_json::json!({"text": format!("entry {n} {}", "x".repeat(200))});
            store.append_to_list("local", "lifecoach", "journal", entry, 1000).unwrap();
        }
    }
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;").unwrap();
    drop(conn);
    let copy = dir.join("copy.db");
    std::fs::copy(&path, &copy).unwrap();
    copy
}

#[test]
fn an_empty_truncated_or_flipped_file_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let good = filled_copy(dir.path());
    let whole = bytes(&good);
    assert!(Store::open(&good).unwrap().integrity_check().unwrap().is_empty());
    std::fs::write(&good, &whole).unwrap();

    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "empty (0 bytes)"),
        ("truncated", whole[..whole.len() / 2].to_vec(), "truncated"),
        ("short", whole[..60].to_vec(), "shorter than a database header"),
        (
            "header",
            [b"NotSQLite format".as_slice(), &whole[16..]].concat(),
            "not an SQLite database",
        ),
    ];
    for (name, content, expected) in cases {
        let path = dir.path().join(format!("{name}.db"));
        std::fs::write(&path, &content).unwrap();
        let err = Store::open(&path).err().unwrap_or_else(|| panic!("{name}: opened"));
        assert_eq!(err.kind().as_str(), "damaged_database", "{name}: {err}");
        let msg = err.to_string();
        assert!(msg.contains(expected) && msg.contains("Nothing was written"), "{name}: {msg}");
        assert!(msg.contains("move"), "{name}: no way to restore in: {msg}");
        assert_eq!(bytes(&path), content, "{name}: the file was changed");
    }

    // Bytes flipped inside the data pages: the open may succeed, the full check finds it.
    let mut flipped = whole.clone();
    let page = usize::from(u16::from_be_bytes([whole[16], whole[17]]));
    for start in (page..whole.len()).step_by(page) {
        for b in &mut flipped[start..start + 12] {
            *b = !*b;
        }
    }
    let path = dir.path().join("flipped.db");
    std::fs::write(&path, &flipped).unwrap();
    match Store::open(&path) {
        Err(e) => assert_eq!(e.kind().as_str(), "damaged_database", "{e}"),
        Ok(store) => {
            let found = store.integrity_check().unwrap();
            assert!(!found.is_empty(), "flipped bytes went unnoticed");
        }
    }
}

#[test]
fn a_session_that_did_not_close_gets_a_quick_check_at_the_next_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let dirty = dir.path().join("vibe.db.dirty");
    {
        let store = Store::open(&path).unwrap();
        let conversation = store.create_conversation("local", None).unwrap();
        // Larger than the size checked at every open.
        for n in 0..800 {
            let text = format!("message {n} {}", "今天完成了晨跑".repeat(40));
            store
                .append_message(
                    &conversation.id,
                    vibe_store::NewMessage::text(vibe_store::Role::User, text),
                )
                .unwrap();
        }
        assert!(dirty.exists(), "marked in use while open");
        let second = Store::open(&path).unwrap();
        drop(store);
        assert!(dirty.exists(), "still in use by the second store");
        drop(second);
    }
    assert!(!dirty.exists(), "the last store to close marks a clean close");

    // Damage the page holding message 200 (message rows: nothing opening reads them).
    let mut content = bytes(&path);
    assert!(content.len() as u64 > vibe_store::QUICK_CHECK_ALWAYS_BYTES, "{}", content.len());
    let page = usize::from(u16::from_be_bytes([content[16], content[17]]));
    let needle = "message 200 今天".as_bytes();
    let at = content.windows(needle.len()).position(|w| w == needle).expect("message 200 stored");
    let start = at / page * page;
    for b in &mut content[start + 8..start + 72] {
        *b = 0xff;
    }
    std::fs::write(&path, &content).unwrap();

    // After a clean close the open of a large file stays cheap: no check, the file opens.
    drop(Store::open(&path).unwrap());
    assert_eq!(bytes(&path), content, "nothing written to the damaged file");

    // As a crash leaves it: the marker is there and nobody holds the file.
    std::fs::write(&dirty, b"").unwrap();
    let err = Store::open(&path).err().expect("the quick check refuses the damaged file");
    assert_eq!(err.kind().as_str(), "damaged_database", "{err}");
    let msg = err.to_string();
    assert!(msg.contains("ended without closing it, and SQLite's quick check finds"), "{msg}");
    assert!(msg.contains("Nothing was written") && msg.contains("move"), "{msg}");
    assert_eq!(bytes(&path), content, "the refused file was left as it is");
    assert!(dirty.exists(), "still unchecked-clean: the next open checks again");

    // A sound file after a crash opens after its check.
    let other = tempfile::tempdir().unwrap();
    let sound = other.path().join("vibe.db");
    drop(Store::open(&sound).unwrap());
    std::fs::write(other.path().join("vibe.db.dirty"), b"").unwrap();
    drop(Store::open(&sound).unwrap());
    assert!(!other.path().join("vibe.db.dirty").exists());
}

#[test]
fn a_wrong_passphrase_leaves_no_marker_and_the_files_beside_the_database_are_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let key = vibe_store::DbKey::passphrase("the right one");
    drop(Store::open_with_key(&path, &key).unwrap());
    let dirty = dir.path().join("vibe.db.dirty");
    assert!(!dirty.exists(), "a clean close");

    let err = Store::open_with_key(&path, &vibe_store::DbKey::passphrase("a guess")).err();
    assert_eq!(err.map(|e| e.kind().as_str()), Some("wrong_key"));
    assert!(!dirty.exists(), "a refused open leaves no session marker behind");

    // A crash's marker stays through a refused open: the next real open still checks.
    std::fs::write(&dirty, b"").unwrap();
    assert!(Store::open_with_key(&path, &vibe_store::DbKey::passphrase("a guess")).is_err());
    assert!(dirty.exists());

    let store = Store::open_with_key(&path, &key).unwrap();
    for name in ["vibe.db.dirty", "vibe.db.inuse", "vibe.db.lock"] {
        let mode = std::fs::metadata(dir.path().join(name)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{name} is {:o}", mode & 0o777);
    }
    drop(store);
}

#[test]
fn closing_a_store_that_stays_shared_marks_a_clean_end_and_refuses_later_writes() {
    // The desktop app's exit ends the process while threads still hold the store: `close`
    // must say the session ended cleanly without waiting for the last holder to drop it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let dirty = dir.path().join("vibe.db.dirty");
    let store = std::sync::Arc::new(Store::open(&path).unwrap());
    let held = std::sync::Arc::clone(&store);
    let conversation = store.create_conversation("local", None).unwrap();
    assert!(dirty.exists(), "marked in use while open");

    store.close();
    assert!(!dirty.exists(), "closed cleanly although another holder keeps the store");
    let err = held.create_conversation("local", None).expect_err("no write after close");
    assert!(matches!(err, StoreError::ShuttingDown), "{err}");
    assert!(err.to_string().contains("shutting down"), "{err}");
    // The process ends here without dropping the holders.
    std::mem::forget(held);
    std::mem::forget(store);

    // The next start finds a clean end and everything written before the close.
    let reopened = Store::open(&path).unwrap();
    assert_eq!(reopened.list_conversations("local").unwrap().len(), 1);
    assert_eq!(reopened.list_conversations("local").unwrap()[0].id, conversation.id);
}
