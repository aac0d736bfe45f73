//! Delta hand-off latency: the time from one SSE chunk arriving (pushed into the byte
//! stream) to the caller receiving its delta, through SSE framing, chunk parsing and
//! reassembly. Recorded in docs/performance.md.

use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use futures::StreamExt as _;
use tokio::sync::mpsc;

fn text_chunk(i: u64) -> Bytes {
    Bytes::from(format!(
        "data: {{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"token{i} \"}},\"finish_reason\":null}}]}}\n\n"
    ))
}

fn tool_chunk(i: u64) -> Bytes {
    Bytes::from(format!(
        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"function\":{{\"arguments\":\"\\\"k{i}\\\":1,\"}}}}]}}}}]}}\n\n"
    ))
}

fn handoff(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut group = c.benchmark_group("delta_handoff");
    for (name, make) in [("text_chunk", text_chunk as fn(u64) -> Bytes), ("tool_args_chunk", tool_chunk)] {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let (tx, rx) = mpsc::unbounded_channel::<Result<Bytes, std::io::Error>>();
                    let mut deltas = vibe_llm::sse_deltas(tokio_stream(rx), "bench");
                    if make == tool_chunk as fn(u64) -> Bytes {
                        tx.send(Ok(Bytes::from_static(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}\n\n"))).unwrap();
                        deltas.next().await.unwrap().unwrap();
                        deltas.next().await.unwrap().unwrap();
                    }
                    let mut total = Duration::ZERO;
                    for i in 0..iters {
                        let chunk = make(i);
                        let start = Instant::now();
                        tx.send(Ok(chunk)).unwrap();
                        let delta = deltas.next().await.unwrap().unwrap();
                        total += start.elapsed();
                        std::hint::black_box(delta);
                    }
                    total
                })
            });
        });
    }
    group.finish();
}

fn tokio_stream<T: Send + 'static>(mut rx: mpsc::UnboundedReceiver<T>) -> impl futures::Stream<Item = T> + Send {
    futures::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

criterion_group!(benches, handoff);
criterion_main!(benches);
