//! Tests of what `lib.rs` owns: write transactions, storage errors (full disk, read-only),
//! the quick check at open and damage found at runtime.

use super::*;

fn conversations(store: &Store) -> i64 {
    store.conn().query_row("SELECT count(*) FROM conversations", [], |r| r.get(0)).unwrap()
}

#[test]
fn a_failed_write_transaction_leaves_nothing_and_the_next_one_works() {
    let store = Store::open_in_memory().unwrap();
    let insert = |tx: &Connection, id: &str| {
        tx.execute(
            "INSERT INTO conversations (id, user_id, created_at, updated_at) VALUES (?1, 'local', 't', 't')",
            [id],
        )
    };
    let failed: Result<()> = store.write_tx(|tx| {
        insert(tx, "a")?;
        Err(StoreError::invalid("refused halfway"))
    });
    assert!(failed.is_err());
    assert_eq!(conversations(&store), 0, "the first insert was rolled back");
    // A statement error inside also rolls back, and the connection stays usable.
    let failed = store.write_tx(|tx| {
        insert(tx, "b")?;
        insert(tx, "b")?;
        Ok(())
    });
    assert!(failed.unwrap_err().to_string().contains("UNIQUE"));
    assert_eq!(conversations(&store), 0);
    store.write_tx(|tx| Ok(insert(tx, "c")?)).unwrap();
    assert_eq!(conversations(&store), 1);
}

#[test]
fn a_full_disk_or_a_read_only_file_is_one_clear_error_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q1": "run"})).unwrap();
    let before = store.read_state(LOCAL_USER, "coach", None).unwrap();
    let history = store.state_history(LOCAL_USER, &HistoryTarget::Skill("coach".into()), 10);
    {
        // The file may not grow: SQLite says SQLITE_FULL, as on a full disk.
        store.cap_growth(0).unwrap();
    }
    let big = serde_json::json!({"text": "很长的日记".repeat(20_000)});
    let err = store.write_state(LOCAL_USER, "coach", "journal", big).unwrap_err();
    assert_eq!(err.kind().as_str(), "storage", "{err}");
    let msg = err.to_string();
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(
        msg.contains("disk full: the disk is full")
            && msg.contains("Nothing of this change was saved"),
        "{msg}"
    );
    // What to free.
    assert!(msg.contains("backups/") && msg.contains("vibe models rm"), "{msg}");
    assert_eq!(store.read_state(LOCAL_USER, "coach", None).unwrap(), before);
    assert_eq!(
        store.state_history(LOCAL_USER, &HistoryTarget::Skill("coach".into()), 10).unwrap(),
        history.unwrap()
    );

    store.conn().execute_batch("PRAGMA query_only = ON").unwrap();
    let err =
        store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q2": 1})).unwrap_err();
    assert!(matches!(err, StoreError::Storage { cause: StorageCause::ReadOnly, .. }), "{err}");
    assert!(err.to_string().contains("read-only"), "{err}");
    store.conn().execute_batch("PRAGMA query_only = OFF").unwrap();
    store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q2": 1})).unwrap();
}

/// Flips the page-type byte of `table`'s root page in the closed file at `path`.
fn break_table(path: &Path, table: &str) {
    let conn = Connection::open(path).unwrap();
    let root: i64 = conn
        .query_row("SELECT rootpage FROM sqlite_schema WHERE name = ?1", [table], |r| r.get(0))
        .unwrap();
    let page_size: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
    drop(conn);
    let mut bytes = std::fs::read(path).unwrap();
    let at = ((root - 1) * page_size) as usize;
    bytes[at] ^= 0xff;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_database_names_the_newest_backup_file_and_the_command_restoring_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q1": "run"})).unwrap();
    drop(store);
    let backups = dir.path().join("backups");
    std::fs::create_dir(&backups).unwrap();
    let older = backups.join("vibelife-20260301T080000.000Z.tar");
    let newer = backups.join("auto-20260101T080000.000Z.tar");
    let day = std::time::Duration::from_secs(86_400);
    for (file, age) in [(&older, 2 * day), (&newer, day)] {
        let f = std::fs::File::create(file).unwrap();
        f.set_modified(std::time::SystemTime::now() - age).unwrap();
    }
    std::fs::write(backups.join("notes.txt"), "not a backup").unwrap();
    break_table(&path, "skill_states");

    let store = Store::open_checking(&path, &DbKey::Clear, 0).unwrap();
    let err = store
        .write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q2": "swim"}))
        .unwrap_err();
    let msg = err.to_string();
    assert!(!msg.contains("no backup beside it"), "{msg}");
    assert!(msg.contains(&format!("The newest backup is {}", newer.display())), "{msg}");
    let command =
        format!("vibe --data-dir {} backup restore {}", dir.path().display(), newer.display());
    assert!(msg.contains(&command), "{msg}");
}

#[test]
fn damage_found_while_writing_stops_every_write_and_the_next_open_checks() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q1": "run"})).unwrap();
    drop(store);
    break_table(&path, "skill_states");

    // Opened without the check at open, as a file too large for it would be.
    let store = Store::open_checking(&path, &DbKey::Clear, 0).unwrap();
    let err = store
        .write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q2": "swim"}))
        .unwrap_err();
    assert_eq!(err.kind().as_str(), "damaged_database", "{err}");
    let msg = err.to_string();
    assert!(msg.contains(&format!("database {} is damaged", path.display())), "{msg}");
    assert!(msg.contains("malformed") && msg.contains("stopped writing"), "{msg}");
    assert!(msg.contains("no backup beside it"), "{msg}");
    assert!(store.damage().is_some());
    // A write to a sound table is refused too: nothing writes into a broken file.
    let err = store.create_conversation(LOCAL_USER, None).unwrap_err();
    assert_eq!(err.kind().as_str(), "damaged_database", "{err}");
    let count: i64 =
        store.conn().query_row("SELECT count(*) FROM conversations", [], |r| r.get(0)).unwrap();
    assert_eq!(count, 0);
    drop(store);

    // The session marker stays, so even a large file is checked at the next open.
    let err = Store::open_checking(&path, &DbKey::Clear, 0).err().expect("refused");
    assert_eq!(err.kind().as_str(), "damaged_database", "{err}");
    assert!(err.to_string().contains("quick check finds"), "{err}");
}

#[test]
fn a_small_file_with_a_damaged_page_is_refused_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q1": "run"})).unwrap();
    drop(store);
    break_table(&path, "skill_states");
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path).err().expect("refused");
    let msg = err.to_string();
    assert!(msg.contains("quick check at open finds"), "{msg}");
    assert!(msg.contains("Nothing was written"), "{msg}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "the damaged file was not written");
}

#[test]
fn damage_met_by_a_read_is_named_and_stops_writes_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open(&path).unwrap();
    store.write_state(LOCAL_USER, "coach", "goals", serde_json::json!({"q1": "run"})).unwrap();
    drop(store);
    break_table(&path, "skill_states");

    let store = Store::open_checking(&path, &DbKey::Clear, 0).unwrap();
    for err in [
        store.read_state(LOCAL_USER, "coach", None).unwrap_err(),
        store.profile(LOCAL_USER).unwrap_err(),
        store.create_conversation(LOCAL_USER, None).unwrap_err(),
    ] {
        assert_eq!(err.kind().as_str(), "damaged_database", "{err}");
        let msg = err.to_string();
        assert!(msg.contains(&format!("database {} is damaged", path.display())), "{msg}");
        assert!(msg.contains("stopped writing"), "{msg}");
    }
}
