//! The database key (docs/privacy.md#encryption-at-rest): what SQLCipher is keyed with
//! ([`DbKey`]), applying it as the first statement on a connection, telling a wrong key from a
//! right one, the page format encrypted files are written in (and the one-time move of a file
//! from the format before), and the one-time move of a clear database to an encrypted one. It
//! never chooses a key mode, reads a keychain, an environment variable or a terminal: the app
//! (crates/core) decides and hands the key in as data.

use std::fmt;
use std::path::{Path, PathBuf};

use rusqlite::Connection;
use zeroize::Zeroizing;

use crate::error::{Result, StoreError};

/// The length of a raw key: 256 bits.
pub const RAW_KEY_LEN: usize = 32;

/// How the database file is keyed. `Debug` never shows the secret.
#[derive(Clone)]
pub enum DbKey {
    /// A random 256-bit key used as is (`x'..'`, no key derivation): the keychain mode.
    Raw(Zeroizing<[u8; RAW_KEY_LEN]>),
    /// A passphrase, stretched by SQLCipher's KDF (PBKDF2-HMAC-SHA512) at every open.
    Passphrase(Zeroizing<String>),
    /// No encryption: only when the person chose it explicitly.
    Clear,
}

impl DbKey {
    /// A raw key from its 64 hex digits (as the keychain keeps it).
    pub fn from_hex(hex_digits: &str) -> Option<Self> {
        let mut raw = Zeroizing::new([0u8; RAW_KEY_LEN]);
        hex::decode_to_slice(hex_digits.trim(), raw.as_mut()).ok()?;
        Some(Self::Raw(raw))
    }

    /// The raw key as 64 hex digits (what goes into the keychain); `None` for other modes.
    pub fn to_hex(&self) -> Option<Zeroizing<String>> {
        match self {
            Self::Raw(raw) => Some(Zeroizing::new(hex::encode(raw.as_ref()))),
            _ => None,
        }
    }

    pub fn passphrase(text: impl Into<String>) -> Self {
        Self::Passphrase(Zeroizing::new(text.into()))
    }

    pub fn is_clear(&self) -> bool {
        matches!(self, Self::Clear)
    }

    /// A word for the mode, for messages ("keychain key", "passphrase", "no key").
    pub fn describe(&self) -> &'static str {
        match self {
            Self::Raw(_) => "key from the keychain",
            Self::Passphrase(_) => "passphrase",
            Self::Clear => "no key (encryption off)",
        }
    }

    /// The text SQLCipher's `PRAGMA key` / `ATTACH .. KEY` takes: `x'<hex>'` for a raw key (no
    /// KDF), the passphrase itself otherwise.
    fn pragma_text(&self) -> Option<Zeroizing<String>> {
        match self {
            Self::Raw(raw) => Some(Zeroizing::new(format!("x'{}'", hex::encode(raw.as_ref())))),
            Self::Passphrase(text) => Some(text.clone()),
            Self::Clear => None,
        }
    }
}

impl fmt::Debug for DbKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Raw(_) => f.write_str("DbKey::Raw(***)"),
            Self::Passphrase(_) => f.write_str("DbKey::Passphrase(***)"),
            Self::Clear => f.write_str("DbKey::Clear"),
        }
    }
}

/// The page format of an encrypted file (docs/privacy.md#page-format). Files are written in
/// [`Format::Current`]; [`Format::Legacy`] files (from before) are read as they are and moved
/// to the current format at an open that has the file alone ([`reformat_in_place`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// SQLCipher 4's defaults except the page HMAC, HMAC-SHA256 (with the CPU's SHA
    /// instructions, less than half the cost of SHA-512), and the page size, 2,048 bytes
    /// (every page a turn touches is encrypted and authenticated whole: smaller pages, fewer
    /// bytes).
    Current,
    /// SQLCipher 4's defaults throughout: 4,096-byte pages authenticated with HMAC-SHA512.
    Legacy,
}

/// The page HMAC of [`Format::Current`], as SQLCipher's pragmas spell it.
const CURRENT_HMAC: &str = "HMAC_SHA256";
/// The page size of [`Format::Current`].
const CURRENT_PAGE_SIZE: i64 = 2048;
/// The page HMAC of [`Format::Legacy`].
const LEGACY_HMAC: &str = "HMAC_SHA512";
/// The page size of [`Format::Legacy`].
const LEGACY_PAGE_SIZE: i64 = 4096;

