//! The database encrypted at rest (docs/privacy.md#encryption-at-rest), against real files:
//! what is on disk, wrong keys, moving a clear database to an encrypted one, backups made
//! before upgrades, damaged encrypted files and the files' permissions.

use std::path::Path;

use vibe_store::{DbKey, LOCAL_USER, NewMessage, Role, Store, latest_version, list_backups};

const SECRET: &str = "我害怕告诉任何人的事 — the fear I never said aloud";

fn key() -> DbKey {
    DbKey::from_hex(&"5e".repeat(32)).unwrap()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Every byte the database keeps on disk: the file and its log.
fn disk_bytes(path: &Path) -> Vec<u8> {
    let mut all = std::fs::read(path).unwrap();
    for suffix in ["-wal", "-shm"] {
        all.extend(std::fs::read(format!("{}{suffix}", path.display())).unwrap_or_default());
    }
    all
}

fn write_secret(store: &Store) -> String {
    let c = store.create_conversation(LOCAL_USER, Some("private")).unwrap();
    store.append_message(&c.id, NewMessage::text(Role::User, SECRET)).unwrap();
    c.id
}

#[test]
fn the_file_on_disk_holds_no_message_text_with_either_key_mode() {
    for key in [key(), DbKey::passphrase("correct horse battery staple")] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        let store = Store::open_with_key(&path, &key).unwrap();
        let id = write_secret(&store);
        // While open (the text sits in the write-ahead log) and after closing.
        let bytes = disk_bytes(&path);
        assert!(!contains(&bytes, SECRET.as_bytes()), "{key:?}: clear text in the log");
        drop(store);
        let bytes = disk_bytes(&path);
        assert!(!contains(&bytes, SECRET.as_bytes()), "{key:?}: clear text on disk");
        assert!(!contains(&bytes, b"SQLite format 3"), "{key:?}: a clear header");
        let store = Store::open_with_key(&path, &key).unwrap();
        assert_eq!(store.messages(&id).unwrap()[0].content, SECRET);
    }

    // The control: the clear format does hold it, so the search above can find it.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    write_secret(&Store::open(&path).unwrap());
    assert!(contains(&disk_bytes(&path), SECRET.as_bytes()));
}

#[test]
fn a_wrong_key_or_passphrase_is_a_clear_error_and_the_file_is_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    write_secret(&Store::open_with_key(&path, &DbKey::passphrase("right")).unwrap());
    let before = disk_bytes(&path);
    for wrong in [DbKey::passphrase("wrong"), key()] {
        let err = Store::open_with_key(&path, &wrong).err().expect("a wrong key must not open");
        assert_eq!(err.kind().as_str(), "wrong_key", "{err}");
        let msg = err.to_string();
        assert!(msg.contains("key is wrong") && msg.contains("Nothing was written"), "{msg}");
        assert!(!msg.contains("right"), "the message must not carry a secret: {msg}");
        assert_eq!(disk_bytes(&path), before, "{wrong:?}: the file was changed");
    }
    // Without a key it is no clear database either; said so, and not touched.
    let err = Store::open(&path).err().unwrap();
    assert_eq!(err.kind().as_str(), "damaged_database", "{err}");
    assert!(err.to_string().contains("encrypted"), "{err}");
    assert_eq!(disk_bytes(&path), before);
    Store::open_with_key(&path, &DbKey::passphrase("right")).unwrap();
}

#[test]
fn a_clear_database_is_encrypted_on_open_with_every_row_and_its_backups() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let ids: Vec<String> = {
        let store = Store::open(&path).unwrap();
        store.set_path(LOCAL_USER, "account.display_name", serde_json::json!("Ann")).unwrap();
        (0..50).map(|_| write_secret(&store)).collect()
    };
    // A backup from an earlier upgrade, in the clear.
    let backup = dir.path().join("vibe.db.backup-20250101T000000.000Z-v5");
    std::fs::copy(&path, &backup).unwrap();

    let store = Store::open_with_key(&path, &key()).unwrap();
    assert_eq!(store.schema_version().unwrap(), latest_version());
    assert_eq!(store.profile(LOCAL_USER).unwrap()["account"]["display_name"], "Ann");
    for id in &ids {
        assert_eq!(store.messages(id).unwrap()[0].content, SECRET);
    }
    drop(store);
    assert!(!contains(&disk_bytes(&path), SECRET.as_bytes()));
    assert!(!Path::new(&format!("{}.encrypting", path.display())).exists());
    assert_eq!(list_backups(&path), vec![backup.clone()]);
    assert!(!contains(&std::fs::read(&backup).unwrap(), SECRET.as_bytes()), "backup still clear");
    let old = Store::open_with_key(&backup, &key()).unwrap();
    assert_eq!(old.messages(&ids[0]).unwrap()[0].content, SECRET);
}

