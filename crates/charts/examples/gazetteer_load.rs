//! Prints how long the first place lookup of a process takes (inflating and indexing the
//! embedded gazetteer) and how much the process grew: `cargo run --release -p vibe-charts
//! --example gazetteer_load`. Figures in docs/charts.md.

use std::time::Instant;

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let before = rss_kib();
    let start = Instant::now();
    let first = vibe_charts::gazetteer::lookup("Hangzhou");
    let first_took = start.elapsed();
    let start = Instant::now();
    let second = vibe_charts::gazetteer::lookup("Kashgar");
    let second_took = start.elapsed();
    let grew = before.zip(rss_kib()).map(|(a, b)| b.saturating_sub(a) / 1024);
    println!("first lookup (load + index): {first_took:?}, then {second_took:?}");
    println!("resident memory grew by {} MiB", grew.map_or("?".into(), |m| m.to_string()));
    println!(
        "{:?}\n{:?}",
        matches!(first, vibe_charts::gazetteer::Lookup::Found(_)),
        matches!(second, vibe_charts::gazetteer::Lookup::Found(_))
    );
}
