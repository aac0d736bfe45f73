//! Token calibration against the fake OpenAI-compatible server: the model reports more prompt
//! tokens than the o200k estimate; the next process (a second service on the same data dir)
//! starts with that model's correction, shows it on `model_request`, and fits its budgets in
//! the model's tokens.

use vibe_context::{corrected, scaled_budget};
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, ev_usage, sse};
use vibe_wire::Event;

use crate::harness::{Harness, Options, Turn, say};

/// (estimate, factor, corrected, notices) of the turn's only model request.
fn request(turn: &Turn) -> (u32, Option<f64>, Option<u32>, Vec<String>) {
    let requests = turn.model_requests();
    assert_eq!(requests.len(), 1, "{:?}", turn.types());
    let Event::ModelRequest { prompt_tokens, token_factor, corrected_tokens, notices, .. } =
        requests[0]
    else {
        unreachable!()
    };
    (*prompt_tokens, *token_factor, *corrected_tokens, notices.clone())
}

fn answer(prompt_tokens: u64) -> Reply {
    Reply::sse(sse(vec![ev_text("好的。"), ev_finish("stop"), ev_usage(prompt_tokens, 3)]))
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_models_reported_tokens_correct_the_budgets_of_the_next_process() {
    let server = FakeServer::start();
    server.push(answer(3000));
    let first = Harness::http(&server.url(), Options::default());
    let turn = first.turn(say("你好")).await;
    let (estimate, factor, corrected_tokens, notices) = request(&turn);
    assert_eq!((factor, corrected_tokens), (None, None), "nothing learnt yet");
    assert!(notices.is_empty(), "the built-in catalog fits 2000 tokens: {notices:?}");
    let learnt = round3(3000.0 / f64::from(estimate));
    assert!(learnt > 1.2 && learnt < 2.0, "{learnt} from {estimate}");
    let stored = first.store.token_calibration("test-model").unwrap().unwrap();
    assert_eq!((stored.factor, stored.samples), (learnt, 1));

    // Another process on the same data dir: a new store, a new service.
    let dir = first.into_dir();
    server.push(answer(2000));
    let second = Harness::http_in(dir, &server.url(), Options::default());
    let turn = second.turn(say("你好")).await;
    let (estimate2, factor, corrected_tokens, notices) = request(&turn);
    assert_eq!(factor, Some(learnt));
    assert_eq!(corrected_tokens, Some(corrected(estimate2, learnt)));
    // The phase-1 budget of 2000 model tokens is 2000 / factor estimated tokens: the catalog
    // is shortened to fit it, and says so.
    let budget = scaled_budget(2000, Some(learnt));
    assert!(notices.iter().any(|n| n.contains(&format!("to fit {budget} tokens"))), "{notices:?}");
    assert!(estimate2 < estimate, "{estimate2} vs {estimate}");
    // The second sample is averaged in.
    let stored = second.store.token_calibration("test-model").unwrap().unwrap();
    let second_ratio = 2000.0 / f64::from(estimate2);
    assert_eq!(stored.samples, 2);
    assert_eq!(stored.factor, round3(learnt + (second_ratio.min(2.0) - learnt) / 2.0));
    assert_eq!(server.requests().len(), 2);
}