/// Make [`Format::Current`] SQLCipher's default for every connection and attached database
/// keyed from now on in this process, including the copies `VACUUM INTO` and
/// `sqlcipher_export` write. Set once, before the first key is applied.
fn current_format_by_default() -> Result<()> {
    static DONE: std::sync::OnceLock<std::result::Result<(), String>> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let conn = Connection::open_in_memory().map_err(|e| e.to_string())?;
        conn.pragma_update(None, "cipher_default_hmac_algorithm", CURRENT_HMAC)
            .and_then(|()| conn.pragma_update(None, "cipher_default_page_size", CURRENT_PAGE_SIZE))
            .map_err(|e| e.to_string())
    })
    .clone()
    .map_err(|e| StoreError::invalid(format!("SQLCipher refused its page format settings: {e}")))
}

/// Key `conn` (the first statement after opening) and prove the key opens the file by reading
/// its schema; says which page format the file has. A wrong key reads nothing and writes
/// nothing.
pub(crate) fn apply(conn: &Connection, key: &DbKey, path: &Path) -> Result<Format> {
    // SQLCipher logs a failed page check to stderr; a wrong key is reported as an error here.
    conn.pragma_update(None, "cipher_log_level", "NONE")?;
    let Some(text) = key.pragma_text() else {
        return verify(conn, key, path).map(|()| Format::Current);
    };
    current_format_by_default()?;
    conn.pragma_update(None, "key", text.as_str())?;
    match verify(conn, key, path) {
        Err(StoreError::WrongKey { .. }) => {
            // The same key may open a file of the format before (4 KiB pages with a SHA-512
            // HMAC). Keying again resets the connection's unused codec; a wrong key fails
            // this too.
            conn.pragma_update(None, "key", text.as_str())?;
            conn.pragma_update(None, "cipher_hmac_algorithm", LEGACY_HMAC)?;
            conn.pragma_update(None, "cipher_page_size", LEGACY_PAGE_SIZE)?;
            verify(conn, key, path).map(|()| Format::Legacy)
        }
        other => other.map(|()| Format::Current),
    }
}

fn verify(conn: &Connection, key: &DbKey, path: &Path) -> Result<()> {
    match conn.query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0)) {
        Ok(_) => Ok(()),
        Err(e) if is_not_a_database(&e) => {
            Err(StoreError::WrongKey { path: path.to_path_buf(), mode: key.describe() })
        }
        Err(e) => Err(e.into()),
    }
}

fn is_not_a_database(e: &rusqlite::Error) -> bool {
    matches!(e.sqlite_error_code(), Some(rusqlite::ErrorCode::NotADatabase))
}

/// Write a consistent copy of `conn`'s main database to `target` (a new file), keyed like it
/// (or clear like it), owner-only. A copy of an encrypted file is in [`Format::Current`]:
/// `VACUUM INTO` keys the copy with the process's defaults but keeps the source's page size,
/// so a file still in [`Format::Legacy`] is copied with `sqlcipher_export` instead, in one
/// transaction (one snapshot of the source).
pub(crate) fn copy_into(conn: &Connection, target: &Path) -> Result<()> {
    let target_text = target.to_string_lossy();
    if hmac_of(conn)?.as_deref() == Some(LEGACY_HMAC) {
        current_format_by_default()?;
        // Without a KEY clause the attached file is keyed with the main database's key.
        conn.execute("ATTACH DATABASE ?1 AS snapshot", [target_text.as_ref()])?;
        let copied = (|| -> Result<()> {
            conn.execute_batch("BEGIN")?;
            let exported = conn
                .query_row("SELECT sqlcipher_export('snapshot')", [], |_| Ok(()))
                .and_then(|()| {
                    conn.query_row("PRAGMA main.user_version", [], |r| r.get::<_, i64>(0))
                })
                .and_then(|v| conn.pragma_update(Some("snapshot"), "user_version", v));
            match exported {
                Ok(()) => Ok(conn.execute_batch("COMMIT")?),
                Err(e) => {
                    let _ = conn.execute_batch("ROLLBACK");
                    Err(e.into())
                }
            }
        })();
        conn.execute("DETACH DATABASE snapshot", [])?;
        if let Err(e) = copied {
            let _ = std::fs::remove_file(target);
            return Err(e);
        }
    } else {
        conn.execute("VACUUM INTO ?1", [target_text.as_ref()])?;
    }
    restrict(target);
    Ok(())
}

