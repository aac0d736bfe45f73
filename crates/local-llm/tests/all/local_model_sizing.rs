//! The context sized to need (docs/local-model.md#memory): a short turn allocates a small
//! context, a long one grows it within the window, keeping the prompt reuse and giving the
//! same greedy answer as a fresh model; an answer longer than the context grows it too.

use vibe_llm::Message;

use crate::support::{answer, greedy, open};

#[tokio::test]
async fn a_short_turn_allocates_a_small_context_and_a_long_one_grows_it_keeping_the_reuse() {
    let model = open("q8_0");
    assert_eq!(model.info().await.unwrap().context_tokens, 8192, "the window");
    let short = greedy("How do I sleep better?", 8);
    let first = answer(&model, short.clone()).await.unwrap();
    let small = model.stats().context_tokens_allocated;
    assert!(small > 0 && small <= 1024, "a short turn allocates {small} tokens");

    let mut long = short;
    long.messages.push(Message::assistant(first.text, vec![]));
    long.messages.push(Message::user("the week was long and tiring, ".repeat(150)));
    let before = model.stats();
    let got = answer(&model, long.clone()).await.unwrap();
    let after = model.stats();
    let prompt = got.usage.unwrap().prompt_tokens;
    assert!(prompt > small, "the long prompt ({prompt} tokens) needs more than {small}");
    assert!(
        after.context_tokens_allocated > prompt && after.context_tokens_allocated < 8192,
        "grown to {} for a {prompt}-token prompt",
        after.context_tokens_allocated
    );
    assert!(after.prompt_tokens_reused > before.prompt_tokens_reused, "the first turn was kept");
    let fresh = answer(&open("q8_0"), long).await.unwrap();
    assert_eq!(got.text, fresh.text, "the same greedy answer as a fresh model");
}

#[tokio::test]
async fn an_answer_longer_than_the_context_grows_it_and_goes_on() {
    let model = open("q8_0");
    let got = answer(&model, greedy("Write me a long plan.", 1100)).await.unwrap();
    assert_eq!(got.usage.unwrap().completion_tokens, 1100, "{:?}", got.finish);
    assert!(model.stats().context_tokens_allocated > 1024, "{:?}", model.stats());
}
