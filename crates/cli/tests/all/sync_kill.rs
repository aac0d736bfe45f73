//! kill -9 in the middle of `vibe sync now` (issue 34), then sync again: nothing lost, nothing
//! duplicated, nothing half-written read. A real `vibe` child process syncs a data folder
//! holding thousands of messages and journal entries (many batch files) through a folder
//! target; the test kills it as its second batch file appears on the target (sending), and kills
//! a joining device's run once it applied its first batch (receiving), by watching the target
//! folder and the database, never through a hook in the code. A third kill lands while a run
//! compacts its files into a snapshot (`sync.compact_after`).

use std::os::unix::process::ExitStatusExt as _;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use vibe_store::LOCAL_USER as U;

use crate::support::{db, ok_json, ok_json_in, store, vibe_std};
use crate::sync::{CODE, synced};

const MESSAGES: usize = 6_000;
const ENTRIES: usize = 600;

/// `vibe sync now` on `dir`, started and left running.
fn start_sync(dir: &Path) -> Child {
    vibe_std()
        .arg("--data-dir")
        .arg(dir)
        .args(["--json", "sync", "now"])
        .env("VIBE_SYNC_CODE", CODE)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Wait (bounded) until `done` holds, then SIGKILL `child`; asserts it was killed, not done.
fn kill_when(mut child: Child, what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(120), "never saw {what}");
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the sync ended ({status}) before {what}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "killed by SIGKILL mid-run ({what}): {status}");
}

/// The whole batch files of `device` on the target.
fn batch_files(target: &Path, device: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir(target.join("devices").join(device)) else { return vec![] };
    let mut names: Vec<String> = dir
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".vlsync"))
        .collect();
    names.sort();
    names
}

/// Every message (conversation title, role, text) and journal entry text of `dir`, sorted.
fn contents(dir: &Path) -> (Vec<(String, String, String)>, Vec<String>) {
    let s = store(dir);
    let mut messages = Vec::new();
    for c in s.list_conversations(U).unwrap() {
        for m in s.messages(&c.id).unwrap() {
            let title = c.title.clone().unwrap_or_default();
            messages.push((title, m.role.as_str().to_string(), m.content));
        }
    }
    messages.sort();
    let journal = s.read_state(U, "lifecoach", None).unwrap().data;
    let mut entries: Vec<String> = journal["journal"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|e| e["text"].as_str().unwrap().to_string())
        .collect();
    entries.sort();
    (messages, entries)
}

fn assert_no_duplicate<T: Ord + Clone + std::fmt::Debug>(items: &[T], what: &str) {
    let mut unique = items.to_vec();
    unique.dedup();
    assert_eq!(unique.len(), items.len(), "a duplicate {what}");
}

fn sync_ok(dir: &Path) -> Value {
    let report = ok_json(&mut synced(dir), &["sync", "now"]);
    assert_eq!(report["refused"], serde_json::json!([]), "{report}");
    assert!(report["new_device_id"].is_null(), "{report}");
    report
}

/// A folder target and three data folders, sync set up on the first.
fn set_up() -> [tempfile::TempDir; 4] {
    let dirs = [(); 4].map(|()| tempfile::tempdir().unwrap());
    let t = dirs[0].path().to_str().unwrap();
    ok_json(&mut synced(dirs[1].path()), &["sync", "setup", "--folder", t]);
    dirs
}

