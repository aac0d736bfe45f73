//! How long one chart takes (the agent may compute one inside a chat turn), and how long a
//! birth place lookup takes once the gazetteer is loaded (the first lookup of a process also
//! inflates and indexes it: `gazetteer first load`, measured in a fresh process by the
//! `gazetteer_load` example of docs/charts.md).

use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::json;

fn charts(c: &mut Criterion) {
    c.bench_function("place lookup, one match", |b| {
        b.iter(|| vibe_charts::gazetteer::lookup("Hangzhou"))
    });
    c.bench_function("place lookup, qualified", |b| {
        b.iter(|| vibe_charts::gazetteer::lookup("Suzhou, Jiangsu"))
    });
    c.bench_function("place lookup, Chinese with province in front", |b| {
        b.iter(|| vibe_charts::gazetteer::lookup("浙江省杭州市"))
    });
    let birth = json!({"date": "1990-05-17", "time": "08:30", "timezone": "Asia/Shanghai", "longitude": 116.4});
    c.bench_function("bazi chart", |b| b.iter(|| vibe_charts::compute("bazi", &birth)));
    c.bench_function("zodiac chart", |b| b.iter(|| vibe_charts::compute("zodiac", &birth)));
    let no_time = json!({"date": "1990-05-17", "timezone": "Asia/Shanghai"});
    c.bench_function("zodiac chart, time unknown", |b| {
        b.iter(|| vibe_charts::compute("zodiac", &no_time))
    });
    c.bench_function("tarot three-card draw", |b| {
        b.iter(|| vibe_charts::tarot::draw(vibe_charts::tarot::Spread::ThreeCard, 42, true))
    });
}

criterion_group!(benches, charts);
criterion_main!(benches);
