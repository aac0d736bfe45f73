//! use_skill: existence and model-invocation checks, birth-info requirements as
//! `needs_input`, the chart computed on activation, and the conversation's skill persisted.

use serde_json::json;
use vibe_agent::tools::Effect;
use vibe_store::LOCAL_USER;

use super::Fixture;

fn birth() -> serde_json::Value {
    json!({"date": "1990-05-17", "time": "08:30", "place": "成都", "timezone": "Asia/Shanghai"})
}

#[tokio::test]
async fn bazi_without_birth_info_asks_for_it_and_activates_nothing() {
    let f = Fixture::new();
    let out = f.call(None, "use_skill", json!({"skill": "bazi"})).await;
    assert!(!out.is_error, "needs_input is an observation, not an error");
    assert_eq!(out.result["status"], "needs_input");
    assert_eq!(out.result["missing"], json!(["birth_info.date", "birth_info.timezone"]));
    assert_eq!(out.result["recommended"], json!(["birth_info.time"]));
    let ask = out.result["ask_user"].as_str().unwrap();
    assert!(ask.contains("出生日期") && ask.contains("出生城市"), "{ask}");
    assert!(out.effect.is_none());
    assert_eq!(f.store.conversation(&f.conversation).unwrap().skill, None);
}

#[tokio::test]
async fn bazi_with_birth_info_computes_the_chart_and_persists_the_skill() {
    let f = Fixture::new();
    f.store.set_path(LOCAL_USER, "birth_info", birth()).unwrap();
    let out = f.call(None, "use_skill", json!({"skill": "bazi"})).await;
    assert!(!out.is_error, "{}", out.result);
    assert_eq!(out.result["status"], "activated");
    assert_eq!(out.result["skill"], "bazi");
    assert_eq!(out.result["scenario"], "basic_reading");
    assert_eq!(out.result["chart"], "computed");
    assert_eq!(
        out.effect,
        Some(Effect::SkillActivated {
            skill: "bazi".into(),
            scenario: Some("basic_reading".into())
        })
    );
    let chart = &f.store.profile(LOCAL_USER).unwrap()["skills"]["bazi"]["chart"];
    assert_eq!(chart["compute_type"], "bazi");
    assert!(chart["pillars"]["hour"].is_string(), "{chart}");
    let conv = f.store.conversation(&f.conversation).unwrap();
    assert_eq!(
        (conv.skill.as_deref(), conv.scenario.as_deref()),
        (Some("bazi"), Some("basic_reading"))
    );

    // Activating again reuses the stored chart.
    let again =
        f.call(None, "use_skill", json!({"skill": "bazi", "scenario": "career_direction"})).await;
    assert_eq!(again.result["chart"], "current");
    assert_eq!(
        f.store.conversation(&f.conversation).unwrap().scenario.as_deref(),
        Some("career_direction")
    );
}

#[tokio::test]
async fn birth_info_given_with_the_call_is_saved_then_used() {
    let f = Fixture::new();
    let out = f.call(None, "use_skill", json!({"skill": "bazi", "birth_info": birth()})).await;
    assert_eq!(out.result["status"], "activated", "{}", out.result);
    assert_eq!(f.store.profile(LOCAL_USER).unwrap()["birth_info"]["place"], "成都");
}

#[tokio::test]
async fn bad_birth_info_names_the_field_and_activates_nothing() {
    let f = Fixture::new();
    let info = json!({"date": "1990-05-17", "timezone": "Mars/Base"});
    let out = f.call(None, "use_skill", json!({"skill": "zodiac", "birth_info": info})).await;
    assert!(out.is_error);
    assert_eq!(out.result["field"], "birth_info.timezone");
    assert!(out.effect.is_none());
    assert_eq!(f.store.conversation(&f.conversation).unwrap().skill, None);
    assert_eq!(f.store.profile(LOCAL_USER).unwrap()["birth_info"], json!({}), "nothing saved");
}

#[tokio::test]
async fn without_a_birth_time_bazi_activates_with_a_note() {
    let f = Fixture::new();
    f.store
        .set_path(
            LOCAL_USER,
            "birth_info",
            json!({"date": "1990-05-17", "timezone": "Asia/Shanghai"}),
        )
        .unwrap();
    let out = f.call(None, "use_skill", json!({"skill": "bazi"})).await;
    assert_eq!(out.result["status"], "activated");
    assert!(out.result["notes"][0].as_str().unwrap().contains("birth_info.time"));
}

#[tokio::test]
async fn a_skill_without_requirements_activates_with_its_default_scenario() {
    let f = Fixture::new();
    let out = f.call(None, "use_skill", json!({"skill": "tarot"})).await;
    assert_eq!(
        out.result,
        json!({"status": "activated", "skill": "tarot", "scenario": "three_card"})
    );
    assert_eq!(f.store.conversation(&f.conversation).unwrap().skill.as_deref(), Some("tarot"));
}

#[tokio::test]
async fn unknown_skills_and_scenarios_are_refused_with_the_choices() {
    let f = Fixture::new();
    let out = f.call(None, "use_skill", json!({"skill": "astrology"})).await;
    assert!(out.is_error);
    assert_eq!(out.result["field"], "skill");
    let msg = out.result["message"].as_str().unwrap();
    assert!(msg.contains("bazi") && msg.contains("career"), "{msg}");

    let out = f.call(None, "use_skill", json!({"skill": "career", "scenario": "nope"})).await;
    assert_eq!(out.result["field"], "scenario");
    assert!(out.result["message"].as_str().unwrap().contains("resume_review"));

    let out = f.call(None, "use_skill", json!({})).await;
    assert_eq!(out.result["field"], "skill");
}

#[tokio::test]
async fn skills_closed_to_the_model_are_refused() {
    let f = Fixture::new();
    f.add_skill("private-notes", "disable-model-invocation: true\n", &[]);
    let out = f.call(None, "use_skill", json!({"skill": "private-notes"})).await;
    assert!(out.is_error);
    let msg = out.result["message"].as_str().unwrap();
    assert!(msg.contains("disable-model-invocation"), "{msg}");
    assert!(!msg.contains("private-notes,"), "closed skills are not offered as choices: {msg}");
    assert_eq!(f.store.conversation(&f.conversation).unwrap().skill, None);
}

#[tokio::test]
async fn a_skill_that_cannot_load_is_an_error_and_binds_nothing() {
    let f = Fixture::new();
    let dir = f.add_skill("broken", "", &[]);
    let mut text = std::fs::read(dir.join("SKILL.md")).unwrap();
    text.extend_from_slice(b"\n\xff\xfe not UTF-8\n");
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
    let out = f.call(None, "use_skill", json!({"skill": "broken"})).await;
    assert!(out.is_error, "{}", out.result);
    assert_eq!(out.result["field"], "skill");
    assert!(out.result["message"].as_str().unwrap().contains("cannot be loaded"), "{}", out.result);
    assert!(out.effect.is_none());
    let conv = f.store.conversation(&f.conversation).unwrap();
    assert_eq!(conv.skill, None, "the conversation was bound to a broken skill");
}
