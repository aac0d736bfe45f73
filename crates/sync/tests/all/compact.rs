//! Compaction (docs/sync.md, "Compaction"): a device's batches become one snapshot once enough
//! follow its last one; a device that never read them, and one joining later, converge through
//! the snapshot; the folder stays small however long the device writes; a run stopped at any
//! step of a compaction loses nothing.

use std::sync::atomic::{AtomicUsize, Ordering};

use vibe_sync::{DalTarget, SyncError, SyncKey, SyncReport, Target};

use super::devices::{Device, target};

const AFTER: u64 = 3;

impl Device {
    async fn sync_compacting(&self, target: &impl Target, key: &SyncKey) -> SyncReport {
        vibe_sync::sync_now_with(&self.store, target, key, Some(&self.id), AFTER).await.unwrap()
    }
}

/// The names of `device`'s files on the target.
fn names(dir: &std::path::Path, device: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("devices").join(device))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// `a` writes, edits and deletes over several runs, compacting on the way; `b` read only the
/// start of it.
async fn history(a: &Device, b: &Device, target: &DalTarget, key: &SyncKey) -> Vec<SyncReport> {
    a.add("one");
    a.add("two");
    a.sync_compacting(target, key).await;
    b.sync_compacting(target, key).await;
    let mut reports = Vec::new();
    for i in 0..5 {
        a.add(&format!("e{i}"));
        reports.push(a.sync_compacting(target, key).await);
    }
    a.edit("one", "one edited");
    a.delete("two");
    a.delete("e1");
    reports.push(a.sync_compacting(target, key).await);
    reports
}

#[tokio::test]
async fn a_device_that_missed_the_compacted_batches_and_a_late_joiner_converge_through_the_snapshot()
 {
    let (dir, target, key) = target().await;
    let a = Device::new("dev-a");
    let b = Device::new("dev-b");
    let reports = history(&a, &b, &target, &key).await;
    assert!(reports.iter().any(|r| r.compacted.is_some()), "a compacted its files");
    let files = names(dir.path(), "dev-a");
    assert!(files.iter().any(|n| n.starts_with("snapshot-")), "{files:?}");
    assert!(files.len() <= AFTER as usize, "the snapshot replaced the batches: {files:?}");

    b.sync_compacting(&target, &key).await;
    assert_eq!(b.journal(), a.journal());
    assert_eq!(b.texts().len(), 5, "{:?}", b.texts());
    assert!(!b.texts().contains(&"two".to_string()));

    // A device joining later reads a's snapshot and the batches after it, not the history.
    let c = Device::new("dev-c");
    let report = c.sync_compacting(&target, &key).await;
    assert_eq!(c.journal(), a.journal());
    assert!(report.received <= AFTER + 1, "read {} files", report.received);

    // Syncing again changes nothing anywhere.
    for d in [&a, &b, &c] {
        let again = d.sync_compacting(&target, &key).await;
        assert_eq!((again.put, again.deleted), (0, 0));
        assert!(again.refused.is_empty(), "{:?}", again.refused);
    }
    assert_eq!(a.journal(), c.journal());
}

#[tokio::test]
async fn a_device_writing_for_long_keeps_a_bounded_number_of_files() {
    let (dir, target, key) = target().await;
    let a = Device::new("dev-a");
    for i in 0..30 {
        a.add(&format!("entry {i}"));
        if i % 2 == 0 {
            a.delete_at(0);
        }
        a.sync_compacting(&target, &key).await;
        let files = names(dir.path(), "dev-a");
        assert!(files.len() <= AFTER as usize + 1, "after run {i}: {files:?}");
    }
    let c = Device::new("dev-c");
    c.sync_compacting(&target, &key).await;
    assert_eq!(c.journal(), a.journal());
    assert_eq!(c.texts().len(), 15);
}

/// A target on which a run dies (every call fails) once `deletes` removals were made: a run
/// killed in the middle of a compaction, after its snapshot was written.
struct DiesDeleting {
    inner: DalTarget,
    deletes: usize,
    made: AtomicUsize,
}

impl DiesDeleting {
    fn dead(&self) -> SyncError {
        SyncError::Unreachable { target: self.shown().into(), why: "killed".into() }
    }
}

impl Target for DiesDeleting {
    fn shown(&self) -> &str {
        self.inner.shown()
    }

    async fn read(&self, path: &str) -> vibe_sync::Result<Option<Vec<u8>>> {
        self.inner.read(path).await
    }

    async fn write(&self, path: &str, bytes: Vec<u8>) -> vibe_sync::Result<()> {
        self.inner.write(path, bytes).await
    }

    async fn list(&self, dir: &str) -> vibe_sync::Result<Vec<String>> {
        self.inner.list(dir).await
    }

    async fn delete(&self, path: &str) -> vibe_sync::Result<()> {
        if self.made.fetch_add(1, Ordering::SeqCst) >= self.deletes {
            return Err(self.dead());
        }
        self.inner.delete(path).await
    }
}

