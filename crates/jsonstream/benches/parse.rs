//! Throughput of the incremental parser on a multi-MB document, fed in
//! network-sized chunks, against `serde_json::from_slice` as a reference.
//!
//! Run: `cargo bench -p vibe-jsonstream --bench parse -- --warm-up-time 1 --measurement-time 3`
//!
//! Times are the benchmark thread's CPU time (Linux `schedstat`), not wall
//! time: the build machines are shared and often oversubscribed, and CPU time
//! keeps the figures comparable. Where `/proc` is unavailable, wall time.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::{Value, json};
use vibe_jsonstream::{Mode, Parser};

const CHUNK: usize = 16 * 1024;

/// CPU time of the current thread, in nanoseconds, if the OS tells it.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

/// Criterion measurement of thread CPU time (falls back to wall time).
struct CpuTime {
    wall: WallTime,
}

impl Measurement for CpuTime {
    type Intermediate = (Option<u64>, Instant);
    type Value = Duration;

    fn start(&self) -> Self::Intermediate {
        (thread_cpu_ns(), Instant::now())
    }

    fn end(&self, (cpu, wall): Self::Intermediate) -> Self::Value {
        match (cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) => Duration::from_nanos(b.saturating_sub(a)),
            _ => wall.elapsed(),
        }
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        self.wall.formatter()
    }
}

/// A deterministic pseudo-random sequence (no extra dependency).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// About 8 MB: records with a long text (some non-ASCII and escapes) and
/// many small values around it.
fn large_document() -> Vec<u8> {
    let mut rng = Lcg(42);
    let words = [
        "morning",
        "journal",
        "focus",
        "energy",
        "今天",
        "réflexion",
        "plan",
        "\"quoted\"",
        "line\nbreak",
        "✨",
    ];
    let items: Vec<Value> = (0..2000)
        .map(|i| {
            let body: Vec<&str> =
                (0..400 + rng.next(400)).map(|_| words[rng.next(10) as usize]).collect();
            json!({
                "id": i,
                "title": format!("entry {i}"),
                "body": body.join(" "),
                "score": rng.next(10_000) as f64 / 7.0,
                "done": rng.next(2) == 1,
                "tags": ["a", "bb", "ccc"],
                "metrics": {"steps": rng.next(20_000), "sleep": [7, 30], "mood": null},
            })
        })
        .collect();
    serde_json::to_vec(&json!({ "items": items })).unwrap_or_default()
}

/// About 4 MB of small values only (the structural worst case).
fn dense_document() -> Vec<u8> {
    let mut rng = Lcg(7);
    let rows: Vec<Value> = (0..40_000)
        .map(|i| json!({"i": i, "x": rng.next(1000), "y": -(rng.next(1000) as i64), "f": 0.5, "ok": true, "k": "v"}))
        .collect();
    serde_json::to_vec(&rows).unwrap_or_default()
}

fn feed_all(mut parser: Parser, doc: &[u8]) -> usize {
    let mut events = 0;
    for chunk in doc.chunks(CHUNK) {
        if parser.feed(chunk).is_err() {
            return 0;
        }
        events += parser.drain_events().count();
    }
    events + usize::from(parser.end().is_ok())
}

fn bench(c: &mut Criterion<CpuTime>) {
    for (name, doc) in [("large", large_document()), ("dense", dense_document())] {
        eprintln!("{name} document: {} bytes", doc.len());
        let mut group = c.benchmark_group(name);
        group.throughput(Throughput::Bytes(doc.len() as u64));
        group.sample_size(10);
        group.bench_function("stream_only", |b| {
            b.iter(|| feed_all(Parser::builder().retain_value(false).build(), black_box(&doc)))
        });
        group.bench_function("stream_with_subscriptions", |b| {
            b.iter(|| {
                let mut builder = Parser::builder().retain_value(false);
                let _ = builder.subscribe("$.items[*].body", Mode::Delta);
                let _ = builder.subscribe("$.items[*].id", Mode::Realtime);
                let _ = builder.subscribe("$[*].k", Mode::Realtime);
                feed_all(builder.build(), black_box(&doc))
            })
        });
        group.bench_function("retain_value", |b| {
            b.iter(|| {
                let mut parser = Parser::new();
                for chunk in black_box(&doc).chunks(CHUNK) {
                    let _ = parser.feed(chunk);
                }
                parser.finish().ok()
            })
        });
        group.bench_function("serde_json_from_slice", |b| {
            b.iter(|| serde_json::from_slice::<Value>(black_box(&doc)).ok())
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime { wall: WallTime });
    targets = bench
}
criterion_main!(benches);
