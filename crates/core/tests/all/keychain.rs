//! The keychain key mode against a real Secret Service (docs/privacy.md#key-modes): a new data
//! folder's key goes to the OS keychain under its own entry, the folder reopens with it, the
//! database holds no clear text, and `erase` removes the entry. The test needs a Secret Service
//! on a session D-Bus, so it is ignored by a plain `cargo test`; `scripts/test-keychain.sh`
//! (run by `scripts/test.sh`) starts a private D-Bus session and gnome-keyring-daemon unlocked
//! with a test password, runs the `keychain_` tests, and says clearly when it cannot.

use std::process::Command;

use vibe_core::app::{App, AppPaths, Encryption, OsKeychain, Overrides, db_key_account};
use vibe_llm::KEYCHAIN_SERVICE;
use vibe_store::{LOCAL_USER, NewMessage, Role};
use vibe_wire::command::EraseRequest;

const SECRET: &str = "钥匙串测试：只有我知道的事";

/// The password stored under `account` as the Secret Service itself answers (`secret-tool`, a
/// client independent of the app's `keyring` crate), `None` when it has none.
fn secret_tool_lookup(account: &str) -> Option<String> {
    let out = Command::new("secret-tool")
        .args(["lookup", "service", KEYCHAIN_SERVICE, "username", account])
        .output()
        .expect("secret-tool (libsecret-tools) is installed by scripts/test-keychain.sh");
    let text = String::from_utf8(out.stdout).unwrap();
    (out.status.success() && !text.is_empty()).then(|| text.trim().to_string())
}

#[test]
#[ignore = "needs a Secret Service on a session D-Bus: scripts/test-keychain.sh starts one and runs this"]
fn keychain_a_new_folder_keeps_its_key_in_the_secret_service_and_erase_removes_it() {
    if let Err(e) = keyring::Entry::store_status() {
        panic!("no Secret Service answers ({e}); run this test through scripts/test-keychain.sh");
    }
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let paths = AppPaths::new(&data);
    let account = db_key_account(&data);
    assert_eq!(secret_tool_lookup(&account), None, "a fresh folder has no entry yet");

    let app = App::open(paths.clone(), Overrides::default()).unwrap();
    assert_eq!(app.encryption(), Encryption::Keychain);
    let conversation = app.store().create_conversation(LOCAL_USER, None).unwrap().id;
    app.store().append_message(&conversation, NewMessage::text(Role::User, SECRET)).unwrap();
    drop(app);

    let stored = secret_tool_lookup(&account).expect("the key is in the keychain");
    assert_eq!(stored.len(), 64, "a 256-bit key as hex");
    assert!(stored.bytes().all(|b| b.is_ascii_hexdigit()));
    let db = std::fs::read(data.join("vibe.db")).unwrap();
    assert!(!db.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()), "the file is encrypted");
    let settings = std::fs::read_to_string(data.join("settings.json")).unwrap();
    assert!(!settings.contains(&stored), "the key is never in the settings");

    // Reopened with the key from the keychain: the same data, the same key.
    let app = App::open(paths.clone(), Overrides::default()).unwrap();
    let messages = app.store().messages(&conversation).unwrap();
    assert_eq!(messages[0].content, SECRET);
    drop(app);
    assert_eq!(secret_tool_lookup(&account).as_deref(), Some(stored.as_str()));

    // A second folder gets its own entry.
    let other = dir.path().join("other");
    drop(App::open(AppPaths::new(&other), Overrides::default()).unwrap());
    let other_key = secret_tool_lookup(&db_key_account(&other)).expect("its own entry");
    assert_ne!(other_key, stored);

    let done = App::erase_data(&paths, &OsKeychain, EraseRequest { confirm: true }).unwrap();
    assert!(done.erased);
    assert_eq!(done.keychain_entries.len(), 1, "{:?}", done.keychain_entries);
    assert_eq!(secret_tool_lookup(&account), None, "erase removed the entry");
    assert!(!data.exists());
    App::erase_data(&AppPaths::new(&other), &OsKeychain, EraseRequest { confirm: true }).unwrap();
    assert_eq!(secret_tool_lookup(&db_key_account(&other)), None);
}
