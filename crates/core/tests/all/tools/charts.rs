//! compute_chart, show_chart (display event), draw_tarot (seeded) and load_resource (scoped,
//! capped) as the built-in skills use them.

use serde_json::{Value, json};
use vibe_store::LOCAL_USER;
use vibe_wire::Event;

use super::Fixture;

fn birth() -> Value {
    json!({"date": "1990-05-17", "time": "08:30", "timezone": "Asia/Shanghai"})
}

#[tokio::test]
async fn compute_chart_asks_for_birth_info_then_computes_and_recomputes_on_change() {
    let f = Fixture::new();
    let out = f.call(Some("bazi"), "compute_chart", json!({})).await;
    assert_eq!(out.result["status"], "needs_input");
    assert!(out.result["next"].as_str().unwrap().contains("compute_chart"));

    let out = f.call(Some("bazi"), "compute_chart", json!({"birth_info": birth()})).await;
    assert_eq!(out.result["status"], "success", "{}", out.result);
    assert_eq!(out.result["recomputed"], true);
    let first = out.result["chart"]["pillars"].clone();

    let out = f.call(Some("bazi"), "compute_chart", json!({})).await;
    assert_eq!(out.result["recomputed"], false);

    let out = f.call(Some("bazi"), "compute_chart", json!({"birth_info": {"time": "23:30"}})).await;
    assert_eq!(out.result["recomputed"], true);
    assert_ne!(out.result["chart"]["pillars"], first, "a later birth time changes the pillars");
    assert_eq!(f.store.profile(LOCAL_USER).unwrap()["birth_info"]["time"], "23:30");
}

#[tokio::test]
async fn compute_chart_needs_a_skill_with_a_chart() {
    let f = Fixture::new();
    let out = f.call(Some("career"), "compute_chart", json!({})).await;
    assert!(out.is_error);
    assert!(out.result["message"].as_str().unwrap().contains("no compute_type"));
}

#[tokio::test]
async fn show_chart_emits_the_stored_chart_as_a_display_event() {
    let f = Fixture::new();
    let none = f.call(Some("zodiac"), "show_chart", json!({})).await;
    assert!(none.is_error);
    assert!(none.result["message"].as_str().unwrap().contains("compute_chart first"));
    assert!(f.sink.events().is_empty());

    f.store.set_path(LOCAL_USER, "birth_info", birth()).unwrap();
    f.call(Some("zodiac"), "compute_chart", json!({})).await;
    let out = f.call(Some("zodiac"), "show_chart", json!({})).await;
    assert_eq!(out.result, json!({"status": "shown", "kind": "chart", "skill_id": "zodiac"}));
    let events = f.sink.events();
    assert_eq!(events.len(), 2);
    assert_eq!(
        events[0].event,
        Event::StateChanged { skill: Some("zodiac".into()), paths: vec!["chart".into()] },
        "computing the chart says the stored chart changed"
    );
    let Event::Display { kind, data } = &events[1].event else { panic!("{:?}", events[1]) };
    assert_eq!(kind.as_str(), "chart");
    assert_eq!(data["skill"], "zodiac");
    assert_eq!(data["chart"]["sun_sign"], "taurus");
}

fn card_ids(v: &Value) -> Vec<String> {
    v["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"]["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn the_same_seed_draws_the_same_cards() {
    let f = Fixture::new();
    let tool = f.tools.get("draw_tarot").unwrap();
    let mut ctx = f.ctx(Some("tarot"));
    ctx.seed = Some(2024);
    let a = tool.call(&ctx, json!({"spread": "three", "question": "换工作？"})).await;
    let b = tool.call(&ctx, json!({"spread": "three"})).await;
    assert_eq!(a.result["seed"], 2024);
    assert_eq!(a.result["question"], "换工作？");
    assert_eq!(card_ids(&a.result).len(), 3);
    assert_eq!(card_ids(&a.result), card_ids(&b.result));

    // Replaying with the reported seed reproduces an unseeded draw.
    let free = f.call(Some("tarot"), "draw_tarot", json!({"spread": "single"})).await;
    let seed = free.result["seed"].as_u64().unwrap();
    let replay =
        f.call_offered("tarot", "draw_tarot", json!({"spread": "single", "seed": seed})).await;
    assert_eq!(card_ids(&free.result), card_ids(&replay.result));
}

#[tokio::test]
async fn tarot_skill_arguments_work_through_its_declared_definition() {
    let f = Fixture::new();
    let out = f
        .call_offered("tarot", "draw_tarot", json!({"spread": "three_card", "reversals": false}))
        .await;
    assert_eq!(out.result["status"], "success", "{}", out.result);
    assert!(out.result["cards"].as_array().unwrap().iter().all(|c| c["reversed"] == false));
    let bad = f.call_offered("tarot", "draw_tarot", json!({"spread": "celtic_cross"})).await;
    assert!(bad.is_error);
    assert_eq!(bad.result["field"], "spread");
}

#[tokio::test]
async fn load_resource_reads_inside_the_skill_and_refuses_escapes() {
    let f = Fixture::new();
    let out = f.call(Some("bazi"), "load_resource", json!({"path": "rules/birth_info.md"})).await;
    assert_eq!(out.result["status"], "success");
    assert!(out.result["text"].as_str().unwrap().contains("收集出生信息"));
    assert_eq!(out.result["truncated"], false);
    for path in ["../core/SKILL.md", "/etc/passwd"] {
        let out = f.call(Some("bazi"), "load_resource", json!({"path": path})).await;
        assert!(out.is_error, "{path}");
        assert!(
            out.result["message"].as_str().unwrap().contains("refused"),
            "{path}: {}",
            out.result
        );
    }
}

#[tokio::test]
async fn big_resources_are_truncated_with_a_marker() {
    let f = Fixture::new();
    let big = "一二三四五六七八九十\n".repeat(4000);
    f.add_skill("manual", "", &[("references/big.md", big.as_str())]);
    let out = f.call(Some("manual"), "load_resource", json!({"path": "references/big.md"})).await;
    assert_eq!(out.result["truncated"], true);
    assert!(out.result["text"].as_str().unwrap().contains("[truncated"));
    assert_eq!(out.result["bytes"], big.len());
}
