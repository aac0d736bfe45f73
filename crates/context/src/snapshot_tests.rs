//! Snapshots of rendered prompts (`snapshots/`), so every change to the prompt text is
//! reviewed: phase 1 with the built-in skills, phase 2 for bazi with a fixed profile and
//! chart, and lifecoach with some state. Each shows the system prompt, the tools and the
//! turn's sections that ride with the latest user message.

use serde_json::json;
use vibe_store::LOCAL_USER;

use super::fixtures::builtin;
use super::phase2_tests::bazi_profile;
use super::{BuiltPrompt, PromptRequest};

fn render(p: &BuiltPrompt) -> String {
    let sections: Vec<String> =
        p.sections.iter().map(|s| format!("{}={}", s.name, s.tokens)).collect();
    let tools: Vec<String> =
        p.tools.iter().map(|t| serde_json::to_string_pretty(t).unwrap_or_default()).collect();
    format!(
        "phase: {:?}\nprompt_tokens: {}\nsections: {}\nnotices: {:?}\n\n======== system ========\n{}\n\n======== tools ========\n{}\n\n======== turn (with the latest user message) ========\n{}\n",
        p.phase,
        p.prompt_tokens,
        sections.join(", "),
        p.notices,
        p.system,
        tools.join("\n"),
        p.turn.as_deref().unwrap_or("(none)")
    )
}

#[test]
fn phase1_prompt_with_the_builtin_skills() {
    let (b, _) = builtin();
    let req = PromptRequest {
        user: LOCAL_USER,
        user_message: "最近压力好大，想找人聊聊",
        ..PromptRequest::default()
    };
    insta::assert_snapshot!("phase1_builtin", render(&b.system_prompt(&req).unwrap()));
}

#[test]
fn phase2_prompt_for_bazi_with_a_fixed_profile_and_chart() {
    let (b, store) = builtin();
    bazi_profile(&store);
    let req = PromptRequest {
        user: LOCAL_USER,
        active_skill: Some("bazi"),
        user_message: "我最近在纠结要不要换工作，想从八字看看自己适合什么",
        ..PromptRequest::default()
    };
    insta::assert_snapshot!("phase2_bazi", render(&b.system_prompt(&req).unwrap()));
}

#[test]
fn phase2_prompt_for_lifecoach_with_state() {
    let (b, store) = builtin();
    store
        .set_path(
            LOCAL_USER,
            "extracted",
            json!({"facts": ["在杭州做设计师"], "goals": ["每天早起写作"]}),
        )
        .unwrap();
    store
        .write_state(
            LOCAL_USER,
            "lifecoach",
            "north_star",
            json!({"vision": "做一个能自由创作的设计师"}),
        )
        .unwrap();
    store
        .write_state(
            LOCAL_USER,
            "lifecoach",
            "goals",
            json!({"active": [{"title": "每天 6:30 起床", "status": "in_progress"}]}),
        )
        .unwrap();
    let req = PromptRequest {
        user: LOCAL_USER,
        active_skill: Some("lifecoach"),
        user_message: "我又没能早起，感觉自己好没自律",
        voice_mode: Some(vibe_wire::VoiceMode::Warm),
        ..PromptRequest::default()
    };
    insta::assert_snapshot!("phase2_lifecoach", render(&b.system_prompt(&req).unwrap()));
}
