//! Constrained decoding: with a `response_schema` even the tiny random-weight model writes
//! JSON that fits it (greedy and sampled, and deterministically when greedy); a schema
//! llama.cpp cannot convert leaves the answer unconstrained instead of failing it.

use serde_json::{Value, json};

use crate::support::{answer, greedy, open};

/// A schema with finitely many answers: the grammar itself ends them.
fn closed_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "mood": {"enum": ["good", "bad", "mixed"]},
            "rested": {"type": "boolean"},
            "hours": {"type": "integer", "minimum": 0, "maximum": 12}
        },
        "required": ["mood", "rested", "hours"]
    })
}

fn fits(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    assert!(["good", "bad", "mixed"].contains(&v["mood"].as_str().unwrap()), "{v}");
    assert!(v["rested"].is_boolean(), "{v}");
    assert!((0..=12).contains(&v["hours"].as_i64().unwrap()), "{v}");
    assert_eq!(v.as_object().unwrap().len(), 3, "{v}");
    v
}

#[tokio::test]
async fn local_model_greedy_answers_fit_the_response_schema_and_end_with_it() {
    let model = open("q8_0");
    let free = answer(&model, greedy("How did I sleep?", 48)).await.unwrap();
    assert!(serde_json::from_str::<Value>(&free.text).is_err(), "unconstrained: gibberish");

    let mut request = greedy("How did I sleep?", 200);
    request.params.response_schema = Some(closed_schema());
    let one = answer(&model, request.clone()).await.unwrap();
    fits(&one.text);
    assert_eq!(one.finish.as_deref(), Some("stop"), "the grammar ended it, not max_tokens");
    let two = answer(&model, request).await.unwrap();
    assert_eq!(one.text, two.text, "still deterministic");
}

#[tokio::test]
async fn local_model_sampled_answers_fit_the_response_schema() {
    let model = open("q8_0");
    for seed in [1, 2, 3] {
        let mut request = greedy("How did I sleep?", 200);
        request.params.temperature = Some(1.0);
        request.params.seed = Some(seed);
        request.params.response_schema = Some(closed_schema());
        let out = answer(&model, request).await.unwrap();
        fits(&out.text);
        assert_eq!(out.finish.as_deref(), Some("stop"), "seed {seed}");
    }
}

#[tokio::test]
async fn local_model_a_schema_llama_cpp_cannot_convert_leaves_the_answer_unconstrained() {
    let model = open("q8_0");
    let free = answer(&model, greedy("How did I sleep?", 24)).await.unwrap();
    let mut request = greedy("How did I sleep?", 24);
    request.params.response_schema = Some(json!({"$ref": "#/nowhere"}));
    let out = answer(&model, request).await.unwrap();
    assert_eq!(out.text, free.text);
    assert_eq!(out.finish.as_deref(), Some("length"));
}
