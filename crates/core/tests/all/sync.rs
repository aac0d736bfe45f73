//! Sync through the app (docs/sync.md): setup keeps the key in the key store (never in the
//! settings), answers its recovery code once; another data folder joins with it and receives a
//! journal entry; a wrong code is refused and sets nothing up.

use std::sync::Arc;

use vibe_core::app::{App, AppPaths, EphemeralKeys, KeyStore, Overrides};
use vibe_wire::ErrorKind;
use vibe_wire::command::{
    JournalAddRequest, JournalListRequest, SyncJoinRequest, SyncSetupRequest,
};

fn keyed() -> Overrides {
    Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new("a sync test passphrase".to_string())),
        ..Overrides::default()
    }
}

fn open(dir: &std::path::Path, keys: Arc<EphemeralKeys>) -> App {
    App::open_with_keys(AppPaths::new(dir), keyed(), keys).unwrap()
}

fn journal_add(app: &App, text: &str) {
    let request = JournalAddRequest {
        date: None,
        mood: None,
        feelings: Vec::new(),
        text: text.into(),
        tags: Vec::new(),
    };
    app.journal_add(&request).unwrap();
}

#[tokio::test]
async fn setup_keeps_the_key_in_the_key_store_and_a_joined_folder_receives_the_journal() {
    let (target, a_dir, b_dir) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let folder = target.path().to_str().unwrap().to_string();
    let a_keys = Arc::new(EphemeralKeys::default());
    let a = open(a_dir.path(), a_keys.clone());
    assert!(!a.sync_status().unwrap().enabled);
    let done = a.sync_setup(&SyncSetupRequest { folder: folder.clone() }).await.unwrap();
    assert!(done.code.starts_with("VL1-"), "{}", done.code);
    assert!(done.status.enabled);
    let account = format!("sync-{}", vibe_core::app::db_key_account(a_dir.path()));
    assert_eq!(
        a_keys.get_db_key(&account).unwrap().as_deref().map(String::as_str),
        Some(done.code.as_str())
    );
    let settings = std::fs::read_to_string(a_dir.path().join("settings.json")).unwrap();
    let body = done.code.replace('-', "");
    assert!(!settings.contains(&done.code) && !settings.contains(&body[3..]), "{settings}");
    // Setting up twice is refused.
    let again = a.sync_setup(&SyncSetupRequest { folder: folder.clone() }).await.unwrap_err();
    assert_eq!(again.kind(), ErrorKind::InvalidInput);

    journal_add(&a, "今天很平静 sync-marker");
    assert_eq!(a.sync_status().unwrap().pending_changes, 1);
    let sent = a.sync_now().await.unwrap();
    assert_eq!(sent.sent, 1);

    let b = open(b_dir.path(), Arc::new(EphemeralKeys::default()));
    let wrong = SyncJoinRequest { folder: folder.clone(), code: "VL1-AAAA".into() };
    assert_eq!(b.sync_join(&wrong).await.unwrap_err().kind(), ErrorKind::InvalidInput);
    let other = vibe_sync::SyncKey::generate().unwrap().code().to_string();
    let wrong = SyncJoinRequest { folder: folder.clone(), code: other };
    let err = b.sync_join(&wrong).await.unwrap_err();
    assert!(err.to_string().contains("does not open"), "{err}");
    assert!(!b.sync_status().unwrap().enabled);
    assert!(b.settings().sync.folder.is_none());

    b.sync_join(&SyncJoinRequest { folder, code: done.code.clone() }).await.unwrap();
    let got = b.sync_now().await.unwrap();
    assert_eq!((got.received, got.changed), (1, 1));
    let list = b.journal_list(&JournalListRequest::default()).unwrap();
    assert_eq!(list.entries.len(), 1);
    assert!(list.entries[0].text.contains("sync-marker"));
    assert_eq!(b.sync_status().unwrap().devices.len(), 2);
}

/// A key store with no place for keys but API keys (a machine without a keychain).
struct NoKeychain;

impl KeyStore for NoKeychain {
    fn get(&self, _: &str) -> Option<vibe_llm::ApiKey> {
        None
    }
    fn set(&self, _: &str, _: &vibe_llm::ApiKey) -> Result<(), vibe_core::app::AppError> {
        Ok(())
    }
    fn clear(&self, _: &str) -> Result<(), vibe_core::app::AppError> {
        Ok(())
    }
}

#[tokio::test]
async fn without_a_keychain_setup_writes_nothing_and_says_how_to_give_the_code() {
    let (target, dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let app =
        App::open_with_keys(AppPaths::new(dir.path()), keyed(), Arc::new(NoKeychain)).unwrap();
    let folder = target.path().to_str().unwrap().to_string();
    let err = app.sync_setup(&SyncSetupRequest { folder }).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Keychain);
    assert!(err.to_string().contains("VIBE_SYNC_CODE"), "{err}");
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0, "the target stays empty");
    assert!(!app.sync_status().unwrap().enabled);
}
