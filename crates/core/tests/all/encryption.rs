//! The database key modes through the app, as a front end opens it (docs/privacy.md): the
//! keychain default (a key store in memory: no keychain service on a test machine), a
//! passphrase, an explicit "none", no way to a key at all, and a clear database from before
//! encryption. Real data dirs, real SQLite files.

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;
use vibe_core::app::{
    App, AppPaths, Encryption, EphemeralKeys, KeyStore, Overrides, db_key_account,
};
use vibe_llm::ApiKey;
use vibe_store::{DbKey, LOCAL_USER, NewMessage, Role, Store};
use vibe_wire::command::{Hint, SettingChange, UpdateSettingsRequest};

const SECRET: &str = "日记：今天终于说出了那件事";

/// A key store without database keys, as the OS keychain is on a machine without a service.
struct NoKeychain;

impl KeyStore for NoKeychain {
    fn get(&self, _: &str) -> Option<ApiKey> {
        None
    }
    fn set(&self, _: &str, _: &ApiKey) -> Result<(), vibe_core::app::AppError> {
        Ok(())
    }
    fn clear(&self, _: &str) -> Result<(), vibe_core::app::AppError> {
        Ok(())
    }
}

fn open(
    dir: &Path,
    overrides: Overrides,
    keys: Arc<dyn KeyStore>,
) -> Result<App, vibe_core::app::AppError> {
    App::open_with_keys(AppPaths::new(dir), overrides, keys)
}

fn passphrase(text: &str) -> Overrides {
    Overrides { db_passphrase: Some(zeroize::Zeroizing::new(text.into())), ..Overrides::default() }
}

fn recorded(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join("settings.json")).unwrap();
    serde_json::from_str::<Value>(&text).unwrap()["storage"]["encryption"].clone()
}

fn write_secret(app: &App) -> String {
    let c = app.store().create_conversation(LOCAL_USER, None).unwrap();
    app.store().append_message(&c.id, NewMessage::text(Role::User, SECRET)).unwrap();
    c.id
}

fn on_disk_has_secret(dir: &Path) -> bool {
    ["vibe.db", "vibe.db-wal"].iter().any(|name| {
        let bytes = std::fs::read(dir.join(name)).unwrap_or_default();
        bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes())
    })
}

#[test]
fn by_default_a_random_key_goes_to_the_keychain_one_per_data_dir() {
    let keys = Arc::new(EphemeralKeys::default());
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for dir in [a.path(), b.path()] {
        let app = open(dir, Overrides::default(), keys.clone()).unwrap();
        assert_eq!(app.encryption(), Encryption::Keychain);
        write_secret(&app);
        assert!(!on_disk_has_secret(dir));
        assert_eq!(recorded(dir), "keychain");
    }
    let key_a = keys.get_db_key(&db_key_account(a.path())).unwrap().unwrap();
    let key_b = keys.get_db_key(&db_key_account(b.path())).unwrap().unwrap();
    assert_eq!(key_a.len(), 64);
    assert_ne!(key_a.as_str(), key_b.as_str(), "two data dirs, two keys");
    // The key is the keychain's: the file opens with it, and only with it.
    let db = a.path().join("vibe.db");
    let store = Store::open_with_key(&db, &DbKey::from_hex(&key_a).unwrap()).unwrap();
    assert_eq!(store.list_conversations(LOCAL_USER).unwrap().len(), 1);
    drop(store);
    let err = Store::open_with_key(&db, &DbKey::from_hex(&key_b).unwrap()).err().unwrap();
    assert_eq!(err.kind().as_str(), "wrong_key");
    // Neither the settings nor the database hold the key.
    let settings = std::fs::read_to_string(a.path().join("settings.json")).unwrap();
    assert!(!settings.contains(key_a.as_str()));
    let reopened = open(a.path(), Overrides::default(), keys.clone()).unwrap();
    assert_eq!(reopened.store().list_conversations(LOCAL_USER).unwrap().len(), 1);
}

#[test]
fn without_a_keychain_or_passphrase_nothing_is_made_and_the_error_names_the_ways_out() {
    let dir = tempfile::tempdir().unwrap();
    let err = open(dir.path(), Overrides::default(), Arc::new(NoKeychain)).err().unwrap();
    assert_eq!(err.kind().as_str(), "no_database_key", "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("keychain") && msg.contains("passphrase") && msg.contains("encryption off"),
        "{msg}"
    );
    assert!(matches!(err.hint(), Some(Hint::DbKey { .. })), "{:?}", err.hint());
    assert!(!dir.path().join("vibe.db").exists(), "no clear database as a fallback");
}

#[test]
fn a_passphrase_chooses_that_mode_and_is_needed_at_every_open() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let app = open(dir.path(), passphrase("my long passphrase"), Arc::new(NoKeychain)).unwrap();
        assert_eq!(app.encryption(), Encryption::Passphrase);
        write_secret(&app)
    };
    assert_eq!(recorded(dir.path()), "passphrase");
    assert!(!on_disk_has_secret(dir.path()));

    let err = open(dir.path(), Overrides::default(), Arc::new(NoKeychain)).err().unwrap();
    assert_eq!(err.kind().as_str(), "passphrase_needed", "{err}");
    assert!(matches!(err.hint(), Some(Hint::DbPassphrase { .. })));

    let before = std::fs::read(dir.path().join("vibe.db")).unwrap();
    let err = open(dir.path(), passphrase("not it"), Arc::new(NoKeychain)).err().unwrap();
    assert_eq!(err.kind().as_str(), "wrong_key", "{err}");
    assert!(!err.to_string().contains("not it"), "{err}");
    assert_eq!(std::fs::read(dir.path().join("vibe.db")).unwrap(), before);

    let app = open(dir.path(), passphrase("my long passphrase"), Arc::new(NoKeychain)).unwrap();
    assert_eq!(app.store().messages(&id).unwrap()[0].content, SECRET);
}

