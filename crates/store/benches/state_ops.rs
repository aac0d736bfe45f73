//! `append_to_list` and `write_state` on a profile whose journal already holds 1,000 entries,
//! on a real SQLite file (WAL), clear and encrypted with a raw key (the app's default, no KDF).
//! Goal: ≥ 5,000 appends/s. Figures go in docs/performance.md.

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
