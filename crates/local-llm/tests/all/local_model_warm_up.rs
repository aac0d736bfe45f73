//! Warm-up (docs/local-model.md#warm-up): a request's prefix evaluated without answering lets
//! the first turn reuse it with the same greedy answer as a cold prefill, also through the
//! structured-action adapter (the tools in the prompt); a warm-up loads the conversation's
//! saved state instead when there is one, and another conversation's warm-up is not used for
//! this one; a turn sent while a warm-up runs waits for it and gets the answer of a cold
//! prompt; a dropped warm-up does not disturb the next answer.

use std::sync::{Arc, Mutex};

use futures::StreamExt as _;
use serde_json::json;
use vibe_llm::measure::{Counts, Log, Recorder};
use vibe_llm::{ChatModel, ChatRequest, Message, StructuredModel, ToolDef};
use vibe_local_llm::LocalModel;

use crate::local_model_saved_state::{next_turn, saving};
use crate::support::{answer, greedy, open};

const SYSTEM: &str = "You are a calm coach who asks one question at a time and listens well. ";

/// A conversation's first turn: a system prompt worth keeping, filed under `conv`.
fn turn(conv: &str, message: &str) -> ChatRequest {
    let mut request = greedy(message, 8);
    request.messages[0] = Message::system(SYSTEM.repeat(8));
    request.params.cache_key = Some(conv.to_string());
    request
}

/// What a warm-up of `request` is given: its system prompt, tools and conversation.
fn prefix(request: &ChatRequest) -> ChatRequest {
    ChatRequest { messages: request.messages[..1].to_vec(), ..request.clone() }
}

#[tokio::test]
async fn a_warm_up_lets_the_first_turn_reuse_the_prefix_with_the_same_answer() {
    let request = turn("conv-1", "I slept badly again, what can I do?");
    let cold = answer(&open("q8_0"), request.clone()).await.unwrap();

    let model = open("q8_0");
    let warmed = model.warm_up(prefix(&request)).await.unwrap().expect("the engine warms up");
    assert!(warmed.prefix_tokens > 100, "{warmed:?}");
    assert_eq!((warmed.evaluated_tokens, warmed.reused_tokens), (warmed.prefix_tokens, 0));
    assert!(!warmed.state_loaded);
    assert_eq!(model.stats().warm_ups, 1);
    let evaluated = model.stats().prompt_tokens_evaluated;

    let got = answer(&model, request).await.unwrap();
    let stats = model.stats();
    let prompt = got.usage.unwrap().prompt_tokens;
    assert!(stats.prompt_tokens_reused + 2 >= warmed.prefix_tokens, "{stats:?} {warmed:?}");
    assert!(stats.prompt_tokens_evaluated - evaluated < prompt - 100, "{stats:?}");
    assert_eq!(got.text, cold.text, "the same greedy answer as a cold prefill");
    assert_eq!(stats.answers, 1, "a warm-up is no answer");
}

#[tokio::test]
async fn through_the_structured_adapter_the_prefix_holds_the_tools() {
    let mut request = turn("conv-1", "Draw a card for me");
    request.tools = vec![ToolDef {
        name: "draw_tarot".into(),
        description: "Draw one tarot card and say what it means for the question.".into(),
        parameters: json!({"type": "object", "properties": {}}).into(),
    }];
    let local = Arc::new(open("q8_0"));
    // The engine's figures of each request, as `vibe bench local` reads them.
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let counted = local.clone();
    let counts = Arc::new(move || {
        let s = counted.stats();
        Some(Counts {
            evaluated: s.prompt_tokens_evaluated,
            reused: s.prompt_tokens_reused,
            states_loaded: s.states_loaded,
        })
    });
    let model = StructuredModel::new(Arc::new(Recorder::new(local.clone(), log.clone(), counts)));
    let plain = local.warm_up(prefix(&request)).await.unwrap().unwrap();
    let warmed = model.warm_up(prefix(&request)).await.unwrap().unwrap();
    assert!(warmed.prefix_tokens > plain.prefix_tokens + 20, "the tools are in the prefix");
    // The plain system prompt's tokens were in the cache already.
    assert!(warmed.reused_tokens > 100 && warmed.reused_tokens < plain.prefix_tokens + 2);

    let mut stream = model.stream(request);
    while stream.next().await.is_some() {}
    drop(stream);
    let first = log.lock().unwrap()[0].figures.clone();
    let reused = first.reused_tokens.unwrap();
    assert!(reused + 2 >= warmed.prefix_tokens, "{first:?} {warmed:?}");
    assert!(first.evaluated_tokens.unwrap() > 0, "the message is read: {first:?}");
}

