//! A backup restored on a second machine holds the same device id as the first: the copy
//! that finds another copy's file under its id takes a new id and reads the other as a peer.
//! Both keep what they wrote, and every device converges.

use serde_json::json;
use vibe_store::{AppendCap, ChangeBy, LOCAL_USER as U, Store};

use super::devices::{Device, target};

fn add(store: &Store, text: &str) {
    let cap = AppendCap::NONE;
    store
        .append_to_list_by(U, "lifecoach", "journal", json!({"text": text}), cap, &ChangeBy::Cli)
        .unwrap();
}

fn texts(store: &Store) -> Vec<String> {
    let read = store.read_state(U, "lifecoach", None).unwrap();
    let mut texts: Vec<String> = read.data["journal"]
        .as_array()
        .map(|a| a.iter().map(|e| e["text"].as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    texts.sort();
    texts
}

/// A data folder's database synced once as `dev-a`, and a copy of it (the restored backup).
async fn twins(dir: &std::path::Path) -> (Store, Store) {
    let (file, copy) = (dir.join("a.db"), dir.join("restored.db"));
    {
        let store = Store::open(&file).unwrap();
        store.sync_enable("dev-a").unwrap();
        add(&store, "before the backup");
    }
    std::fs::copy(&file, &copy).unwrap();
    (Store::open(&file).unwrap(), Store::open(&copy).unwrap())
}

#[tokio::test]
async fn a_restored_copy_writing_under_the_same_id_takes_a_new_one_and_both_converge() {
    let (_t, target, key) = target().await;
    let data = tempfile::tempdir().unwrap();
    let (a, restored) = twins(data.path()).await;
    vibe_sync::sync_now(&a, &target, &key, None).await.unwrap();
    add(&a, "on the first machine");
    add(&restored, "on the restored copy");
    vibe_sync::sync_now(&a, &target, &key, None).await.unwrap();

    let report = vibe_sync::sync_now(&restored, &target, &key, None).await.unwrap();
    let new = report.new_device_id.clone().expect("the copy takes a new id");
    assert_ne!(new, "dev-a");
    assert_eq!(restored.sync_device().unwrap().unwrap().device_id, new);
    let again = vibe_sync::sync_now(&a, &target, &key, None).await.unwrap();
    assert!(again.new_device_id.is_none() && again.refused.is_empty(), "{again:?}");

    let b = Device::new("dev-b");
    b.sync(&target, &key).await;
    let want = vec!["before the backup", "on the first machine", "on the restored copy"];
    for store in [&a, &restored, &b.store] {
        assert_eq!(texts(store), want);
    }
}

#[tokio::test]
async fn a_restored_copy_that_only_reads_notices_the_other_and_receives_its_changes() {
    let (_t, target, key) = target().await;
    let data = tempfile::tempdir().unwrap();
    let (a, restored) = twins(data.path()).await;
    vibe_sync::sync_now(&a, &target, &key, None).await.unwrap();
    add(&a, "on the first machine");
    vibe_sync::sync_now(&a, &target, &key, None).await.unwrap();
    // The copy's sealed first batch is the same as the one a wrote: its own, not a twin's.
    let report = vibe_sync::sync_now(&restored, &target, &key, None).await.unwrap();
    assert!(report.new_device_id.is_some(), "{report:?}");
    assert_eq!(texts(&restored), vec!["before the backup", "on the first machine"]);
}

#[tokio::test]
async fn a_restored_copy_notices_the_other_even_after_it_compacted_its_files_away() {
    let (_t, target, key) = target().await;
    let data = tempfile::tempdir().unwrap();
    let (a, restored) = twins(data.path()).await;
    // The first machine syncs twice and compacts: its batch files are gone, a snapshot stays.
    vibe_sync::sync_now_with(&a, &target, &key, None, 1).await.unwrap();
    add(&a, "on the first machine");
    let report = vibe_sync::sync_now_with(&a, &target, &key, None, 1).await.unwrap();
    assert!(report.compacted.is_some());
    add(&restored, "on the restored copy");

    let report = vibe_sync::sync_now_with(&restored, &target, &key, None, 1).await.unwrap();
    assert!(report.new_device_id.is_some(), "the copy sees the snapshot past what it wrote");
    vibe_sync::sync_now_with(&a, &target, &key, None, 1).await.unwrap();
    let b = Device::new("dev-b");
    b.sync(&target, &key).await;
    let want = vec!["before the backup", "on the first machine", "on the restored copy"];
    for store in [&a, &restored, &b.store] {
        assert_eq!(texts(store), want);
    }
}
