//! The model check of the safety screen: only when the rules are `unsure`, one small call to
//! the configured model asks for `{"risk": "none|concern|acute", "category": ...}`. The
//! model can raise or confirm a risk but never clear one the rules found at full strength,
//! and an unusable answer (a failed call, not that JSON) keeps the rules' result — a hit a
//! deferring context left to the check at its own risk. Calling it for every message, or
//! deciding what to do with the result, is not this module's job.

use serde::Deserialize;
use vibe_llm::{ChatModel, ChatRequest, Message, Params, TokenUsage, collect};

use super::{Category, Risk, Screening};

const INSTRUCTIONS: &str = r#"You rate one chat message for acute wellbeing risk. Categories: suicide, self_harm, harm_others, abuse, medical (a medical emergency). Idioms, hyperbole, fiction, news, research and other people's words are "none". Answer with one JSON object only, no other text:
{"risk": "none" | "concern" | "acute", "category": "suicide" | "self_harm" | "harm_others" | "abuse" | "medical" | null}
"concern": a sign of risk worth a supportive answer; "acute": danger now (intent, a plan, an emergency)."#;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    risk: String,
    #[serde(default)]
    category: Option<String>,
}

/// What the model check concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelCheck {
    /// The screening after the check (the rules' own when the answer was unusable).
    pub screening: Screening,
    /// `None` when the model's answer was used; else why it was not.
    pub unusable: Option<String>,
    /// Tokens the call cost (as the model reported them, else counted); `None` when no call
    /// was made (the rules were sure).
    pub usage: Option<TokenUsage>,
}

/// The request sent for `message`.
pub fn classification_request(message: &str) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system(INSTRUCTIONS), Message::user(message.to_string())],
        tools: Vec::new(),
        params: Params {
            temperature: Some(0.0),
            max_tokens: Some(60),
            response_schema: Some(answer_schema()),
            ..Params::default()
        },
    }
}

/// The answer's shape as a JSON Schema, for models that constrain their decoding to it (the
/// embedded engine, local servers); [`parse_classification`] still checks every answer.
fn answer_schema() -> serde_json::Value {
    let risks: Vec<&str> = Risk::ALL.iter().map(|r| r.as_str()).collect();
    let mut categories: Vec<serde_json::Value> =
        Category::ALL.iter().map(|c| c.as_str().into()).collect();
    categories.push(serde_json::Value::Null);
    serde_json::json!({
        "type": "object",
        "properties": {"risk": {"enum": risks}, "category": {"enum": categories}},
        "required": ["risk", "category"],
        "additionalProperties": false
    })
}

/// Read the model's answer: `(risk, category)`; a risk other than `none` needs a category.
pub fn parse_classification(text: &str) -> Result<(Risk, Option<Category>), String> {
    let t = text
        .trim()
        .trim_start_matches("```json")
        .trim_start_matches("```")
        .trim_end_matches("```")
        .trim();
    let answer: Answer =
        serde_json::from_str(t).map_err(|e| format!("not the expected JSON: {e}"))?;
    let risk =
        Risk::parse(&answer.risk).ok_or_else(|| format!("unknown risk \"{}\"", answer.risk))?;
    let category = match answer.category.as_deref().filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(Category::parse(c).ok_or_else(|| format!("unknown category \"{c}\""))?),
    };
    if risk != Risk::None && category.is_none() {
        return Err(format!("risk \"{}\" without a category", risk.as_str()));
    }
    Ok((risk, category))
}

/// Check an `unsure` screening with the model; a sure one is returned as it is, without a
/// call.
pub async fn check_with_model(
    model: &dyn ChatModel,
    message: &str,
    rules: Screening,
) -> ModelCheck {
    if !rules.unsure {
        return ModelCheck { screening: rules, unusable: None, usage: None };
    }
    let request = classification_request(message);
    let sent = counted(&request.messages);
    let (response, error) = collect(model.stream(request)).await;
    let usage = Some(response.usage.unwrap_or_else(|| {
        let answer = vibe_context::Tokenizer::shared()
            .map(|tk| u64::from(tk.count(&response.text)))
            .unwrap_or(0);
        TokenUsage { prompt_tokens: sent, completion_tokens: answer, total_tokens: sent + answer }
    }));
    if let Some(e) = error {
        return ModelCheck {
            screening: rules.without_model(),
            unusable: Some(format!("the model call failed: {e}")),
            usage,
        };
    }
    match parse_classification(&response.text) {
        Err(why) => ModelCheck { screening: rules.without_model(), unusable: Some(why), usage },
        Ok((risk, category)) => {
            // The model may raise or confirm a risk, never clear one the rules found.
            let screening = if risk >= rules.risk && risk != Risk::None {
                Screening {
                    risk,
                    category,
                    rule: Some("model".into()),
                    unsure: false,
                    discount: None,
                    deferred: None,
                    learned: None,
                }
            } else {
                // A `none` answers the learned detector's question too.
                Screening { unsure: false, learned: None, ..rules }
            };
            ModelCheck { screening, unusable: None, usage }
        }
    }
}

