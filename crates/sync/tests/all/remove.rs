//! Removing a device replaces the key: the removed device can read nothing written after,
//! its later files are refused everywhere, and the devices that stay (joined again with the
//! new code) keep converging, earlier files included.

use vibe_sync::{Place, SyncError, batch_path};

use super::devices::{Device, target};

#[tokio::test]
async fn a_removed_device_reads_nothing_new_and_its_later_files_are_refused() {
    let (dir, target, old) = target().await;
    let (a, b, c) = (Device::new("dev-a"), Device::new("dev-b"), Device::new("dev-c"));
    a.add("from a");
    c.add("from c, before");
    for d in [&a, &b, &c, &a, &b] {
        d.sync(&target, &old).await;
    }
    assert_eq!(b.texts().len(), 2);

    let new = vibe_sync::SyncKey::generate().unwrap();
    vibe_sync::remove_device(&target, &old, &new, "dev-c").await.unwrap();
    let devices = vibe_sync::devices(&target, &new).await.unwrap();
    assert_eq!(devices, vec!["dev-a", "dev-b"]);

    // c, with the old key only, cannot open the target any more.
    let err = vibe_sync::sync_now(&c.store, &target, &old, None).await.unwrap_err();
    assert!(matches!(err, SyncError::WrongKey { .. }), "{err}");
    // A file c writes anyway, with the key it has, is refused and merges nothing.
    c.add("from c, after removal");
    let sealed = c.store.sync_seal().unwrap().pop().unwrap();
    let plain = serde_json::to_vec(&serde_json::json!({"ops": sealed.ops})).unwrap();
    let place = Place { device: "dev-c", number: sealed.number };
    let bytes = vibe_sync::seal(&old, &place, &plain).unwrap();
    let path = batch_path("dev-c", sealed.number);
    std::fs::write(dir.path().join(&path), bytes).unwrap();

    a.add("from a, after removal");
    let report = a.sync(&target, &new).await;
    assert!(
        matches!(report.refused.as_slice(), [SyncError::Removed { device, .. }] if device == "dev-c"),
        "{:?}",
        report.refused
    );
    let report = b.sync(&target, &new).await;
    assert!(
        matches!(report.refused.as_slice(), [SyncError::Removed { .. }]),
        "{:?}",
        report.refused
    );
    assert_eq!(a.journal(), b.journal());
    let mut texts = b.texts();
    texts.sort();
    assert_eq!(texts, vec!["from a", "from a, after removal", "from c, before"]);

    // A device joining now, with the new code, reads the files written before with the old key.
    let d = Device::new("dev-d");
    let report = d.sync(&target, &new).await;
    assert_eq!(report.refused.len(), 1, "{:?}", report.refused);
    assert_eq!(d.journal(), a.journal());
    assert!(vibe_sync::check_key(&target, &old).await.is_err());
}
