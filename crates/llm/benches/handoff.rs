//! Delta hand-off latency: the time from one SSE chunk arriving to the caller receiving its
//! delta. `decoder/*` pushes chunks into the byte stream directly (SSE framing, chunk
//! parsing, reassembly, stream plumbing); `client/*` writes them to a loopback socket the
//! real `OpenAiClient` reads (adds the kernel, hyper and a thread wake-up: an upper bound).
//! Recorded in docs/performance.md.

#![allow(clippy::unwrap_used)] // benchmark set-up: a failure should abort loudly

use std::io::{Read as _, Write as _};
use std::time::{Duration, Instant};

use bytes::Bytes;
use criterion::{Criterion, criterion_group, criterion_main};
use futures::StreamExt as _;
use tokio::sync::mpsc;
use vibe_llm::{ChatModel as _, ChatRequest, LlmSettings, LlmSettingsExt, Message, OpenAiClient};

fn text_chunk(i: u64) -> Vec<u8> {
    format!(
        "data: {{\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{{\"index\":0,\"delta\":{{\"content\":\"token{i} \"}},\"finish_reason\":null}}]}}\n\n"
    )
    .into_bytes()
}

fn tool_chunk(i: u64) -> Vec<u8> {
    format!(
        "data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"function\":{{\"arguments\":\"\\\"k{i}\\\":1,\"}}}}]}}}}]}}\n\n"
    )
    .into_bytes()
}

const TOOL_START: &[u8] =
    b"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}\n\n";

type Case = (&'static str, fn(u64) -> Vec<u8>, Option<&'static [u8]>, usize);
const CASES: [Case; 2] =
    [("text_chunk", text_chunk, None, 0), ("tool_args_chunk", tool_chunk, Some(TOOL_START), 2)];

fn decoder(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut group = c.benchmark_group("delta_handoff/decoder");
    for (name, make, prime, primed_deltas) in CASES {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let (tx, mut rx) = mpsc::unbounded_channel::<Result<Bytes, std::io::Error>>();
                    let bytes = futures::stream::poll_fn(move |cx| rx.poll_recv(cx));
                    let mut deltas = vibe_llm::sse_deltas(bytes, "bench");
                    if let Some(p) = prime {
                        tx.send(Ok(Bytes::from_static(p))).unwrap();
                        for _ in 0..primed_deltas {
                            deltas.next().await.unwrap().unwrap();
                        }
                    }
                    let mut total = Duration::ZERO;
                    for i in 0..iters {
                        let chunk = Bytes::from(make(i));
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

/// A one-shot SSE server: answers the first request with headers, then writes each
/// chunk received on the channel to the socket.
fn loopback_server() -> (String, std::sync::mpsc::Sender<Vec<u8>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    std::thread::spawn(move || {
        let (mut socket, _) = listener.accept().unwrap();
        socket.set_nodelay(true).unwrap();
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = socket.read(&mut buf).unwrap();
            seen.extend_from_slice(&buf[..n]);
        }
        socket
            .write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n",
            )
            .unwrap();
        while let Ok(chunk) = rx.recv() {
            if socket.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    (url, tx)
}

fn client(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let mut group = c.benchmark_group("delta_handoff/client_loopback");
    for (name, make, prime, primed_deltas) in CASES {
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let (url, tx) = loopback_server();
                    let section =
                        serde_json::json!({"base_url": url, "model": "bench", "retries": 0});
                    let endpoint =
                        LlmSettings::from_section(&section, "bench").unwrap().resolve().unwrap();
                    let model = OpenAiClient::new(endpoint, None).unwrap();
                    let mut deltas = model.stream(ChatRequest::new(vec![Message::user("go")]));
                    let (first, rest) = match prime {
                        Some(p) => (p.to_vec(), primed_deltas),
                        None => (text_chunk(u64::MAX), 1),
                    };
                    tx.send(first).unwrap();
                    for _ in 0..rest {
                        deltas.next().await.unwrap().unwrap();
                    }
                    let mut total = Duration::ZERO;
                    for i in 0..iters {
                        let chunk = make(i);
                        let start = Instant::now();
                        tx.send(chunk).unwrap();
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

criterion_group!(benches, decoder, client);
criterion_main!(benches);