/// The page HMAC `conn`'s main database is read with (`None`: a clear connection).
fn hmac_of(conn: &Connection) -> Result<Option<String>> {
    use rusqlite::OptionalExtension as _;
    Ok(conn.query_row("PRAGMA cipher_hmac_algorithm", [], |r| r.get(0)).optional()?)
}

/// Whether the file at `path` starts with the clear SQLite header (an unencrypted database).
pub(crate) fn is_clear_file(path: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 16];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut header)).is_ok()
        && &header == b"SQLite format 3\0"
}

/// The steps of [`encrypt_in_place`] and [`reformat_in_place`], for the test that stops them
/// after each one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The original file was checkpointed and left its write-ahead log.
    Checkpointed,
    /// The encrypted copy was written beside it.
    Exported,
    /// The copy passed the integrity check and has every row.
    Verified,
    /// The copy is on disk (fsync).
    Synced,
    /// The copy replaced the original file (rename), the folder entry is on disk.
    Swapped,
}

/// The encrypted copy's name while it is being made: `<db>.encrypting`.
pub(crate) fn work_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".encrypting");
    PathBuf::from(name)
}

/// Turn the clear database at `path` into one encrypted with `key`, so that a crash at any
/// point leaves one complete database that opens: an encrypted copy is written beside it,
/// checked (integrity check, the row count of every table), synced, and renamed over the clear
/// file in one step. Before the rename the clear file is untouched (a leftover copy is removed
/// at the next try); after it, the encrypted one is in place. The caller holds the open lock.
pub(crate) fn encrypt_in_place(path: &Path, key: &DbKey, stop_after: Option<Step>) -> Result<()> {
    rewrite_in_place(path, key, Source::Clear, stop_after)
}

/// Move the encrypted database at `path` from [`Format::Legacy`] to [`Format::Current`], the
/// same crash-safe way as [`encrypt_in_place`] (same key; a file already current is left
/// alone). The caller holds the open lock and knows no other process has the file open.
pub(crate) fn reformat_in_place(path: &Path, key: &DbKey, stop_after: Option<Step>) -> Result<()> {
    rewrite_in_place(path, key, Source::Legacy, stop_after)
}

/// What [`rewrite_in_place`] copies from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Source {
    Clear,
    Legacy,
}