#[tokio::test]
async fn a_warm_up_loads_the_saved_state_and_another_conversations_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let (first_a, first_b) = (turn("conv-a", "I slept badly"), turn("conv-b", "I run too little"));
    let (reply_a, reply_b) = {
        let model = LocalModel::open(saving("q8_0", dir.path(), 1)).unwrap();
        let a = answer(&model, first_a.clone()).await.unwrap().text;
        let b = answer(&model, first_b.clone()).await.unwrap().text;
        (a, b)
    };
    let (next_a, next_b) = (next_turn(&first_a, &reply_a), next_turn(&first_b, &reply_b));
    let cold_b = answer(&open("q8_0"), next_b.clone()).await.unwrap();

    // A new process opens conversation A: its warm-up loads A's state (prompt and answer).
    let model = LocalModel::open(saving("q8_0", dir.path(), 1)).unwrap();
    let warmed = model.warm_up(prefix(&next_a)).await.unwrap().unwrap();
    assert!(warmed.state_loaded, "{warmed:?}");
    assert_eq!((warmed.evaluated_tokens, warmed.reused_tokens), (0, warmed.prefix_tokens));
    assert!(warmed.cached_tokens > warmed.prefix_tokens, "A's history came with it");

    // B's turn does not start from A's conversation: B's own state is loaded, and the answer
    // is the one of a cold prefill.
    let got = answer(&model, next_b).await.unwrap();
    let stats = model.stats();
    assert_eq!(stats.states_loaded, 2, "{stats:?}");
    assert_eq!(got.text, cold_b.text);

    // A opened again: the cache holds the same prefix (B's), yet A's state is loaded for its
    // history.
    let again = model.warm_up(prefix(&next_a)).await.unwrap().unwrap();
    assert!(again.state_loaded && again.cached_tokens > again.prefix_tokens, "{again:?}");
    assert_eq!(model.stats().states_loaded, 3);
}

#[tokio::test]
async fn a_turn_during_a_warm_up_waits_for_it_and_a_dropped_one_changes_nothing() {
    let request = turn("conv-1", "I slept badly again, what can I do?");
    let cold = answer(&open("q8_0"), request.clone()).await.unwrap();

    let model = open("q8_0");
    // The warm-up is queued at once; the turn sent after it waits for it.
    let warming = model.warm_up(prefix(&request));
    let got = answer(&model, request.clone()).await.unwrap();
    let warmed = warming.await.unwrap().unwrap();
    assert_eq!(got.text, cold.text);
    assert!(model.stats().prompt_tokens_reused + 2 >= warmed.prefix_tokens);

    let other = open("q8_0");
    drop(other.warm_up(prefix(&request)));
    let got = answer(&other, request).await.unwrap();
    assert_eq!(got.text, cold.text, "a cancelled warm-up leaves a usable cache");
}

/// Conversation `conv`'s first turn answered and its state written, by an engine saving
/// into `dir` (as a process that ends); its reply.
async fn saved_first_turn(dir: &std::path::Path, first: &ChatRequest) -> String {
    let model = LocalModel::open(saving("q8_0", dir, 1)).unwrap();
    let reply = answer(&model, first.clone()).await.unwrap().text;
    assert!(vibe_local_llm::flush_saved_states(std::time::Duration::from_secs(60)));
    reply
}

#[tokio::test]
async fn a_warm_up_keeps_the_conversations_state_where_the_rebuilt_prefix_differs() {
    let dir = tempfile::tempdir().unwrap();
    let first = turn("conv-1", "I slept badly again, what can I do?");
    let next = next_turn(&first, &saved_first_turn(dir.path(), &first).await);
    let cold = answer(&open("q8_0"), next.clone()).await.unwrap();

    // The app rebuilds the prefix without the turn's sections and trims: here its system prompt
    // ends otherwise than the one the conversation's turns sent.
    let mut rebuilt = prefix(&next);
    rebuilt.messages[0] = Message::system(SYSTEM.repeat(7) + "Keep every answer short.");
    let model = LocalModel::open(saving("q8_0", dir.path(), 1)).unwrap();
    let warmed = model.warm_up(rebuilt.clone()).await.unwrap().unwrap();
    assert!(warmed.state_loaded, "{warmed:?}");
    assert!(warmed.reused_tokens < warmed.prefix_tokens, "the prefix differs: {warmed:?}");
    assert_eq!(warmed.evaluated_tokens, 0, "the state is kept whole: {warmed:?}");
    // Opened again in the same process: the cache still holds the conversation.
    let again = model.warm_up(rebuilt).await.unwrap().unwrap();
    assert_eq!((again.evaluated_tokens, again.cached_tokens), (0, warmed.cached_tokens));

    // The turn that follows starts from the conversation's state, not from the rebuilt prefix.
    let evaluated = model.stats().prompt_tokens_evaluated;
    let got = answer(&model, next).await.unwrap();
    let read = model.stats().prompt_tokens_evaluated - evaluated;
    assert!(read + warmed.cached_tokens <= got.usage.unwrap().prompt_tokens + 2, "read {read}");
    assert_eq!(got.text, cold.text, "the same greedy answer as a cold prefill");
}

#[tokio::test]
async fn a_warm_up_loads_a_saved_state_longer_than_the_context_it_had() {
    let dir = tempfile::tempdir().unwrap();
    let long = "I slept badly and woke up at four again, then lay awake. ".repeat(60);
    let first = turn("conv-1", &long);
    let next = next_turn(&first, &saved_first_turn(dir.path(), &first).await);

    let model = LocalModel::open(saving("q8_0", dir.path(), 1)).unwrap();
    let warmed = model.warm_up(prefix(&next)).await.unwrap().unwrap();
    // The prefix alone needs a context of 1,024 tokens; the state holds more than that.
    assert!(warmed.prefix_tokens + 512 <= 1024 && warmed.cached_tokens > 1024, "{warmed:?}");
    assert!(warmed.state_loaded, "{warmed:?}");
    assert_eq!(warmed.evaluated_tokens, 0, "{warmed:?}");
    assert!(model.stats().context_tokens_allocated > warmed.cached_tokens, "grown to hold it");
}
