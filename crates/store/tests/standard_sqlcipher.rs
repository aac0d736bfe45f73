//! The app's database opens in a stock SQLCipher 4 build with `PRAGMA key` alone
//! (docs/privacy.md#opening-your-data-with-standard-tools): the `sqlcipher3-binary` wheel from
//! PyPI, run by Python, reads what the store wrote — with a passphrase, with a raw key as the
//! keychain holds it, and after a file in an earlier page format was moved at its first open.
//! `scripts/env.sh` installs the wheel in a venv and names its Python in
//! `VIBE_SQLCIPHER_PYTHON`; without it these tests fail, saying how to install it.

use std::path::{Path, PathBuf};
use std::process::Command;

use vibe_store::{DbKey, LOCAL_USER, NewMessage, Role, Store, latest_version};

const SECRET: &str = "我只告诉日记的事 — what I only tell my journal";
const PASSPHRASE: &str = "correct horse battery staple";

/// What the stock build is asked to run: the key line exactly as docs/privacy.md gives it, then
/// the messages, printed one per line after the SQLCipher version.
const READ_WITH_KEY_ALONE: &str = r#"
import sys, sqlcipher3
path, key_line = sys.argv[1], sys.argv[2]
conn = sqlcipher3.connect(path)
conn.execute(key_line)
print(conn.execute("PRAGMA cipher_version").fetchone()[0])
for (content,) in conn.execute("SELECT content FROM messages ORDER BY id"):
    print(content)
"#;

/// The Python that has the `sqlcipher3` module: `VIBE_SQLCIPHER_PYTHON`, or the venv
/// `scripts/env.sh` makes.
fn sqlcipher_python() -> PathBuf {
    if let Some(python) = std::env::var_os("VIBE_SQLCIPHER_PYTHON") {
        return PathBuf::from(python);
    }
    let home = std::env::var_os("HOME").expect("HOME is set");
    Path::new(&home).join(".cache/vibelife/sqlcipher-venv/bin/python")
}

/// Run [`READ_WITH_KEY_ALONE`] on `path` in the stock build: (SQLCipher version, messages).
fn read_with_stock_sqlcipher(path: &Path, key_line: &str) -> (String, Vec<String>) {
    let python = sqlcipher_python();
    let out = Command::new(&python)
        .args(["-c", READ_WITH_KEY_ALONE])
        .arg(path)
        .arg(key_line)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): install the stock SQLCipher build with `source \
                 scripts/env.sh` (a venv under ~/.cache/vibelife with `pip install \
                 sqlcipher3-binary`), or name a Python that has it in VIBE_SQLCIPHER_PYTHON",
                python.display()
            )
        });
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named 'sqlcipher3'"),
        "{} lacks the sqlcipher3 module: `{} -m pip install sqlcipher3-binary` (scripts/env.sh \
         does it)",
        python.display(),
        python.display()
    );
    assert!(out.status.success(), "the stock SQLCipher build failed to read it: {stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut lines = stdout.lines().map(str::to_owned);
    let version = lines.next().unwrap_or_default();
    (version, lines.collect())
}

fn write_secret(path: &Path, key: &DbKey) {
    let store = Store::open_with_key(path, key).unwrap();
    let c = store.create_conversation(LOCAL_USER, Some("private")).unwrap();
    store.append_message(&c.id, NewMessage::text(Role::User, SECRET)).unwrap();
}

fn assert_reads_secret(path: &Path, key_line: &str) {
    let (version, messages) = read_with_stock_sqlcipher(path, key_line);
    assert!(version.starts_with("4."), "not a SQLCipher 4 build: {version:?}");
    assert_eq!(messages, vec![SECRET.to_owned()], "SQLCipher {version}, {key_line}");
}

#[test]
fn a_passphrase_database_opens_in_stock_sqlcipher_4_with_pragma_key_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    write_secret(&path, &DbKey::passphrase(PASSPHRASE));
    assert_reads_secret(&path, &format!("PRAGMA key = '{PASSPHRASE}';"));
}

#[test]
fn a_keychain_database_opens_in_stock_sqlcipher_4_with_its_raw_key_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    // The 64 hex digits the keychain entry holds.
    let hex = "0f1e2d3c4b5a69788796a5b4c3d2e1f00112233445566778899aabbccddeeff0";
    write_secret(&path, &DbKey::from_hex(hex).unwrap());
    assert_reads_secret(&path, &format!("PRAGMA key = \"x'{hex}'\";"));
}

#[test]
fn a_database_from_the_earlier_page_format_opens_in_stock_sqlcipher_4_once_moved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("vibe.db");
    // What versions before issue 28 wrote: 2 KiB pages tagged with HMAC-SHA256.
    let clear = dir.path().join("clear.db");
    write_secret(&clear, &DbKey::Clear);
    {
        vibe_store::sqlite_ready();
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "key", PASSPHRASE).unwrap();
        conn.pragma_update(None, "cipher_hmac_algorithm", "HMAC_SHA256").unwrap();
        conn.pragma_update(None, "cipher_page_size", 2048).unwrap();
        conn.execute("ATTACH DATABASE ?1 AS clear KEY ''", [clear.to_str().unwrap()]).unwrap();
        conn.query_row("SELECT sqlcipher_export('main', 'clear')", [], |_| Ok(())).unwrap();
        conn.pragma_update(None, "user_version", latest_version()).unwrap();
    }
    let key_line = format!("PRAGMA key = '{PASSPHRASE}';");
    let python = sqlcipher_python();
    let before = Command::new(&python)
        .args(["-c", READ_WITH_KEY_ALONE])
        .arg(&path)
        .arg(&key_line)
        .output()
        .unwrap();
    assert!(!before.status.success(), "the earlier format needs its settings before the move");

    drop(Store::open_with_key(&path, &DbKey::passphrase(PASSPHRASE)).unwrap());
    assert_reads_secret(&path, &key_line);
}
