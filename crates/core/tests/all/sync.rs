//! Sync through the app (docs/sync.md): setup keeps the key in the key store (never in the
//! settings), answers its recovery code once; another data folder joins with it and receives a
//! journal entry; a wrong code is refused and sets nothing up.

use std::sync::Arc;

use vibe_core::app::{App, AppPaths, EphemeralKeys, KeyStore, Overrides};
use vibe_wire::ErrorKind;
use vibe_wire::command::{
    JournalAddRequest, JournalListRequest, SyncJoinRequest, SyncRemoveDeviceRequest,
    SyncSetupRequest,
};
use vibe_wire::settings::SyncTarget;

fn keyed() -> Overrides {
    Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new("a sync test passphrase".to_string())),
        ..Overrides::default()
    }
}

fn setup_request(folder: &str) -> SyncSetupRequest {
    SyncSetupRequest { target: SyncTarget::Folder { path: folder.into() }, secret: None }
}

fn join_request(folder: &str, code: impl Into<String>) -> SyncJoinRequest {
    let target = SyncTarget::Folder { path: folder.into() };
    SyncJoinRequest { target, secret: None, code: code.into() }
}

fn open(dir: &std::path::Path, keys: Arc<EphemeralKeys>) -> App {
    App::open_with_keys(AppPaths::new(dir), keyed(), keys).unwrap()
}

/// A journal entry of `text`, today, through the app (as the person's journal screen adds one);
/// also used by `sync_runner` and `sync_remote`.
pub(crate) fn journal_add(app: &App, text: &str) {
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
    let done = a.sync_setup(&setup_request(&folder)).await.unwrap();
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
    let again = a.sync_setup(&setup_request(&folder)).await.unwrap_err();
    assert_eq!(again.kind(), ErrorKind::InvalidInput);

    journal_add(&a, "今天很平静 sync-marker");
    assert_eq!(a.sync_status().unwrap().pending_changes, 1);
    let sent = a.sync_now().await.unwrap();
    assert_eq!(sent.sent, 1);

    let b = open(b_dir.path(), Arc::new(EphemeralKeys::default()));
    let wrong = join_request(&folder, "VL1-AAAA");
    assert_eq!(b.sync_join(&wrong).await.unwrap_err().kind(), ErrorKind::InvalidInput);
    let other = vibe_sync::SyncKey::generate().unwrap().code().to_string();
    let wrong = join_request(&folder, other);
    let err = b.sync_join(&wrong).await.unwrap_err();
    assert!(err.to_string().contains("does not open"), "{err}");
    assert!(!b.sync_status().unwrap().enabled);
    assert!(b.settings().sync.effective_target().is_none());

    b.sync_join(&join_request(&folder, done.code.clone())).await.unwrap();
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
    let err = app.sync_setup(&setup_request(&folder)).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Keychain);
    assert!(err.to_string().contains("VIBE_SYNC_CODE"), "{err}");
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0, "the target stays empty");
    assert!(!app.sync_status().unwrap().enabled);
}

#[tokio::test]
async fn removing_a_device_replaces_the_code_the_others_join_again_and_the_removed_one_is_shut_out()
{
    let dirs: Vec<_> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    let folder = dirs[0].path().to_str().unwrap().to_string();
    let a = open(dirs[1].path(), Arc::new(EphemeralKeys::default()));
    let b = open(dirs[2].path(), Arc::new(EphemeralKeys::default()));
    let lost = open(dirs[3].path(), Arc::new(EphemeralKeys::default()));
    let code = a.sync_setup(&setup_request(&folder)).await.unwrap().code;
    for app in [&b, &lost] {
        app.sync_join(&join_request(&folder, code.clone())).await.unwrap();
    }
    for app in [&a, &b, &lost, &a] {
        app.sync_now().await.unwrap();
    }
    let lost_id = lost.sync_status().unwrap().device_id.unwrap();
    let me = a.sync_status().unwrap().device_id.unwrap();
    let own = a.sync_remove_device(&SyncRemoveDeviceRequest { device_id: me }).await;
    assert_eq!(own.unwrap_err().kind(), ErrorKind::InvalidInput);

    let done = a
        .sync_remove_device(&SyncRemoveDeviceRequest { device_id: lost_id.clone() })
        .await
        .unwrap();
    assert!(done.code.starts_with("VL1-") && done.code != code);
    assert!(done.status.devices.iter().all(|d| d.device_id != lost_id));
    let listed = a.sync_devices().await.unwrap().devices;
    assert!(listed.iter().all(|d| d.device_id != lost_id), "{listed:?}");

    // b, still on the old code, is told to join again; with the new code it keeps its id.
    let err = b.sync_now().await.unwrap_err();
    assert!(err.to_string().contains("join again"), "{err}");
    let b_id = b.sync_status().unwrap().device_id;
    b.sync_join(&join_request(&folder, done.code.clone())).await.unwrap();
    assert_eq!(b.sync_status().unwrap().device_id, b_id);

    // The removed device cannot sync (or read) any more; the others keep converging.
    journal_add(&lost, "written on the lost device");
    assert!(lost.sync_now().await.is_err());
    journal_add(&a, "after the removal");
    a.sync_now().await.unwrap();
    b.sync_now().await.unwrap();
    let texts = |app: &App| {
        let list = app.journal_list(&JournalListRequest::default()).unwrap();
        list.entries.into_iter().map(|e| e.text).collect::<Vec<_>>()
    };
    assert_eq!(texts(&b), vec!["after the removal".to_string()]);
    assert_eq!(texts(&a), texts(&b));
}
