//! Files that must not be merged: a wrong code, a flipped byte, a file cut short, a file
//! replayed under another device's name. Each is refused with its own error and nothing of it
//! reaches the store; the target never holds clear text or the key.

use vibe_sync::{DalTarget, SyncError, SyncKey, batch_path};

use super::devices::{Device, files, target};

const MARKER: &str = "MARKER-4f1c-only-in-clear-text";

/// A target with one batch of dev-a holding the marker.
async fn written() -> (tempfile::TempDir, DalTarget, SyncKey, std::path::PathBuf) {
    let (dir, target, key) = target().await;
    let a = Device::new("dev-a");
    a.add(MARKER);
    a.sync(&target, &key).await;
    let file = dir.path().join(batch_path("dev-a", 1));
    assert!(file.exists());
    (dir, target, key, file)
}

#[tokio::test]
async fn the_target_holds_no_clear_text_and_no_key() {
    let (dir, _target, key, _) = written().await;
    let code = key.code();
    for (path, bytes) in files(dir.path()) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(MARKER), "clear text in {}", path.display());
        assert!(!text.contains("journal") && !text.contains("lifecoach"), "{}", path.display());
        let code_body = code.replace('-', "");
        assert!(!text.contains(&code_body[3..]), "the key in {}", path.display());
    }
}

#[tokio::test]
async fn a_wrong_code_is_refused_and_nothing_is_merged() {
    let (_dir, target, _key, _) = written().await;
    let b = Device::new("dev-b");
    let wrong = SyncKey::generate().unwrap();
    let err = vibe_sync::check_key(&target, &wrong).await.unwrap_err();
    assert!(matches!(err, SyncError::WrongKey { .. }), "{err}");
    let err = vibe_sync::sync_now(&b.store, &target, &wrong, None).await.unwrap_err();
    assert!(matches!(err, SyncError::WrongKey { .. }), "{err}");
    assert!(b.journal().is_empty());
    // Nor can a setup with another code take the folder over.
    let err = vibe_sync::setup(&target, &wrong).await.unwrap_err();
    assert!(matches!(err, SyncError::TargetInUse(_)), "{err}");
}

#[tokio::test]
async fn a_flipped_byte_or_a_cut_file_is_refused_then_the_good_file_merges() {
    let (_dir, target, key, file) = written().await;
    let good = std::fs::read(&file).unwrap();
    let b = Device::new("dev-b");

    let mut flipped = good.clone();
    let at = flipped.len() / 2 + 20;
    flipped[at] ^= 0x01;
    std::fs::write(&file, &flipped).unwrap();
    let report = b.sync(&target, &key).await;
    assert!(
        matches!(report.refused.as_slice(), [SyncError::Tampered { .. }]),
        "{:?}",
        report.refused
    );
    assert!(b.journal().is_empty());

    std::fs::write(&file, &good[..good.len() - 10]).unwrap();
    let report = b.sync(&target, &key).await;
    assert!(
        matches!(report.refused.as_slice(), [SyncError::Truncated { .. }]),
        "{:?}",
        report.refused
    );
    assert!(b.journal().is_empty());

    std::fs::write(&file, &good).unwrap();
    let report = b.sync(&target, &key).await;
    assert!(report.refused.is_empty());
    assert_eq!(b.texts(), vec![MARKER]);
}

#[tokio::test]
async fn a_file_replayed_under_another_device_s_name_is_refused() {
    let (dir, _target, key, file) = written().await;
    // A second target with the same key holding only the copy, under dev-c's name.
    let other = tempfile::tempdir().unwrap();
    let target2 = DalTarget::folder(other.path()).unwrap();
    std::fs::copy(dir.path().join(vibe_sync::KEY_CHECK), other.path().join(vibe_sync::KEY_CHECK))
        .unwrap();
    let copy = other.path().join(batch_path("dev-c", 1));
    std::fs::create_dir_all(copy.parent().unwrap()).unwrap();
    std::fs::copy(&file, &copy).unwrap();
    let b = Device::new("dev-b");
    let report = b.sync(&target2, &key).await;
    assert!(
        matches!(report.refused.as_slice(), [SyncError::Replayed { .. }]),
        "{:?}",
        report.refused
    );
    assert!(b.journal().is_empty());
    assert!(b.store.sync_peers().unwrap().iter().all(|p| p.applied == 0));
}

#[tokio::test]
async fn an_unreachable_target_is_an_error_and_changes_nothing() {
    let (dir, _target, key, _) = written().await;
    // A folder that cannot be made (its parent is a file).
    let blocked = dir.path().join(vibe_sync::KEY_CHECK).join("sub");
    let err = DalTarget::folder(&blocked).unwrap_err();
    assert!(matches!(err, SyncError::Unreachable { .. }), "{err}");
    // A folder that went away between two runs (an unmounted drive).
    let gone = tempfile::tempdir().unwrap();
    let target = DalTarget::folder(gone.path()).unwrap();
    vibe_sync::setup(&target, &key).await.unwrap();
    let b = Device::new("dev-b");
    b.add("kept here");
    std::fs::remove_dir_all(gone.path()).unwrap();
    std::fs::write(gone.path(), b"not a folder").unwrap();
    let err = vibe_sync::sync_now(&b.store, &target, &key, None).await.unwrap_err();
    assert!(matches!(err, SyncError::Unreachable { .. }), "{err}");
    assert_eq!(b.texts(), vec!["kept here"]);
    assert_eq!(b.store.sync_device().unwrap().unwrap().uploaded, 0);
}