#[test]
fn the_backup_before_an_upgrade_is_encrypted_with_the_same_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    {
        // An encrypted file at an older schema: tables that are somebody's data.
        vibe_store::sqlite_ready();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "key", "a passphrase").unwrap();
        conn.execute_batch("CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('keep me');")
            .unwrap();
    }
    let key = DbKey::passphrase("a passphrase");
    let store = Store::open_with_key(&path, &key).unwrap();
    let backup = store.upgraded().and_then(|u| u.backup.clone()).expect("a backup first");
    drop(store);
    let bytes = std::fs::read(&backup).unwrap();
    assert!(!contains(&bytes, b"keep me") && !contains(&bytes, b"SQLite format 3"));
    vibe_store::sqlite_ready();
    let conn = rusqlite::Connection::open(&backup).unwrap();
    conn.pragma_update(None, "key", "a passphrase").unwrap();
    let t: String = conn.query_row("SELECT t FROM notes", [], |r| r.get(0)).unwrap();
    assert_eq!(t, "keep me");
}

#[test]
fn a_damaged_encrypted_file_is_refused_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.db");
    {
        let store = Store::open_with_key(&good, &key()).unwrap();
        for _ in 0..20 {
            write_secret(&store);
        }
        store.checkpointed_size().unwrap();
    }
    let whole = std::fs::read(&good).unwrap();
    let mut flipped = whole.clone();
    for b in &mut flipped[100..140] {
        *b = !*b;
    }
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("empty", Vec::new(), "damaged_database"),
        ("short", whole[..60].to_vec(), "damaged_database"),
        // Page 1 fails its authentication: a wrong key and a damaged page look the same.
        ("flipped", flipped, "wrong_key"),
    ];
    for (name, content, kind) in cases {
        let path = dir.path().join(format!("{name}.db"));
        std::fs::write(&path, &content).unwrap();
        let err = Store::open_with_key(&path, &key()).err().unwrap_or_else(|| panic!("{name}"));
        assert_eq!(err.kind().as_str(), kind, "{name}: {err}");
        assert!(err.to_string().contains("Nothing was written"), "{name}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), content, "{name}: the file was changed");
    }
}

#[cfg(unix)]
#[test]
fn the_database_its_log_lock_and_backups_are_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE notes (t TEXT);").unwrap();
    }
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let store = Store::open_with_key(&path, &key()).unwrap();
    write_secret(&store);
    let mut files: Vec<_> = ["vibe.db", "vibe.db-wal", "vibe.db-shm", "vibe.db.lock"]
        .iter()
        .map(|n| dir.path().join(n))
        .collect();
    files.extend(list_backups(&path));
    assert_eq!(files.len(), 5, "{files:?}");
    for file in files {
        let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{} is {mode:o}", file.display());
    }
}

/// The page formats a file can be in: SQLCipher 4's defaults, and the two earlier ones
/// (HMAC-SHA256 tags, with 2,048- or 4,096-byte pages).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Format {
    Standard,
    Sha256Pages2k,
    Sha256Pages4k,
}

/// Whether `path` opens with `key` read in `format`: SQLCipher's `PRAGMA key` alone for the
/// standard format, with the earlier format's settings after it otherwise.
fn opens_in(path: &Path, key: &str, format: Format) -> bool {
    vibe_store::sqlite_ready();
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.pragma_update(None, "cipher_log_level", "NONE").unwrap();
    conn.pragma_update(None, "key", key).unwrap();
    set_earlier(&conn, format);
    conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0)).is_ok()
}

fn set_earlier(conn: &rusqlite::Connection, format: Format) {
    let page_size = match format {
        Format::Standard => return,
        Format::Sha256Pages2k => 2048,
        Format::Sha256Pages4k => 4096,
    };
    conn.pragma_update(None, "cipher_hmac_algorithm", "HMAC_SHA256").unwrap();
    conn.pragma_update(None, "cipher_page_size", page_size).unwrap();
}

/// The one format of the three `path` opens in with `key`.
fn format_of(path: &Path, key: &str) -> Format {
    let formats = [Format::Standard, Format::Sha256Pages2k, Format::Sha256Pages4k];
    let opening: Vec<Format> = formats.into_iter().filter(|f| opens_in(path, key, *f)).collect();
    assert_eq!(opening.len(), 1, "{}: {opening:?}", path.display());
    opening[0]
}

const KEY_TEXT: &str = "x'5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e5e'";

/// A database as an earlier version wrote it: the whole schema with one secret message, keyed
/// with [`key`], in the earlier page format `format`.
fn earlier_database(dir: &Path, format: Format) -> (std::path::PathBuf, String) {
    let clear = dir.join("clear.db");
    let id = write_secret(&Store::open(&clear).unwrap());
    let path = dir.join("vibe.db");
    vibe_store::sqlite_ready();
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.pragma_update(None, "key", KEY_TEXT).unwrap();
    set_earlier(&conn, format);
    conn.execute("ATTACH DATABASE ?1 AS clear KEY ''", [clear.to_str().unwrap()]).unwrap();
    conn.query_row("SELECT sqlcipher_export('main', 'clear')", [], |_| Ok(())).unwrap();
    conn.pragma_update(None, "user_version", latest_version()).unwrap();
    drop(conn);
    std::fs::remove_file(&clear).unwrap();
    assert_eq!(format_of(&path, KEY_TEXT), format);
    (path, id)
}