#[test]
fn no_encryption_is_only_an_explicit_choice_and_it_is_recorded_and_cannot_be_flipped() {
    let dir = tempfile::tempdir().unwrap();
    let clear = Overrides { no_encryption: true, ..Overrides::default() };
    let app = open(dir.path(), clear, Arc::new(NoKeychain)).unwrap();
    assert_eq!(app.encryption(), Encryption::None);
    write_secret(&app);
    assert_eq!(recorded(dir.path()), "none");
    app.store().checkpointed_size().unwrap();
    assert!(on_disk_has_secret(dir.path()), "the control: a clear file does hold the text");
    let change = SettingChange { key: "storage.encryption".into(), value: "keychain".into() };
    let err = app.update_settings(UpdateSettingsRequest { changes: vec![change] }).err().unwrap();
    assert!(err.to_string().contains("cannot be changed"), "{err}");
    assert_eq!(recorded(dir.path()), "none");
    drop(app);
    // Reopened without the flag: the recorded choice holds.
    let app = open(dir.path(), Overrides::default(), Arc::new(NoKeychain)).unwrap();
    assert_eq!(app.encryption(), Encryption::None);
    drop(app);

    // An encrypted data dir cannot be opened "without encryption".
    let other = tempfile::tempdir().unwrap();
    drop(open(other.path(), passphrase("p"), Arc::new(NoKeychain)).unwrap());
    let flip = Overrides { no_encryption: true, ..passphrase("p") };
    let err = open(other.path(), flip, Arc::new(NoKeychain)).err().unwrap();
    assert!(err.to_string().contains("cannot be turned off"), "{err}");
}

#[test]
fn a_clear_database_from_before_is_encrypted_at_the_first_open_with_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let ids: Vec<String> = {
        let store = Store::open(&dir.path().join("vibe.db")).unwrap();
        (0..20)
            .map(|_| {
                let c = store.create_conversation(LOCAL_USER, None).unwrap();
                store.append_message(&c.id, NewMessage::text(Role::User, SECRET)).unwrap();
                c.id
            })
            .collect()
    };
    let keys = Arc::new(EphemeralKeys::default());
    let app = open(dir.path(), Overrides::default(), keys).unwrap();
    for id in &ids {
        assert_eq!(app.store().messages(id).unwrap()[0].content, SECRET);
    }
    app.store().checkpointed_size().unwrap();
    assert!(!on_disk_has_secret(dir.path()));
    assert_eq!(recorded(dir.path()), "keychain");
}

#[cfg(unix)]
#[test]
fn the_data_dir_and_the_files_the_app_makes_are_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    let app = open(&dir, Overrides::default(), Arc::new(EphemeralKeys::default())).unwrap();
    write_secret(&app);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    for name in ["vibe.db", "vibe.db-wal", "vibe.db-shm", "settings.json"] {
        assert_eq!(mode(&dir.join(name)), 0o600, "{name}");
    }
}

#[cfg(unix)]
#[test]
fn run_folders_and_their_event_logs_are_private_to_the_owner() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let audit = vibe_runlog::RunAudit::create(dir.path(), "r1").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let runs = dir.path().join("runs");
    assert_eq!(mode(&runs), 0o700);
    assert_eq!(mode(&runs.join("r1")), 0o700);
    assert_eq!(mode(&runs.join("r1").join("events.jsonl")), 0o600);
    drop(audit);
}

/// A keychain that is slow to answer (as Secret Service over D-Bus can be): it widens the
/// window between looking for a key and storing a new one, where two processes could each
/// make their own. Correctness never depends on the delay.
#[derive(Default)]
struct SlowKeychain(EphemeralKeys);

impl KeyStore for SlowKeychain {
    fn get(&self, base_url: &str) -> Option<ApiKey> {
        self.0.get(base_url)
    }
    fn set(&self, base_url: &str, key: &ApiKey) -> Result<(), vibe_core::app::AppError> {
        self.0.set(base_url, key)
    }
    fn clear(&self, base_url: &str) -> Result<(), vibe_core::app::AppError> {
        self.0.clear(base_url)
    }
    fn get_db_key(
        &self,
        account: &str,
    ) -> Result<Option<zeroize::Zeroizing<String>>, vibe_core::app::AppError> {
        let found = self.0.get_db_key(account);
        std::thread::sleep(std::time::Duration::from_millis(30));
        found
    }
    fn set_db_key(&self, account: &str, hex: &str) -> Result<(), vibe_core::app::AppError> {
        self.0.set_db_key(account, hex)
    }
}

#[test]
fn apps_starting_a_new_data_dir_at_once_agree_on_one_keychain_key() {
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let keys = Arc::new(SlowKeychain::default());
        let opened: Vec<_> = (0..4)
            .map(|_| {
                let (dir, keys) = (dir.path().to_path_buf(), keys.clone());
                std::thread::spawn(move || {
                    let app = open(&dir, Overrides::default(), keys).map_err(|e| e.to_string())?;
                    write_secret(&app);
                    Ok::<_, String>(())
                })
            })
            .collect();
        for t in opened {
            t.join().unwrap().unwrap();
        }
        let app = open(dir.path(), Overrides::default(), keys).unwrap();
        assert_eq!(app.store().list_conversations(LOCAL_USER).unwrap().len(), 4);
    }
}
