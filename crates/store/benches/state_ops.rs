//! `append_to_list` and `write_state` on a profile whose journal already holds 1,000 entries,
//! on a real SQLite file (WAL), clear and encrypted with a raw key (the app's default, no KDF).
//! Goal: ≥ 5,000 appends/s. Also the cost of opening a file just under and just over the size
//! that gets SQLite's quick check at every open. Figures go in docs/performance.md.

#![allow(clippy::expect_used)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use vibe_store::{DbKey, LOCAL_USER as U, Store};

fn journal_store(dir: &std::path::Path, key: &DbKey) -> Store {
    let store = Store::open_with_key(&dir.join("vibe.db"), key).expect("open");
    for i in 0..1_000 {
        let entry = json!({"text": format!("第 {i} 天：今天完成了晨跑，写了三页日记，心情平静。"), "mood": "calm", "tags": ["health", "writing"]});
        store.append_to_list(U, "lifecoach", "journal", entry, 1_000).expect("seed");
    }
    store
}

fn bench(c: &mut Criterion) {
    let raw = DbKey::from_hex(&"7a".repeat(32)).expect("hex key");
    for (name, key) in [("state_ops_journal_1000", DbKey::Clear), ("encrypted_journal_1000", raw)] {
        bench_with(c, name, &key);
    }
    let raw = DbKey::from_hex(&"7a".repeat(32)).expect("hex key");
    for (name, key) in [("open_clear", DbKey::Clear), ("open_encrypted", raw)] {
        bench_open(c, name, &key);
    }
}

/// A file grown with messages to about `bytes`, closed.
fn file_of(dir: &std::path::Path, key: &DbKey, bytes: u64) -> std::path::PathBuf {
    let path = dir.join("vibe.db");
    let store = Store::open_with_key(&path, key).expect("open");
    let conversation = store.create_conversation(U, None).expect("conversation").id;
    let text = "今天完成了晨跑，写了三页日记，心情平静。".repeat(10);
    while store.checkpointed_size().expect("size") < bytes {
        for _ in 0..20 {
            let message = vibe_store::NewMessage::text(vibe_store::Role::User, text.clone());
            store.append_message(&conversation, message).expect("message");
        }
    }
    drop(store);
    path
}

fn bench_open(c: &mut Criterion, name: &str, key: &DbKey) {
    let limit = vibe_store::QUICK_CHECK_ALWAYS_BYTES;
    let mut group = c.benchmark_group(name);
    for (label, bytes) in
        [("checked_under_limit", limit - 64 * 1024), ("unchecked_over_limit", limit + 64 * 1024)]
    {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = file_of(dir.path(), key, bytes);
        group.bench_function(label, |b| {
            b.iter(|| drop(Store::open_with_key(&path, key).expect("open")))
        });
    }
    group.finish();
}

fn bench_with(c: &mut Criterion, name: &str, key: &DbKey) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = journal_store(dir.path(), key);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(1));
    group.bench_function("append_to_list", |b| {
        b.iter(|| {
            store
                .append_to_list(
                    U,
                    "lifecoach",
                    "journal",
                    json!({"text": "今天很好", "mood": "calm"}),
                    1_000,
                )
                .expect("append")
        })
    });
    let mut n = 0u64;
    group.bench_function("write_state", |b| {
        b.iter(|| {
            n += 1;
            store
                .write_state(U, "lifecoach", "goals", json!({"q1": {"progress": n}}))
                .expect("write")
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