fn rewrite_in_place(
    path: &Path,
    key: &DbKey,
    source: Source,
    stop_after: Option<Step>,
) -> Result<()> {
    let Some(text) = key.pragma_text() else { return Ok(()) };
    let stop = |step: Step| -> Result<()> {
        if stop_after == Some(step) {
            return Err(StoreError::invalid(format!("stopped after {step:?} (test)")));
        }
        Ok(())
    };
    let work = work_path(path);
    let io = |what: &str, p: &Path| {
        let context = format!("{what} {}", p.display());
        move |source| StoreError::Io { context, source }
    };
    match std::fs::remove_file(&work) {
        Ok(()) => tracing::info!(file = %work.display(), "removed an unfinished encrypted copy"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io("cannot remove the unfinished copy", &work)(e)),
    }

    let original = Connection::open(path)?;
    if source == Source::Legacy && apply(&original, key, path)? == Format::Current {
        return Ok(());
    }
    original.busy_timeout(std::time::Duration::from_secs(15))?;
    // Leave WAL mode: the log is folded into the file and removed, so the file alone is the
    // database (the encrypted copy gets WAL back when it is configured).
    let _: String = original.query_row("PRAGMA journal_mode = DELETE", [], |r| r.get(0))?;
    stop(Step::Checkpointed)?;

    // The attached copy is keyed with the current format (`current_format_by_default`).
    current_format_by_default()?;
    original.execute(
        "ATTACH DATABASE ?1 AS encrypted KEY ?2",
        [work.to_string_lossy().as_ref(), text.as_str()],
    )?;
    original.query_row("SELECT sqlcipher_export('encrypted')", [], |_| Ok(()))?;
    let version: i64 = original.query_row("PRAGMA main.user_version", [], |r| r.get(0))?;
    original.pragma_update(Some("encrypted"), "user_version", version)?;
    original.execute("DETACH DATABASE encrypted", [])?;
    restrict(&work);
    stop(Step::Exported)?;

    let kept = match source {
        Source::Clear => "the clear database was kept as it is",
        Source::Legacy => "the database was kept as it is, in its earlier format",
    };
    let counts = table_counts(&original)?;
    {
        let copy = Connection::open(&work)?;
        if apply(&copy, key, &work)? != Format::Current {
            return Err(StoreError::invalid(format!(
                "the encrypted copy {} was not written in the current page format; {kept}",
                work.display()
            )));
        }
        let problems = crate::integrity::full_check(&copy)?;
        if !problems.is_empty() {
            return Err(StoreError::invalid(format!(
                "the encrypted copy {} failed its integrity check ({}); {kept}",
                work.display(),
                problems.join("; ")
            )));
        }
        let copied = table_counts(&copy)?;
        if copied != counts {
            return Err(StoreError::invalid(format!(
                "the encrypted copy {} does not hold every row ({copied:?} against \
                 {counts:?}); {kept}",
                work.display()
            )));
        }
    }
    drop(original);
    stop(Step::Verified)?;

    std::fs::File::open(&work).and_then(|f| f.sync_all()).map_err(io("cannot sync", &work))?;
    stop(Step::Synced)?;

    std::fs::rename(&work, path).map_err(io("cannot move the encrypted copy over", path))?;
    sync_dir(path);
    stop(Step::Swapped)?;
    match source {
        Source::Clear => tracing::info!(file = %path.display(), "the clear database was encrypted"),
        Source::Legacy => {
            tracing::info!(file = %path.display(), "the database was moved to the current page format")
        }
    }
    Ok(())
}

/// Every table's row count, by name.
pub(crate) fn table_counts(conn: &Connection) -> Result<Vec<(String, i64)>> {
    let names: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             ORDER BY name",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    names
        .into_iter()
        .map(|name| {
            let quoted = name.replace('"', "\"\"");
            let n =
                conn.query_row(&format!("SELECT count(*) FROM \"{quoted}\""), [], |r| r.get(0))?;
            Ok((name, n))
        })
        .collect()
}

/// Make the folder entry of a rename durable (best effort: not every OS can open a folder).
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent()
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
}