#[test]
fn new_files_and_their_copies_are_in_sqlcipher_4s_default_format() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    let store = Store::open_with_key(&path, &key()).unwrap();
    write_secret(&store);
    let copy = dir.path().join("copy.db");
    store.snapshot_into(&copy).unwrap();
    drop(store);
    for file in [&path, &copy] {
        assert_eq!(format_of(file, KEY_TEXT), Format::Standard, "{}", file.display());
    }
    // A clear database moved to encryption lands in the same format, and so does a
    // passphrase database.
    let clear = dir.path().join("clear.db");
    write_secret(&Store::open(&clear).unwrap());
    drop(Store::open_with_key(&clear, &key()).unwrap());
    assert_eq!(format_of(&clear, KEY_TEXT), Format::Standard);
    let phrase = dir.path().join("phrase.db");
    write_secret(&Store::open_with_key(&phrase, &DbKey::passphrase("a passphrase")).unwrap());
    assert_eq!(format_of(&phrase, "a passphrase"), Format::Standard);
}

#[test]
fn a_database_in_either_earlier_page_format_opens_and_moves_to_the_standard_one() {
    for format in [Format::Sha256Pages2k, Format::Sha256Pages4k] {
        let dir = tempfile::tempdir().unwrap();
        let (path, id) = earlier_database(dir.path(), format);

        // A wrong key is still a wrong key, and changes nothing.
        let before = std::fs::read(&path).unwrap();
        let err = Store::open_with_key(&path, &DbKey::from_hex(&"77".repeat(32)).unwrap())
            .err()
            .expect("a wrong key opened the file");
        assert!(err.to_string().contains("wrong"), "{format:?}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), before, "{format:?}");

        // A copy of it (what an old backup is) is read as it is.
        let backup = dir.path().join("backup.db");
        std::fs::copy(&path, &backup).unwrap();
        let inspected = vibe_store::inspect(&backup, &key()).unwrap();
        assert!(inspected.problems.is_empty(), "{format:?}: {:?}", inspected.problems);
        assert_eq!(inspected.counts["messages"], 1, "{format:?}");
        assert_eq!(format_of(&backup, KEY_TEXT), format, "inspect leaves a copy as it is");

        // The first open that has the file alone moves it, with every row.
        let store = Store::open_with_key(&path, &key()).unwrap();
        assert_eq!(store.messages(&id).unwrap()[0].content, SECRET, "{format:?}");
        drop(store);
        assert_eq!(format_of(&path, KEY_TEXT), Format::Standard, "{format:?}");
        assert!(!dir.path().join("vibe.db.encrypting").exists(), "{format:?}: a copy left");
        assert!(!contains(&disk_bytes(&path), SECRET.as_bytes()), "{format:?}");
        let store = Store::open_with_key(&path, &key()).unwrap();
        assert_eq!(store.messages(&id).unwrap()[0].content, SECRET, "{format:?}");
    }
}

#[test]
fn a_database_in_the_earlier_format_that_another_process_has_open_is_used_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = earlier_database(dir.path(), Format::Sha256Pages2k);
    // Another process's open store holds a shared lock on `<db>.inuse`: the file must not be
    // swapped under it.
    let inuse = std::fs::File::create(dir.path().join("vibe.db.inuse")).unwrap();
    inuse.lock_shared().unwrap();
    let store = Store::open_with_key(&path, &key()).unwrap();
    store.append_message(&id, NewMessage::text(Role::Assistant, "还在")).unwrap();
    drop(store);
    assert_eq!(format_of(&path, KEY_TEXT), Format::Sha256Pages2k, "moved while shared");
    // Alone again: the next open moves it, with what was written meanwhile.
    drop(inuse);
    let store = Store::open_with_key(&path, &key()).unwrap();
    assert_eq!(store.messages(&id).unwrap().len(), 2);
    drop(store);
    assert_eq!(format_of(&path, KEY_TEXT), Format::Standard);
}

#[test]
fn a_snapshot_of_a_database_still_in_the_earlier_format_is_in_the_standard_one() {
    let dir = tempfile::tempdir().unwrap();
    let (path, id) = earlier_database(dir.path(), Format::Sha256Pages2k);
    let inuse = std::fs::File::create(dir.path().join("vibe.db.inuse")).unwrap();
    inuse.lock_shared().unwrap();
    let store = Store::open_with_key(&path, &key()).unwrap();
    let copy = dir.path().join("copy.db");
    store.snapshot_into(&copy).unwrap();
    drop(store);
    let inspected = vibe_store::inspect(&copy, &key()).unwrap();
    assert!(inspected.problems.is_empty(), "{:?}", inspected.problems);
    assert_eq!(inspected.counts["messages"], 1);
    assert_eq!(format_of(&copy, KEY_TEXT), Format::Standard, "the copy is in the standard format");
    assert_eq!(format_of(&path, KEY_TEXT), Format::Sha256Pages2k, "the shared file stays as it is");
    let copy_store = Store::open_with_key(&copy, &key()).unwrap();
    assert_eq!(copy_store.messages(&id).unwrap()[0].content, SECRET);
}
