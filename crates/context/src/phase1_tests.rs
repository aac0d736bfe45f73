//! Tests of the phase-1 prompt: budget with the built-in skills and with 50 skills, the
//! catalog's contents and ranking, and the fallback persona.

use vibe_wire::Phase;

use super::fixtures::{builder_with, builtin, write_many_skills, write_skill};
use super::{ContextLimits, PromptRequest, USE_SKILL};

fn request(message: &str) -> PromptRequest<'_> {
    PromptRequest {
        user: vibe_store::LOCAL_USER,
        user_message: message,
        ..PromptRequest::default()
    }
}

fn enum_names(prompt: &super::BuiltPrompt) -> Vec<String> {
    let tool = prompt.tools.iter().find(|t| t.name == USE_SKILL).unwrap();
    tool.parameters["properties"]["skill"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn builtin_catalog_fits_in_full_without_notices() {
    let (b, _) = builtin();
    let p = b.system_prompt(&request("最近工作好累，想聊聊")).unwrap();
    assert_eq!(p.phase, Phase::Phase1);
    assert!(p.prompt_tokens <= 2000, "{}", p.prompt_tokens);
    assert!(p.notices.is_empty(), "{:?}", p.notices);
    let names = enum_names(&p);
    assert_eq!(names, ["bazi", "career", "lifecoach", "tarot", "zodiac"]);
    assert!(p.system.contains("生命对话者"));
    assert!(!p.system.contains("## 用户资料"), "no profile in phase 1");
    let description = &p.tools[0].description;
    assert!(description.contains("八字") && description.contains("命盘"), "{description}");
}

#[test]
fn the_companion_speaks_in_the_conversations_voice_then_the_profiles() {
    let (b, store) = builtin();
    let p = b.system_prompt(&request("hi")).unwrap();
    assert!(p.system.contains("## 语气：温暖"), "warm by default");
    store
        .set_path(vibe_store::LOCAL_USER, "preferences.voice_mode", serde_json::json!("direct"))
        .unwrap();
    let p = b.system_prompt(&request("hi")).unwrap();
    assert!(p.system.contains("## 语气：直接") && !p.system.contains("## 语气：温暖"));
    let req = PromptRequest { voice_mode: Some(vibe_wire::VoiceMode::Playful), ..request("hi") };
    let p = b.system_prompt(&req).unwrap();
    assert!(p.system.contains("## 语气：轻松"), "the conversation's mode wins");
    assert!(p.notices.is_empty(), "{:?}", p.notices);
    // The persona no longer describes all three voices (only the chosen one reaches the model).
    assert_eq!(p.system.matches("## 语气").count(), 1, "{}", p.system);
}

fn real_tokens(b: &super::ContextBuilder, p: &super::BuiltPrompt) -> u32 {
    let tk = b.tokenizer();
    tk.count(&super::fixtures::full_text(p)) + p.tools.iter().map(|t| tk.count_tool(t)).sum::<u32>()
}

#[test]
fn fifty_skills_still_fit_the_relevant_ones_described_first() {
    let root = tempfile::tempdir().unwrap();
    write_many_skills(root.path(), 50);
    let (b, _) = builder_with(Some(root.path()), true, ContextLimits::default());
    let p = b.system_prompt(&request("我想聊聊话题37-3")).unwrap();
    assert!(p.prompt_tokens <= 2000, "{}", p.prompt_tokens);
    assert!(real_tokens(&b, &p) <= 2000, "{}", real_tokens(&b, &p));
    assert_eq!(p.notices.len(), 1, "{:?}", p.notices);
    assert!(p.notices[0].starts_with("catalog: "), "{:?}", p.notices);
    assert!(
        p.notices[0].contains("of 55 skills") && p.notices[0].ends_with("to fit 2000 tokens"),
        "{:?}",
        p.notices
    );
    let names = enum_names(&p);
    assert_eq!(names[0], "skill-37", "the skill whose trigger matched comes first");
    let description = &p.tools[0].description;
    assert!(description.contains("- skill-37：第 37 号技能"), "{description}");
    assert!(description.contains("话题37-3"), "the matched trigger is shown");
}

#[test]
fn two_hundred_skills_list_the_most_relevant_and_say_how_many_are_left_out() {
    let root = tempfile::tempdir().unwrap();
    write_many_skills(root.path(), 200);
    let (b, _) = builder_with(Some(root.path()), true, ContextLimits::default());
    let p = b.system_prompt(&request("话题150-1 怎么办")).unwrap();
    assert!(real_tokens(&b, &p) <= 2000);
    let names = enum_names(&p);
    let expected = format!(
        "catalog: {} of 205 skills listed; {} left out to fit 2000 tokens",
        names.len(),
        205 - names.len()
    );
    assert_eq!(p.notices, [expected]);
    assert!(names.len() > 20 && names.len() < 205, "{}", names.len());
    assert_eq!(names[0], "skill-150");
    assert!(
        p.tools[0].description.contains(&format!("另有 {} 个技能因篇幅未列出", 205 - names.len()))
    );
}

#[test]
fn hidden_skills_and_core_stay_out_of_the_catalog() {
    let root = tempfile::tempdir().unwrap();
    write_skill(
        root.path(),
        "secret",
        "description: 不该出现在目录里。\ndisable-model-invocation: true",
        "# x",
    );
    write_skill(root.path(), "visible", "description: 应该出现在目录里。", "# y");
    let (b, _) = builder_with(Some(root.path()), true, ContextLimits::default());
    let names = enum_names(&b.system_prompt(&request("hi")).unwrap());
    assert!(names.contains(&"visible".to_string()));
    assert!(!names.contains(&"secret".to_string()));
    assert!(!names.contains(&"core".to_string()));
}

#[test]
fn without_a_core_skill_the_fallback_persona_is_used() {
    let root = tempfile::tempdir().unwrap();
    write_skill(root.path(), "only", "description: 唯一的技能。", "# z");
    let (b, _) = builder_with(Some(root.path()), false, ContextLimits::default());
    let p = b.system_prompt(&request("hello")).unwrap();
    assert!(p.system.starts_with("# Vibe · 生命对话者"));
    assert_eq!(enum_names(&p), ["only"]);
}

#[test]
fn an_uninstalled_active_skill_falls_back_to_phase_one_with_a_notice() {
    let (b, _) = builtin();
    let p = b
        .system_prompt(&PromptRequest { active_skill: Some("astrology-x"), ..request("hi") })
        .unwrap();
    assert_eq!(p.phase, Phase::Phase1);
    assert!(p.notices[0].contains("astrology-x"), "{:?}", p.notices);
}

#[test]
fn sections_add_up_and_match_the_real_count() {
    let (b, _) = builtin();
    let p = b
        .system_prompt(&PromptRequest {
            summary: Some("用户叫小林，在杭州做设计师。"),
            ..request("hi")
        })
        .unwrap();
    assert_eq!(p.sections.iter().map(|s| s.tokens).sum::<u32>(), p.prompt_tokens);
    let names: Vec<&str> = p.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["persona", "voice", "tool_guide", "wellbeing", "language", "catalog", "summary"]
    );
    assert!(p.turn.as_deref().unwrap().contains("用户叫小林") && !p.system.contains("用户叫小林"));
    // Counting section by section may differ from counting the whole by a token at a seam.
    let real = real_tokens(&b, &p);
    assert!(
        real.abs_diff(p.prompt_tokens) <= p.sections.len() as u32,
        "{real} vs {}",
        p.prompt_tokens
    );
}
