//! The database key (docs/privacy.md#encryption-at-rest): what SQLCipher is keyed with
//! ([`DbKey`]), applying it as the first statement on a connection, telling a wrong key from a
//! right one, the page formats (SQLCipher 4's defaults, and the earlier ones still read), and
//! copies keyed like their source. Moving a file to encryption or to the standard format is
//! `crypt_move`'s. Nothing here changes SQLCipher's settings or its crypto provider. It never
//! chooses a key mode, reads a keychain, an environment variable or a terminal: the app
//! (crates/core) decides and hands the key in as data.

use std::fmt;
use std::path::Path;

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
    pub(crate) fn pragma_text(&self) -> Option<Zeroizing<String>> {
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
/// [`Format::Standard`]; files in an earlier format are read as they are and moved to the
/// standard one at an open that has the file alone (`crypt_move::reformat_in_place`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// SQLCipher 4's defaults, untouched: 4,096-byte pages, AES-256-CBC, HMAC-SHA512 page
    /// tags, PBKDF2-HMAC-SHA512 with 256,000 iterations for a passphrase. What the bundled
    /// SQLCipher writes with no setting changed, and what any stock SQLCipher 4 build opens
    /// with `PRAGMA key` alone.
    Standard,
    /// Earlier: SQLCipher 4's defaults but 2,048-byte pages tagged with HMAC-SHA256 (what
    /// versions before issue 28 wrote).
    Sha256Pages2k,
    /// Earlier: SQLCipher 4's defaults but pages tagged with HMAC-SHA256 (briefly written
    /// before the 2,048-byte pages came).
    Sha256Pages4k,
}

impl Format {
    /// The earlier formats, in the order a key is tried on them after [`Format::Standard`]
    /// (the most common first).
    pub(crate) const EARLIER: [Format; 2] = [Format::Sha256Pages2k, Format::Sha256Pages4k];

    /// The page HMAC, as SQLCipher's pragmas spell it.
    pub(crate) fn hmac(self) -> &'static str {
        match self {
            Self::Standard => "HMAC_SHA512",
            Self::Sha256Pages2k | Self::Sha256Pages4k => "HMAC_SHA256",
        }
    }

    /// The page size in bytes.
    pub(crate) fn page_size(self) -> i64 {
        match self {
            Self::Sha256Pages2k => 2048,
            Self::Standard | Self::Sha256Pages4k => 4096,
        }
    }

    /// Set this format's page settings on a keyed connection that has read nothing yet (to
    /// read a file in an earlier format; tests write such files with it).
    pub(crate) fn set_on(self, conn: &Connection) -> rusqlite::Result<()> {
        conn.pragma_update(None, "cipher_hmac_algorithm", self.hmac())?;
        conn.pragma_update(None, "cipher_page_size", self.page_size())
    }
}

/// Key `conn` (the first statement after opening) and prove the key opens the file by reading
/// its schema; says which page format the file has. The key is SQLCipher's `PRAGMA key` with
/// nothing else set: a raw key as `x'<64 hex digits>'` (no key derivation), a passphrase as
/// itself (SQLCipher's PBKDF2). A wrong key reads nothing and writes nothing.
pub(crate) fn apply(conn: &Connection, key: &DbKey, path: &Path) -> Result<Format> {
    // SQLCipher logs a failed page check to stderr; a wrong key is reported as an error here.
    conn.pragma_update(None, "cipher_log_level", "NONE")?;
    let Some(text) = key.pragma_text() else {
        return verify(conn, key, path).map(|()| Format::Standard);
    };
    conn.pragma_update(None, "key", text.as_str())?;
    let mut opened = verify(conn, key, path).map(|()| Format::Standard);
    for earlier in Format::EARLIER {
        if !matches!(opened, Err(StoreError::WrongKey { .. })) {
            break;
        }
        // The same key may open a file in an earlier format. Keying again resets the
        // connection's unused codec; a wrong key fails these too.
        conn.pragma_update(None, "key", text.as_str())?;
        earlier.set_on(conn)?;
        opened = verify(conn, key, path).map(|()| earlier);
    }
    opened
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
/// (or clear like it), owner-only. A copy of an encrypted file is in [`Format::Standard`]:
/// `VACUUM INTO` keys the copy with SQLCipher's defaults but keeps the source's page size, so
/// a file still in an earlier format is copied with `sqlcipher_export` instead, in one
/// transaction (one snapshot of the source).
pub(crate) fn copy_into(conn: &Connection, target: &Path) -> Result<()> {
    let target_text = target.to_string_lossy();
    if hmac_of(conn)?.is_some_and(|hmac| hmac != Format::Standard.hmac()) {
        // Without a KEY clause the attached file is keyed with the main database's key, and
        // SQLCipher's defaults.
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
    use crate::crypt_move::tests::clear_db;

    fn key() -> DbKey {
        DbKey::from_hex(&"ab".repeat(32)).unwrap()
    }

    #[test]
    fn a_wrong_key_is_told_apart_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("vibe.db");
        clear_db(&path);
        crate::crypt_move::encrypt_in_place(&path, &DbKey::passphrase("right horse"), None)
            .unwrap();
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
