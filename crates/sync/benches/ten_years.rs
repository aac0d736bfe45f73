//! The ten-year first sync (issue 34): a data folder holding 50,000 messages and 4,000 journal
//! entries (`vibe_store::sample`, through the store's operations, encrypted with a raw key as
//! the app's default) syncs through a folder target to a device joining empty. Prints the time
//! of the first sync (sending, then receiving), the target's size and its size per 1,000
//! messages, an incremental sync of one turn (two messages), a receiving first sync stopped
//! half-way and resumed (the resumed run reads only the rest), and the compaction of the
//! sender's files with a device joining after it. One run, not a statistical sample: the
//! first sync happens once. Figures go in docs/performance.md; nothing asserts a time.
//!
//! `cargo bench -p vibe-sync --bench ten_years` (`VIBE_BENCH_MESSAGES`, `VIBE_BENCH_ENTRIES`
//! change the size).

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::print_stdout)]

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use vibe_store::{DbKey, LOCAL_USER, NewMessage, Role, Store};
use vibe_sync::{DalTarget, SyncError, SyncKey, Target};

fn size(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in std::fs::read_dir(dir).expect("read the target") {
        let entry = entry.expect("entry");
        let meta = entry.metadata().expect("metadata");
        total += if meta.is_dir() { size(&entry.path()) } else { meta.len() };
    }
    total
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn open(dir: &Path, name: &str) -> Store {
    let key = DbKey::from_hex(&"7a".repeat(32)).expect("hex key");
    Store::open_with_key(&dir.join(format!("{name}.db")), &key).expect("open")
}

/// A target whose reads of the files under `prefix` fail once `reads` were made: a run
/// stopped half-way through them.
struct StopsAfter {
    inner: DalTarget,
    prefix: String,
    reads: usize,
    made: AtomicUsize,
}

impl Target for StopsAfter {
    fn shown(&self) -> &str {
        self.inner.shown()
    }

    async fn read(&self, path: &str) -> vibe_sync::Result<Option<Vec<u8>>> {
        if path.starts_with(&self.prefix) && self.made.fetch_add(1, Ordering::SeqCst) >= self.reads
        {
            return Err(SyncError::Unreachable { target: self.shown().into(), why: "stop".into() });
        }
        self.inner.read(path).await
    }

    async fn write(&self, path: &str, bytes: Vec<u8>) -> vibe_sync::Result<()> {
        self.inner.write(path, bytes).await
    }

    async fn list(&self, dir: &str) -> vibe_sync::Result<Vec<String>> {
        self.inner.list(dir).await
    }

    async fn delete(&self, path: &str) -> vibe_sync::Result<()> {
        self.inner.delete(path).await
    }
}

fn secs(start: Instant) -> f64 {
    start.elapsed().as_secs_f64()
}

fn main() {
    let messages = env("VIBE_BENCH_MESSAGES", 50_000);
    let entries = env("VIBE_BENCH_ENTRIES", 4_000);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let work = tempfile::tempdir().expect("temp dir");
    let target_dir = work.path().join("target");
    let target = DalTarget::folder(&target_dir).expect("folder target");
    let key = SyncKey::generate().expect("key");
    rt.block_on(vibe_sync::setup(&target, &key)).expect("setup");
    let sync = |store: &Store, target: &DalTarget| {
        rt.block_on(vibe_sync::sync_now(store, target, &key, None)).expect("sync")
    };

    let a = open(work.path(), "a");
    let start = Instant::now();
    let seeded =
        vibe_store::sample::seed_history(&a, messages, entries, "ten years").expect("seed");
    println!(
        "seeded {} messages in {} conversations and {} journal entries in {:.1} s",
        seeded.messages,
        seeded.conversations,
        seeded.journal_entries,
        secs(start)
    );
    let start = Instant::now();
    let ops = a.sync_enable("device-a").expect("enable");
    println!("sync set up: {ops} operations recorded in {:.1} s", secs(start));

    let start = Instant::now();
    let sent = sync(&a, &target);
    let first_send = secs(start);
    let bytes = size(&target_dir);
    println!(
        "first sync, sending: {:.1} s, {} batch files, target {:.1} MB, {:.0} kB per 1,000 messages",
        first_send,
        sent.sent,
        bytes as f64 / 1e6,
        bytes as f64 / 1e3 / (messages.max(1) as f64 / 1000.0)
    );

    let b = open(work.path(), "b");
    b.sync_enable("device-b").expect("enable");
    let start = Instant::now();
    let got = sync(&b, &target);
    println!(
        "first sync, receiving: {:.1} s, {} files applied, {} changes",
        secs(start),
        got.received,
        got.put
    );

    // One turn: the person's line and the coach's answer.
    let conversation = a.list_conversations(LOCAL_USER).expect("list")[0].id.clone();
    a.append_message(&conversation, NewMessage::text(Role::User, "今天跑完了 5 公里！"))
        .expect("message");
    let answer = "太棒了！这是你计划里的第一个里程碑。今晚记得拉伸，明天我们一起看看下周的安排。";
    a.append_message(&conversation, NewMessage::text(Role::Assistant, answer)).expect("answer");
    let start = Instant::now();
    sync(&a, &target);
    let turn_send = secs(start) * 1000.0;
    let start = Instant::now();
    sync(&b, &target);
    let turn_receive = secs(start) * 1000.0;
    println!(
        "one turn: sending {turn_send:.0} ms, receiving {turn_receive:.0} ms, target +{} bytes",
        size(&target_dir) - bytes
    );

    // A first sync stopped half-way, then run again: it goes on from the last file applied.
    let c = open(work.path(), "c");
    c.sync_enable("device-c").expect("enable");
    let half = (sent.sent as usize / 2).max(1);
    let stops = StopsAfter {
        inner: target.clone(),
        prefix: "devices/device-a/".into(),
        reads: half,
        made: AtomicUsize::new(0),
    };
    let start = Instant::now();
    let stopped = rt.block_on(vibe_sync::sync_now(&c, &stops, &key, None));
    let first_part = secs(start);
    assert!(stopped.is_err(), "the run was stopped");
    let applied = c.sync_peer_cursor("device-a").expect("cursor") - 1;
    let start = Instant::now();
    let rest = sync(&c, &target);
    println!(
        "first sync stopped after {half} of device-a's files ({first_part:.1} s, {} applied), \
         resumed: {} files in {:.1} s",
        applied,
        rest.received,
        secs(start)
    );

    // Compaction of a's files, then a device joining after it.
    let start = Instant::now();
    let compacted =
        rt.block_on(vibe_sync::sync_now_with(&a, &target, &key, None, 1)).expect("compact");
    println!(
        "compaction: {:.1} s (snapshot through {:?}), target {:.1} MB",
        secs(start),
        compacted.compacted,
        size(&target_dir) as f64 / 1e6
    );
    let d = open(work.path(), "d");
    d.sync_enable("device-d").expect("enable");
    let start = Instant::now();
    let late = sync(&d, &target);
    println!("late joiner after compaction: {:.1} s, {} files applied", secs(start), late.received);
    let count = |s: &Store| s.list_conversations(LOCAL_USER).expect("list").len();
    assert_eq!(count(&d), count(&a), "the late joiner holds every conversation");
}