#[tokio::test]
async fn a_run_stopped_at_any_step_of_a_compaction_loses_nothing() {
    for deletes in 0..AFTER as usize {
        let (dir, target, key) = target().await;
        let a = Device::new("dev-a");
        let b = Device::new("dev-b");
        b.sync_compacting(&target, &key).await;
        for i in 0..AFTER {
            a.add(&format!("e{i}"));
            if i + 1 < AFTER {
                a.sync_compacting(&target, &key).await;
            }
        }
        a.delete("e0");
        let dying = DiesDeleting { inner: target.clone(), deletes, made: AtomicUsize::new(0) };
        let err = vibe_sync::sync_now_with(&a.store, &dying, &key, None, AFTER).await.unwrap_err();
        assert!(matches!(err, SyncError::Unreachable { .. }), "{err}");
        let files = names(dir.path(), "dev-a");
        assert!(files.iter().any(|n| n.starts_with("snapshot-")), "{deletes}: {files:?}");

        // What the stopped run left reads the same to a device that read none of it.
        let late = Device::new("dev-c");
        let report = late.sync_compacting(&target, &key).await;
        assert!(report.refused.is_empty(), "{deletes}: {:?}", report.refused);
        assert_eq!(late.journal(), a.journal(), "{deletes} removals before the stop");
        // The next run finishes the compaction; everyone converges.
        let report = a.sync_compacting(&target, &key).await;
        assert!(report.new_device_id.is_none(), "its own snapshot is not another copy's");
        for d in [&b, &late] {
            d.sync_compacting(&target, &key).await;
            assert_eq!(d.journal(), a.journal(), "{deletes} removals before the stop");
        }
        assert_eq!(a.texts().len(), AFTER as usize - 1);
        assert_eq!(names(dir.path(), "dev-a"), vec!["snapshot-000000000003.vlsync"]);
    }
}

#[tokio::test]
async fn a_batch_renamed_to_a_snapshot_s_name_is_refused() {
    let (dir, target, key) = target().await;
    let a = Device::new("dev-a");
    let b = Device::new("dev-b");
    a.add("x");
    a.sync_compacting(&target, &key).await;
    let folder = dir.path().join("devices/dev-a");
    std::fs::rename(
        folder.join("000000000001.vlsync"),
        folder.join("snapshot-000000000001.vlsync"),
    )
    .unwrap();
    let report = b.sync_compacting(&target, &key).await;
    assert!(matches!(report.refused[..], [SyncError::Replayed { .. }]), "{:?}", report.refused);
    assert!(b.texts().is_empty());
}

#[tokio::test]
async fn a_snapshot_written_before_a_device_was_removed_still_opens_and_later_ones_too() {
    let (_dir, target, key) = target().await;
    let a = Device::new("dev-a");
    let b = Device::new("dev-b");
    b.sync_compacting(&target, &key).await;
    for i in 0..AFTER {
        a.add(&format!("before {i}"));
        a.sync_compacting(&target, &key).await;
    }
    let new = SyncKey::generate().unwrap();
    vibe_sync::remove_device(&target, &key, &new, "dev-b").await.unwrap();
    // A device joining with the new key reads the snapshot written under the old one.
    let c = Device::new("dev-c");
    let report = c.sync_compacting(&target, &new).await;
    assert!(report.refused.is_empty(), "{:?}", report.refused);
    assert_eq!(c.journal(), a.journal());
    // a goes on with the new key and compacts again: its new snapshot opens too.
    for i in 0..AFTER {
        a.add(&format!("after {i}"));
        a.sync_compacting(&target, &new).await;
    }
    let d = Device::new("dev-d");
    let report = d.sync_compacting(&target, &new).await;
    assert!(report.refused.is_empty(), "{:?}", report.refused);
    assert_eq!(d.texts().len(), 2 * AFTER as usize);
    assert_eq!(d.journal(), a.journal());
    c.sync_compacting(&target, &new).await;
    assert_eq!(c.journal(), a.journal());
}

/// Regression: a device reading a deletion before the put it deletes (or only a snapshot) had
/// no list where the others had an emptied one.
#[tokio::test]
async fn an_emptied_list_exists_on_every_device_whatever_order_its_put_and_deletion_arrive_in() {
    for after in [1000u64, 1] {
        let (_dir, target, key) = target().await;
        let [a, b, c] = [Device::new("dev-a"), Device::new("dev-b"), Device::new("dev-c")];
        c.add("e");
        vibe_sync::sync_now_with(&c.store, &target, &key, None, after).await.unwrap();
        vibe_sync::sync_now_with(&b.store, &target, &key, None, after).await.unwrap();
        b.delete_at(0);
        // a reads dev-b's deletion before dev-c's put.
        for d in [&c, &b, &a, &c, &b, &a] {
            vibe_sync::sync_now_with(&d.store, &target, &key, None, after).await.unwrap();
        }
        for d in [&a, &b, &c] {
            let data = d.store.read_state(vibe_store::LOCAL_USER, "lifecoach", None).unwrap().data;
            assert_eq!(
                data["journal"],
                serde_json::json!([]),
                "{} (compacting after {after})",
                d.id
            );
        }
    }
}