#[test]
fn a_sync_killed_while_sending_and_while_receiving_loses_and_duplicates_nothing() {
    let [target, a, b, c] = set_up();
    let t = target.path().to_str().unwrap();
    let a_id = ok_json_in(a.path(), &["sync", "status"])["device_id"].as_str().unwrap().to_string();
    let seeded =
        vibe_store::sample::seed_history(&store(a.path()), MESSAGES, ENTRIES, "A").unwrap();
    assert_eq!((seeded.messages, seeded.journal_entries), (MESSAGES as u64, ENTRIES as u64));
    let (all_messages, all_entries) = contents(a.path());

    // Sending: killed as its second file appears on the target (while it is written under its
    // temporary name, or just after).
    let child = start_sync(a.path());
    let a_files = target.path().join("devices").join(&a_id);
    let written = || std::fs::read_dir(&a_files).map_or(0, Iterator::count);
    kill_when(child, "A's second file on the target", || written() >= 2);
    let landed = batch_files(target.path(), &a_id).len();

    // What is on the target now is read whole or not at all: B gets part, refuses nothing.
    ok_json(&mut synced(b.path()), &["sync", "join", "--folder", t, "--code", CODE]);
    sync_ok(b.path());
    let (part, part_entries) = contents(b.path());
    assert!(part.len() < all_messages.len(), "the kill came after every batch: {landed} files");
    assert!(part.iter().all(|m| all_messages.binary_search(m).is_ok()));
    assert!(part_entries.iter().all(|e| all_entries.binary_search(e).is_ok()));
    assert_no_duplicate(&part, "message after a killed send");

    // A again: it goes on from where it was killed, as the same device.
    sync_ok(a.path());
    assert!(batch_files(target.path(), &a_id).len() > landed);
    let leftovers: Vec<_> =
        walk_names(target.path()).into_iter().filter(|n| n.contains(".part-")).collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");

    // Receiving: C joins, its first run is killed once it applied A's first batch.
    ok_json(&mut synced(c.path()), &["sync", "join", "--folder", t, "--code", CODE]);
    let conn = db(c.path());
    conn.busy_timeout(Duration::from_secs(10)).unwrap();
    let applied = || -> i64 {
        conn.query_row(
            "SELECT coalesce(max(next_batch), 1) FROM sync_peers WHERE device_id = ?1",
            [&a_id],
            |r| r.get(0),
        )
        .unwrap_or(1)
    };
    let child = start_sync(c.path());
    kill_when(child, "C applying A's first batch", || applied() >= 2);
    let (part, _) = contents(c.path());
    assert!(part.len() < all_messages.len(), "C's kill came after every batch");
    assert_no_duplicate(&part, "message after a killed receive");
    drop(conn);
    sync_ok(c.path());
    sync_ok(b.path());
    for (name, dir) in [("B", b.path()), ("C", c.path())] {
        let (messages, entries) = contents(dir);
        assert_eq!(messages.len(), MESSAGES, "{name}'s messages");
        assert_eq!(entries.len(), ENTRIES, "{name}'s journal entries");
        assert_eq!(messages, all_messages, "{name} holds every message exactly once");
        assert_eq!(entries, all_entries, "{name} holds every entry exactly once");
    }
}

fn walk_names(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk_names(&path));
        } else {
            out.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    out
}

/// Set `sync.compact_after` in `dir`'s settings.
fn compact_after(dir: &Path, n: u32) {
    let path = dir.join("settings.json");
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    settings["sync"]["compact_after"] = n.into();
    std::fs::write(&path, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
}

#[test]
fn a_sync_killed_while_compacting_loses_nothing() {
    let [target, a, b, c] = set_up();
    let t = target.path().to_str().unwrap();
    ok_json(&mut synced(b.path()), &["sync", "join", "--folder", t, "--code", CODE]);
    sync_ok(b.path());
    compact_after(a.path(), 3);
    let a_id = ok_json_in(a.path(), &["sync", "status"])["device_id"].as_str().unwrap().to_string();
    vibe_store::sample::seed_history(&store(a.path()), MESSAGES / 2, ENTRIES / 2, "A").unwrap();
    let (all_messages, all_entries) = contents(a.path());

    // The first run writes more than 3 batches, then compacts them: killed as the snapshot
    // appears (under its temporary name, or just after).
    let child = start_sync(a.path());
    let a_files = target.path().join("devices").join(&a_id);
    let snapshot = || {
        std::fs::read_dir(&a_files).is_ok_and(|mut d| {
            d.any(|e| e.unwrap().file_name().to_string_lossy().starts_with("snapshot-"))
        })
    };
    kill_when(child, "A's snapshot on the target", snapshot);

    // B, which read none of A's batches, gets everything from what the killed run left.
    sync_ok(b.path());
    assert_eq!(contents(b.path()), (all_messages.clone(), all_entries.clone()));
    // A's next run finishes the compaction: one snapshot, nothing else, nothing left over.
    sync_ok(a.path());
    let left = walk_names(&a_files);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].starts_with("snapshot-") && left[0].ends_with(".vlsync"), "{left:?}");
    // A device joining now reads the snapshot.
    ok_json(&mut synced(c.path()), &["sync", "join", "--folder", t, "--code", CODE]);
    sync_ok(c.path());
    sync_ok(b.path());
    for dir in [b.path(), c.path()] {
        let (messages, entries) = contents(dir);
        assert_eq!(messages, all_messages, "every message exactly once");
        assert_eq!(entries, all_entries, "every entry exactly once");
    }
}
