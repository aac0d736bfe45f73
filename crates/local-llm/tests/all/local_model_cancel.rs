//! Cancel: dropping the stream stops generation within a token or so (what was buffered),
//! and the model goes on answering; the async runtime is never blocked (these run on a
//! single-threaded runtime, which a blocking engine would stall).

use futures::StreamExt as _;
use vibe_llm::{ChatModel, Delta};

use crate::support::{answer, greedy, open};

/// Deltas the engine may have buffered for a reader that stopped reading.
const BUFFER: u64 = 8;

#[tokio::test]
async fn dropping_the_stream_stops_generation_and_keeps_what_arrived() {
    let model = open("q8_0");
    let mut stream = model.stream(greedy("Tell me a very long story.", 1500));
    let mut arrived = String::new();
    let mut texts = 0u64;
    while let Some(delta) = stream.next().await {
        if let Delta::Text { text } = delta.unwrap() {
            arrived.push_str(&text);
            texts += 1;
            if texts == 3 {
                break;
            }
        }
    }
    drop(stream);
    assert!(!arrived.is_empty());

    // The worker is free again: the next answer completes, after the cancelled one ended.
    let next = answer(&model, greedy("Short one.", 5)).await.unwrap();
    assert_eq!(next.usage.unwrap().completion_tokens, 5);
    let stats = model.stats();
    assert_eq!(stats.answers, 2);
    let cancelled = stats.generated_tokens - 5;
    assert!(
        cancelled <= texts + BUFFER + 2,
        "{cancelled} tokens generated for a reader that took {texts}"
    );

    // What arrived before the cancel is the start of the whole greedy answer.
    let whole = answer(&model, greedy("Tell me a very long story.", 40)).await.unwrap();
    assert!(whole.text.starts_with(&arrived), "{arrived:?} / {:?}", whole.text);
}
