//! `draw_tarot`: a seeded draw from `vibe_charts::tarot`. The seed is the call's `seed`
//! argument, else the run's seed (`ToolContext::seed`, for tests and replays), else a random
//! one; it is always returned so the same cards can be drawn again. Card meanings and the
//! drawing itself belong to `vibe-charts`.

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;

use super::args::{ArgError, Args};
use super::{Tool, ToolContext, ToolKind, ToolOutput, tool_def};

const MAX_QUESTION_CHARS: usize = 500;
/// Random seeds stay below 2^53 so JavaScript reads them exactly.
const MAX_RANDOM_SEED: u64 = 1 << 53;

pub(crate) struct DrawTarot;

impl Tool for DrawTarot {
    fn name(&self) -> &str {
        "draw_tarot"
    }

    fn changes_state(&self) -> bool {
        false
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Compute
    }

    fn definition(&self) -> ToolDef {
        tool_def(
            self.name(),
            "抽塔罗牌：spread=single 一张（指引），three 三张（过去/现在/未来）。返回牌名、位置、\
             正逆位和牌义，以及 seed（重放时用同一 seed 得到同样的牌）。\
             例：{\"spread\": \"three\", \"question\": \"关于换工作我需要看见什么？\"}。\
             用户不用逆位时传 allow_reversed=false。不要为了“换个结果”反复抽；不要编造牌面。",
            json!({
                "type": "object",
                "properties": {
                    "spread": {"type": "string", "enum": ["single", "three"], "default": "single"},
                    "allow_reversed": {"type": "boolean", "default": true},
                    "question": {"type": "string", "maxLength": MAX_QUESTION_CHARS}
                },
                "required": ["spread"]
            }),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            match draw(&args, ctx.seed) {
                Ok(result) => ToolOutput::ok(result),
                Err(e) => e.into(),
            }
        })
    }
}

/// The draw for `args`, falling back to `run_seed` and then to a random seed.
pub(crate) fn draw(args: &Value, run_seed: Option<u64>) -> Result<Value, ArgError> {
    let a = Args::new("draw_tarot", args)?;
    let question = a.opt_text("question")?;
    if question.is_some_and(|q| q.chars().count() > MAX_QUESTION_CHARS) {
        return Err(a.error("question", format!("keep it under {MAX_QUESTION_CHARS} characters")));
    }
    // `reversals` is the name the tarot skill's tools.yaml uses; `allow_reversed` ours.
    let reversals = match a.opt_bool("allow_reversed")? {
        Some(b) => Some(b),
        None => a.opt_bool("reversals")?,
    };
    let mut normalized = json!({
        "spread": a.get("spread").cloned().unwrap_or(Value::Null),
        "seed": a.get("seed").cloned().unwrap_or(Value::Null),
        "reversals": reversals,
    });
    if normalized["seed"].is_null()
        && let Some(seed) = run_seed
    {
        normalized["seed"] = json!(seed);
    }
    let fallback = fastrand::u64(0..MAX_RANDOM_SEED);
    let drawn = vibe_charts::tarot::draw_from_json(&normalized, fallback).map_err(|e| {
        let field = e.field().unwrap_or("draw_tarot").trim_start_matches("draw_tarot.").to_string();
        ArgError { field, message: e.to_string() }
    })?;
    let mut out = serde_json::to_value(&drawn).unwrap_or(Value::Null);
    // Each card already carries the meaning that applies; both meanings would double the text.
    if let Some(cards) = out.get_mut("cards").and_then(Value::as_array_mut) {
        for card in
            cards.iter_mut().filter_map(|c| c.get_mut("card")).filter_map(Value::as_object_mut)
        {
            card.remove("upright");
            card.remove("reversed");
        }
    }
    out["status"] = json!("success");
    if let Some(q) = question {
        out["question"] = json!(q);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &Value) -> Vec<String> {
        v["cards"].as_array().unwrap().iter().map(|c| c["card"]["id"].to_string()).collect()
    }

    #[test]
    fn the_run_seed_makes_draws_repeatable() {
        let a = draw(&json!({"spread": "three"}), Some(42)).unwrap();
        let b = draw(&json!({"spread": "three_card"}), Some(42)).unwrap();
        assert_eq!(a["seed"], 42);
        assert_eq!(names(&a).len(), 3);
        assert_eq!(names(&a), names(&b));
    }

    #[test]
    fn an_explicit_seed_wins_over_the_run_seed() {
        let a = draw(&json!({"spread": "single", "seed": 7}), Some(42)).unwrap();
        assert_eq!(a["seed"], 7);
    }

    #[test]
    fn without_any_seed_one_is_chosen_and_reported() {
        let a = draw(&json!({"spread": "single"}), None).unwrap();
        let seed = a["seed"].as_u64().unwrap();
        assert!(seed < MAX_RANDOM_SEED);
        let again = draw(&json!({"spread": "single", "seed": seed}), None).unwrap();
        assert_eq!(names(&a), names(&again));
    }

    #[test]
    fn reversals_can_be_turned_off_under_either_name() {
        for key in ["allow_reversed", "reversals"] {
            for seed in 0..20 {
                let d = draw(&json!({"spread": "three", key: false}), Some(seed)).unwrap();
                assert!(d["cards"].as_array().unwrap().iter().all(|c| c["reversed"] == false));
            }
        }
    }

    #[test]
    fn a_bad_spread_names_the_argument() {
        let e = draw(&json!({"spread": "celtic_cross"}), Some(1)).unwrap_err();
        assert_eq!(e.field, "spread");
        assert!(e.message.contains("single"), "{}", e.message);
    }
}