/// Owner-only permissions (0600) on a file the store made; a no-op off Unix and for a missing
/// file.
pub(crate) fn restrict(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        match std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            // Nobody can change a read-only file system; a write there fails on its own,
            // naming the file and the cause.
            Err(e) if e.kind() == std::io::ErrorKind::ReadOnlyFilesystem => {
                tracing::debug!(file = %path.display(), "cannot make the file private: {e}");
            }
            Err(e) => tracing::warn!(file = %path.display(), "cannot make the file private: {e}"),
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clear_db(path: &Path) {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL);
             CREATE TABLE tags (note INTEGER, tag TEXT);
             PRAGMA user_version = 6;",
        )
        .unwrap();
        for n in 0..300 {
            conn.execute("INSERT INTO notes (text) VALUES (?1)", [format!("秘密 {n}")]).unwrap();
            conn.execute("INSERT INTO tags VALUES (?1, 'x')", [n]).unwrap();
        }
    }

    fn rows(path: &Path, key: &DbKey) -> (i64, Vec<String>) {
        let conn = Connection::open(path).unwrap();
        apply(&conn, key, path).unwrap();
        let version = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        let texts = conn
            .prepare("SELECT text FROM notes ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<Vec<String>>>()
            .unwrap();
        (version, texts)
    }

    fn key() -> DbKey {
        DbKey::from_hex(&"ab".repeat(32)).unwrap()
    }

    #[test]
    fn stopped_after_any_step_the_next_try_ends_with_one_complete_encrypted_database() {
        let expected: Vec<String> = (0..300).map(|n| format!("秘密 {n}")).collect();
        for step in
            [Step::Checkpointed, Step::Exported, Step::Verified, Step::Synced, Step::Swapped]
        {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("vibe.db");
            clear_db(&path);
            let err = encrypt_in_place(&path, &key(), Some(step)).unwrap_err();
            assert!(err.to_string().contains("stopped after"), "{err}");
            // What a crash leaves: one database that opens with everything in it, either
            // still clear (before the swap) or already encrypted (after it).
            let now_key = if step == Step::Swapped { key() } else { DbKey::Clear };
            assert_eq!(is_clear_file(&path), step != Step::Swapped, "{step:?}");
            assert_eq!(rows(&path, &now_key), (6, expected.clone()), "{step:?}");
            // The next open finishes the job.
            if is_clear_file(&path) {
                encrypt_in_place(&path, &key(), None).unwrap();
            }
            assert!(!is_clear_file(&path), "{step:?}");
            assert!(!work_path(&path).exists(), "{step:?}: no copy left behind");
            assert_eq!(rows(&path, &key()), (6, expected.clone()), "{step:?}");
            let bytes = std::fs::read(&path).unwrap();
            assert!(!bytes.windows("秘密".len()).any(|w| w == "秘密".as_bytes()), "{step:?}");
        }
    }

    #[test]
    fn a_move_to_the_current_format_stopped_after_any_step_leaves_one_whole_database() {
        let expected: Vec<String> = (0..300).map(|n| format!("秘密 {n}")).collect();
        for step in
            [Step::Checkpointed, Step::Exported, Step::Verified, Step::Synced, Step::Swapped]
        {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("vibe.db");
            // The format before: the clear rows exported into a SHA-512 file.
            let clear = dir.path().join("clear.db");
            clear_db(&clear);
            {
                let conn = Connection::open(&path).unwrap();
                conn.pragma_update(None, "key", key().pragma_text().unwrap().as_str()).unwrap();
                conn.pragma_update(None, "cipher_hmac_algorithm", LEGACY_HMAC).unwrap();
                conn.pragma_update(None, "cipher_page_size", LEGACY_PAGE_SIZE).unwrap();
                conn.execute("ATTACH DATABASE ?1 AS c KEY ''", [clear.to_str().unwrap()]).unwrap();
                conn.query_row("SELECT sqlcipher_export('main', 'c')", [], |_| Ok(())).unwrap();
                conn.pragma_update(None, "user_version", 6).unwrap();
            }
            let format = |p: &Path| apply(&Connection::open(p).unwrap(), &key(), p).unwrap();
            assert_eq!(format(&path), Format::Legacy);
            let err = reformat_in_place(&path, &key(), Some(step)).unwrap_err();
            assert!(err.to_string().contains("stopped after"), "{err}");
            let now = if step == Step::Swapped { Format::Current } else { Format::Legacy };
            assert_eq!(format(&path), now, "{step:?}");
            assert_eq!(rows(&path, &key()), (6, expected.clone()), "{step:?}");
            reformat_in_place(&path, &key(), None).unwrap();
            assert_eq!(format(&path), Format::Current, "{step:?}");
            assert!(!work_path(&path).exists(), "{step:?}: no copy left behind");
            assert_eq!(rows(&path, &key()), (6, expected.clone()), "{step:?}");
        }
    }

    #[test]
    fn a_wrong_key_is_told_apart_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        clear_db(&path);
        encrypt_in_place(&path, &DbKey::passphrase("right horse"), None).unwrap();
        let before = std::fs::read(&path).unwrap();
        for wrong in [DbKey::passphrase("wrong horse"), key(), DbKey::Clear] {
            let conn = Connection::open(&path).unwrap();
            let err = apply(&conn, &wrong, &path).unwrap_err();
            assert!(matches!(err, StoreError::WrongKey { .. }), "{wrong:?}: {err}");
        }
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn keys_never_print_and_round_trip_through_hex() {
        let k = key();
        assert_eq!(format!("{k:?}"), "DbKey::Raw(***)");
        assert_eq!(format!("{:?}", DbKey::passphrase("p")), "DbKey::Passphrase(***)");
        assert_eq!(k.to_hex().unwrap().as_str(), "ab".repeat(32));
        assert!(DbKey::from_hex("zz").is_none());
        assert!(DbKey::from_hex(&"ab".repeat(31)).is_none());
    }
}
