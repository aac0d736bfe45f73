//! Answers: greedy decoding is deterministic (twice, across weight types, and with the prompt
//! state kept from an earlier answer), `max_tokens` and stop strings end an answer.

use crate::support::{answer, greedy, open};
use vibe_llm::ChatRequest;

#[tokio::test]
async fn greedy_answers_are_the_same_every_time_and_end_at_max_tokens() {
    let model = open("q8_0");
    let first = answer(&model, greedy("Tell me about my week.", 24)).await.unwrap();
    let second = answer(&model, greedy("Tell me about my week.", 24)).await.unwrap();
    assert!(!first.text.is_empty());
    assert_eq!(first.text, second.text);
    assert_eq!(first.finish.as_deref(), Some("length"));
    assert_eq!(first.usage.unwrap().completion_tokens, 24);
}

#[tokio::test]
async fn a_kept_prompt_prefix_gives_the_same_answer_as_a_fresh_model() {
    let model = open("q8_0");
    let a = || greedy("Tell me about my week.", 16);
    let fresh = answer(&model, a()).await.unwrap();
    answer(&model, greedy("Something else entirely, and longer.", 16)).await.unwrap();
    let reused_before = model.stats().prompt_tokens_reused;
    let again = answer(&model, a()).await.unwrap();
    assert_eq!(fresh.text, again.text);
    assert!(model.stats().prompt_tokens_reused > reused_before, "the system prompt was kept");

    // A follow-up turn: the previous prompt is a prefix of the next one.
    let mut follow = a();
    follow.messages.push(vibe_llm::Message::assistant(fresh.text.clone(), vec![]));
    follow.messages.push(vibe_llm::Message::user("And then?"));
    let evaluated_before = model.stats().prompt_tokens_evaluated;
    let usage = answer(&model, follow).await.unwrap().usage.unwrap();
    let evaluated = model.stats().prompt_tokens_evaluated - evaluated_before;
    assert!(evaluated < usage.prompt_tokens, "{evaluated} of {} evaluated", usage.prompt_tokens);
}

#[tokio::test]
async fn the_weight_types_each_answer_deterministically() {
    for kind in ["f32", "f16", "q8_0"] {
        let model = open(kind);
        let one = answer(&model, greedy("你好，我最近睡不好。", 12)).await.unwrap();
        let two = answer(&model, greedy("你好，我最近睡不好。", 12)).await.unwrap();
        assert_eq!(one.text, two.text, "{kind}");
        assert_eq!(one.usage.unwrap().completion_tokens, 12, "{kind}");
    }
}

#[tokio::test]
async fn a_stop_string_ends_the_answer_before_it() {
    let model = open("q8_0");
    let full = answer(&model, greedy("Plan my day.", 32)).await.unwrap().text;
    let chars: Vec<char> = full.chars().collect();
    let stop: String = chars[chars.len() / 2..chars.len() / 2 + 3].iter().collect();
    let before = &full[..full.find(&stop).unwrap()];
    let mut request: ChatRequest = greedy("Plan my day.", 32);
    request.params.stop = vec![stop.clone()];
    let cut = answer(&model, request).await.unwrap();
    assert_eq!(cut.text, before, "stop {stop:?}");
    assert_eq!(cut.finish.as_deref(), Some("stop"));
}

#[tokio::test]
async fn sampled_answers_follow_the_seed() {
    let model = open("q8_0");
    let seeded = |seed| {
        let mut r = greedy("Plan my day.", 16);
        r.params.temperature = Some(1.0);
        r.params.seed = Some(seed);
        r
    };
    let a = answer(&model, seeded(1)).await.unwrap().text;
    let b = answer(&model, seeded(1)).await.unwrap().text;
    assert_eq!(a, b, "the same seed samples the same answer");
}
