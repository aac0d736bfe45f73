//! Sync through a folder that two real Syncthing instances (Debian's `syncthing`, on
//! 127.0.0.1) keep in step between two places, as a person's Syncthing does between two
//! machines (docs/sync.md#tests): device A sets up sync on its copy; device B joins with the
//! recovery code through its own copy once Syncthing brought the key check there; A writes a
//! journal entry and syncs, Syncthing carries the files, B syncs and sees the entry; B's entry
//! travels back the same way. Syncthing only ever carries
//! ciphertext and never has a conflict to resolve (each device writes only its own files).

use std::sync::Arc;

use vibe_core::app::{App, AppPaths, EphemeralKeys, Overrides};
use vibe_test_support::SyncthingPair;
use vibe_wire::command::{JournalListRequest, SyncJoinRequest, SyncSetupRequest};
use vibe_wire::settings::SyncTarget;

const MARKER: &str = "syncthing-marker-4b1e 今天去爬山了";

fn open(dir: &std::path::Path) -> App {
    let overrides = Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new("a syncthing test passphrase".to_string())),
        ..Overrides::default()
    };
    App::open_with_keys(AppPaths::new(dir), overrides, Arc::new(EphemeralKeys::default())).unwrap()
}

fn folder(dir: &std::path::Path) -> SyncTarget {
    SyncTarget::Folder { path: dir.to_str().unwrap().into() }
}

fn journal(app: &App) -> Vec<String> {
    let list = app.journal_list(&JournalListRequest::default()).unwrap();
    let mut texts: Vec<String> = list.entries.into_iter().map(|e| e.text).collect();
    texts.sort();
    texts
}

/// One sync of `app`: nothing refused or skipped; answers how many changes it applied here.
async fn sync(app: &App) -> u64 {
    let run = app.sync_now().await.unwrap();
    assert!(run.refused.is_empty() && run.skipped.is_empty(), "{run:?}");
    run.changed
}

#[tokio::test]
async fn a_journal_entry_made_on_one_device_reaches_the_other_through_two_syncthings() {
    let dirs: Vec<_> = (0..4).map(|_| tempfile::tempdir().unwrap()).collect();
    let (a_share, b_share) = (dirs[0].path().join("Sync"), dirs[1].path().join("Sync"));
    let mut syncthing = SyncthingPair::start(&a_share, &b_share);
    let (a, b) = (open(dirs[2].path()), open(dirs[3].path()));

    // A sets sync up on its copy; Syncthing brings the key check to B's copy, where B joins.
    let code = a.sync_setup(&SyncSetupRequest { target: folder(&a_share), secret: None }).await;
    let code = code.unwrap().code;
    sync(&a).await;
    syncthing.wait_until_carried();
    let join = SyncJoinRequest { target: folder(&b_share), secret: None, code: code.clone() };
    b.sync_join(&join).await.unwrap();
    assert_eq!(sync(&b).await, 0, "nothing written yet");
    assert!(journal(&b).is_empty());

    // A writes a journal entry and syncs; once Syncthing carried it, B's sync applies it.
    crate::sync::journal_add(&a, MARKER);
    sync(&a).await;
    let carried = syncthing.wait_until_carried();
    assert!(carried.len() >= 3, "the key check and a's and b's batches: {:?}", carried.keys());
    for (name, bytes) in &carried {
        for needle in [MARKER.as_bytes(), code.as_bytes(), b"syncthing-marker"] {
            let clear = bytes.windows(needle.len()).any(|w| w == needle);
            assert!(!clear, "{name} holds {:?} in clear", String::from_utf8_lossy(needle));
        }
    }
    assert_eq!(sync(&b).await, 1, "a's entry, applied on b");
    assert_eq!(journal(&b), vec![MARKER.to_string()]);

    // And back: B's entry reaches A through the same two Syncthings.
    crate::sync::journal_add(&b, "written on b");
    sync(&b).await;
    syncthing.wait_until_carried();
    assert_eq!(sync(&a).await, 1, "b's entry, applied on a");
    assert_eq!(journal(&a), journal(&b));
    assert_eq!(journal(&a).len(), 2);
    for app in [&a, &b] {
        assert_eq!(app.sync_status().unwrap().devices.len(), 2);
    }
}