/// Tokens of `messages` by the shared tokenizer (0 when it cannot be loaded).
fn counted(messages: &[Message]) -> u64 {
    vibe_context::Tokenizer::shared()
        .map(|tk| messages.iter().map(|m| u64::from(tk.count_message(m))).sum())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model constrained to the request's schema can only write answers the parser reads
    /// (a risk other than none with a null category is the one combination it refuses, as
    /// the instructions say), and every risk and category is reachable.
    #[test]
    fn the_answer_schema_allows_what_the_parser_reads() {
        let schema = classification_request("x").params.response_schema.expect("a schema");
        let risks = schema["properties"]["risk"]["enum"].as_array().unwrap().clone();
        let categories = schema["properties"]["category"]["enum"].as_array().unwrap().clone();
        assert_eq!(risks.len(), Risk::ALL.len());
        assert_eq!(categories.len(), Category::ALL.len() + 1, "every category and null");
        for risk in &risks {
            for category in &categories {
                let answer = serde_json::json!({"risk": risk, "category": category}).to_string();
                let parsed = parse_classification(&answer);
                let refused = risk != "none" && category.is_null();
                assert_eq!(parsed.is_err(), refused, "{answer}: {parsed:?}");
            }
        }
    }

    #[test]
    fn answers_are_read_strictly() {
        assert_eq!(
            parse_classification(r#"{"risk": "acute", "category": "suicide"}"#),
            Ok((Risk::Acute, Some(Category::Suicide)))
        );
        assert_eq!(
            parse_classification("```json\n{\"risk\": \"none\", \"category\": null}\n```"),
            Ok((Risk::None, None))
        );
        for bad in [
            r#"{"risk": "high", "category": "suicide"}"#,
            r#"{"risk": "acute"}"#,
            r#"{"risk": "none", "why": 1}"#,
            "no",
            r#"{"risk": "concern", "category": "fear"}"#,
        ] {
            assert!(parse_classification(bad).is_err(), "{bad}");
        }
    }

    #[tokio::test]
    async fn only_unsure_screenings_reach_the_model_and_it_never_clears_a_risk() {
        let raise = vibe_llm::ScriptedModel::from_yaml("mode: ordered\nresponses:\n  - text: '{\"risk\": \"acute\", \"category\": \"suicide\"}'\n  - text: '{\"risk\": \"none\", \"category\": null}'\n  - text: 'hm'\n", "t").unwrap();
        let sure = Screening {
            risk: Risk::Concern,
            category: Some(Category::Suicide),
            rule: Some("r".into()),
            unsure: false,
            discount: None,
            deferred: None,
            learned: None,
        };
        assert_eq!(
            check_with_model(&raise, "x", sure.clone()).await.screening,
            sure,
            "no call for a sure result"
        );
        let unsure = Screening { unsure: true, ..sure.clone() };
        let raised = check_with_model(&raise, "x", unsure.clone()).await;
        assert_eq!(
            (raised.screening.risk, raised.screening.rule.as_deref()),
            (Risk::Acute, Some("model"))
        );
        let kept = check_with_model(&raise, "x", unsure.clone()).await;
        assert_eq!(
            (kept.screening.risk, kept.screening.unsure),
            (Risk::Concern, false),
            "none does not clear a concern"
        );
        let bad = check_with_model(&raise, "x", unsure.clone()).await;
        assert_eq!(bad.screening, unsure);
        assert!(bad.unusable.is_some());
    }

    #[tokio::test]
    async fn a_deferred_hit_stands_when_the_model_cannot_answer_and_only_its_none_clears_it() {
        let script = "mode: ordered\nresponses:\n  - text: 'hm'\n  - error: {kind: server, message: boom}\n  - text: '{\"risk\": \"none\", \"category\": null}'\n";
        let model = vibe_llm::ScriptedModel::from_yaml(script, "t").unwrap();
        let deferred = Screening {
            risk: Risk::None,
            category: None,
            rule: Some("zh.medical.emergency".into()),
            unsure: true,
            discount: Some(super::super::Discount::Context),
            deferred: Some((Risk::Acute, Category::Medical)),
            learned: None,
        };
        for _ in 0..2 {
            let check = check_with_model(&model, "x", deferred.clone()).await;
            assert!(check.unusable.is_some());
            let s = check.screening;
            assert_eq!(
                (s.risk, s.category, s.rule.as_deref(), s.unsure),
                (Risk::Acute, Some(Category::Medical), Some("zh.medical.emergency"), false)
            );
        }
        let cleared = check_with_model(&model, "x", deferred.clone()).await;
        assert_eq!((cleared.screening.risk, cleared.unusable), (Risk::None, None));
    }

    #[tokio::test]
    async fn the_learned_detectors_question_becomes_a_notice_only_when_the_model_agrees() {
        let script = "mode: ordered\nresponses:\n  - error: {kind: server, message: boom}\n  - text: 'hm'\n  - text: '{\"risk\": \"none\", \"category\": null}'\n  - text: '{\"risk\": \"acute\", \"category\": \"suicide\"}'\n";
        let model = vibe_llm::ScriptedModel::from_yaml(script, "t").unwrap();
        let question = Screening {
            rule: Some("learned:suicide".into()),
            unsure: true,
            learned: Some(Category::Suicide),
            ..Screening::clear()
        };
        assert!(question.flagged(), "the screen flags it for the check");
        // A failed call or an unusable answer: nothing stands, no notice.
        for _ in 0..2 {
            let check = check_with_model(&model, "x", question.clone()).await;
            assert!(check.unusable.is_some());
            assert_eq!(check.screening.risk, Risk::None);
            assert!(!check.screening.flagged(), "{:?}", check.screening);
        }
        let cleared = check_with_model(&model, "x", question.clone()).await;
        assert_eq!((cleared.screening.risk, cleared.screening.learned), (Risk::None, None));
        let raised = check_with_model(&model, "x", question).await.screening;
        assert_eq!((raised.risk, raised.category), (Risk::Acute, Some(Category::Suicide)));
        assert_eq!(raised.rule.as_deref(), Some("model"));
    }
}
