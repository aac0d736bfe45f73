//! A run stopped after its batch reached the target but before the store marked it written
//! (a kill, a lost connection): the next run writes the same operations under the same name
//! and numbers new ones after it, so no peer loses or duplicates anything.

use vibe_sync::{DalTarget, Place, SyncError, Target};

use super::devices::{Device, target};

/// A target whose writes land but then report a failure, as a run killed just after writing.
struct LostAnswer(DalTarget);

impl Target for LostAnswer {
    fn shown(&self) -> &str {
        self.0.shown()
    }

    async fn read(&self, path: &str) -> vibe_sync::Result<Option<Vec<u8>>> {
        self.0.read(path).await
    }

    async fn write(&self, path: &str, bytes: Vec<u8>) -> vibe_sync::Result<()> {
        self.0.write(path, bytes).await?;
        Err(SyncError::Unreachable { target: self.shown().into(), why: "connection lost".into() })
    }

    async fn list(&self, dir: &str) -> vibe_sync::Result<Vec<String>> {
        self.0.list(dir).await
    }

    async fn delete(&self, path: &str) -> vibe_sync::Result<()> {
        self.0.delete(path).await
    }
}

#[tokio::test]
async fn a_run_stopped_after_writing_loses_and_duplicates_nothing() {
    let (_dir, target, key) = target().await;
    let a = Device::new("dev-a");
    let b = Device::new("dev-b");
    a.add("x");
    let lost = LostAnswer(target.clone());
    let err = vibe_sync::sync_now(&a.store, &lost, &key, None).await.unwrap_err();
    assert!(matches!(err, SyncError::Unreachable { .. }), "{err}");
    assert_eq!(a.store.sync_device().unwrap().unwrap().uploaded, 0);

    // b already read the batch that landed.
    b.sync(&target, &key).await;
    assert_eq!(b.texts(), vec!["x"]);

    a.add("y");
    let report = a.sync(&target, &key).await;
    assert_eq!(report.sent, 2, "the landed batch again, then the new one");
    assert!(report.new_device_id.is_none(), "its own landed file is not another copy's");
    b.sync(&target, &key).await;
    assert_eq!(b.texts(), vec!["y", "x"]);
    assert_eq!(a.journal(), b.journal());
}

#[tokio::test]
async fn a_file_cut_short_while_written_is_refused_then_written_again_whole() {
    let (dir, target, key) = target().await;
    let a = Device::new("dev-a");
    let b = Device::new("dev-b");
    a.add("x");
    // As an upload cut off (a WebDAV server keeping what arrived, a killed writer): half of the
    // batch at its place, and a temporary name left beside it.
    let sealed = a.store.sync_seal().unwrap().remove(0);
    let plain = serde_json::to_vec(&serde_json::json!({"ops": sealed.ops})).unwrap();
    let bytes = vibe_sync::seal(&key, &Place { device: "dev-a", number: 1 }, &plain).unwrap();
    let folder = dir.path().join("devices/dev-a");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("000000000001.vlsync"), &bytes[..bytes.len() / 2]).unwrap();
    std::fs::write(folder.join("000000000002.vlsync.part-0123abcd"), b"partial").unwrap();

    let report = b.sync(&target, &key).await;
    assert!(matches!(report.refused[..], [SyncError::Truncated { .. }]), "{:?}", report.refused);
    assert!(b.texts().is_empty(), "nothing of a cut-short file is merged");

    let report = a.sync(&target, &key).await;
    assert_eq!((report.sent, report.new_device_id), (1, None), "its own cut-short file");
    let names: Vec<_> =
        std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec!["000000000001.vlsync"], "the leftover temporary file is gone");
    let report = b.sync(&target, &key).await;
    assert!(report.refused.is_empty(), "{:?}", report.refused);
    assert_eq!(b.texts(), vec!["x"]);
}
