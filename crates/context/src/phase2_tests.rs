//! Tests of the phase-2 prompt: sections and their order, the declared profile fields and the
//! skill's state, voice and persona choice, scenarios, and the trim order on an oversized skill.

use serde_json::json;
use vibe_store::{LOCAL_USER, Store};
use vibe_wire::Phase;

use super::fixtures::{builder_with, builtin, full_text, write_skill};
use super::{BuiltPrompt, ContextLimits, PromptRequest};

fn request<'a>(skill: &'a str, message: &'a str) -> PromptRequest<'a> {
    PromptRequest {
        user: LOCAL_USER,
        active_skill: Some(skill),
        user_message: message,
        ..PromptRequest::default()
    }
}

fn names(p: &BuiltPrompt) -> Vec<&str> {
    p.sections.iter().map(|s| s.name.as_str()).collect()
}

/// The section under `heading`, in the system prompt or the turn's sections.
fn section(p: &BuiltPrompt, heading: &str) -> String {
    let text = full_text(p);
    let start = text.find(heading).unwrap_or_else(|| panic!("no {heading} in\n{text}"));
    let rest = &text[start..];
    let end = rest[heading.len()..].find("\n## ").map_or(rest.len(), |i| i + heading.len());
    rest[..end].to_string()
}

pub(crate) fn bazi_profile(store: &Store) {
    let birth = json!({"date": "1990-05-17", "time": "08:30", "place": "成都", "timezone": "Asia/Shanghai"});
    store.set_path(LOCAL_USER, "birth_info", birth.clone()).unwrap();
    // The chart as `vibe_core::compute::ensure_chart` stores it (no chart preferences).
    let options = vibe_charts::ChartOptions::from_preferences(None).unwrap();
    let chart = vibe_charts::compute_with("bazi", &birth, &options).unwrap();
    store.set_path(LOCAL_USER, "skills.bazi.chart", chart).unwrap();
}

#[test]
fn bazi_prompt_has_every_section_in_order_within_budget() {
    let (b, store) = builtin();
    bazi_profile(&store);
    let p = b.system_prompt(&request("bazi", "帮我看看八字，我最近事业很迷茫")).unwrap();
    assert_eq!(p.phase, Phase::Phase2);
    assert_eq!(p.skill.as_deref(), Some("bazi"));
    assert_eq!(
        names(&p),
        [
            "persona",
            "voice",
            "rules",
            "ethics",
            "boundaries",
            "wellbeing",
            "language",
            "cases",
            "profile",
            "state"
        ]
    );
    assert!(p.prompt_tokens <= 6000, "{}", p.prompt_tokens);
    assert_eq!(p.sections.iter().map(|s| s.tokens).sum::<u32>(), p.prompt_tokens);
    assert!(p.notices.is_empty(), "{:?}", p.notices);
    assert!(p.system.starts_with("# 八字命理咨询师"));
    assert!(section(&p, "## 用户资料").contains("\"date\":\"1990-05-17\""));
    let state = section(&p, "## 技能记录（skills.bazi）");
    assert!(state.contains("\n- chart：{") && state.contains("day_master"), "{state}");
    assert!(!state.contains("_meta"));
    assert!(section(&p, "## 伦理边界").contains("宿命论断言"));
    assert!(section(&p, "## 参考案例").contains("###"), "matched cases are shown");
}

#[test]
fn divination_skills_are_framed_as_reflection_and_forbid_prediction_and_judging_people() {
    let (b, store) = builtin();
    bazi_profile(&store);
    for (skill, message, framing) in [
        ("bazi", "帮我看看八字", "而不是判决书"),
        ("zodiac", "我是天蝎座，说说我", "而不是命运的剧本"),
        ("tarot", "帮我抽一张牌", "牌不预言未来"),
    ] {
        let p = b.system_prompt(&request(skill, message)).unwrap();
        assert!(p.system.contains(framing), "{skill}: no framing {framing:?}");
        let ethics = section(&p, "## 伦理边界");
        for forbidden in ["死亡", "拒绝某人"] {
            assert!(ethics.contains(forbidden), "{skill} does not forbid {forbidden}:\n{ethics}");
        }
    }
}

#[test]
fn without_birth_info_the_profile_says_not_provided() {
    let (b, _) = builtin();
    let p = b.system_prompt(&request("bazi", "算八字")).unwrap();
    assert!(section(&p, "## 用户资料").contains("- birth_info：（尚未提供）"));
    assert!(section(&p, "## 技能记录").contains("（还没有记录）"));
}

#[test]
fn persona_and_voice_follow_the_request_then_the_profile() {
    let (b, store) = builtin();
    store.set_path(LOCAL_USER, "preferences.voice_mode", json!("playful")).unwrap();
    let p = b.system_prompt(&request("lifecoach", "我想设定今年的目标")).unwrap();
    assert!(p.system.contains("## 当前人格：coach"));
    assert!(p.system.contains("## 语气：轻松"));
    let req = PromptRequest {
        persona: Some("future_self"),
        voice_mode: Some(vibe_wire::VoiceMode::Direct),
        ..request("lifecoach", "hi")
    };
    let p = b.system_prompt(&req).unwrap();
    assert!(p.system.contains("## 当前人格：future_self"));
    assert!(p.system.contains("## 语气：直接"));
    assert!(p.notices.is_empty(), "{:?}", p.notices);
}

#[test]
fn a_voice_the_skill_does_not_use_falls_back_with_a_notice() {
    let (b, _) = builtin();
    let req = PromptRequest {
        voice_mode: Some(vibe_wire::VoiceMode::Playful),
        persona: Some("nobody"),
        ..request("bazi", "hi")
    };
    let p = b.system_prompt(&req).unwrap();
    assert!(p.system.contains("## 语气：温暖"));
    assert!(
        p.notices.iter().any(|n| n.contains("bazi does not use the playful voice")),
        "{:?}",
        p.notices
    );
    // bazi has no personas: the unknown persona is simply irrelevant.
    assert!(!p.system.contains("当前人格"));
}

#[test]
fn a_chosen_scenario_replaces_the_rules() {
    let (b, _) = builtin();
    let req =
        PromptRequest { scenario: Some("career_direction"), ..request("bazi", "看看事业") };
    let p = b.system_prompt(&req).unwrap();
    assert!(names(&p).contains(&"scenario") && !names(&p).contains(&"rules"));
    assert!(p.system.contains("## 当前场景：career_direction"));
    let req = PromptRequest { scenario: Some("no_such"), ..request("bazi", "看看事业") };
    let p = b.system_prompt(&req).unwrap();
    assert!(names(&p).contains(&"rules"));
    assert!(
        p.notices.iter().any(|n| n.starts_with("scenario: ") && n.contains("no_such")),
        "{:?}",
        p.notices
    );
}

#[test]
fn protocol_and_summary_ride_with_the_turn_after_the_data() {
    let (b, _) = builtin();
    let req = PromptRequest {
        protocol_prompt: Some("## 一日重置 · 第 2 步\n请用户写下最不想再过的一天。"),
        summary: Some("用户叫小林，在杭州做设计师。"),
        ..request("lifecoach", "继续")
    };
    let p = b.system_prompt(&req).unwrap();
    let n = names(&p);
    let pos = |s: &str| n.iter().position(|x| *x == s).unwrap();
    assert!(
        pos("language") < pos("state")
            && pos("state") < pos("protocol")
            && pos("protocol") < pos("summary")
    );
    let turn = p.turn.as_deref().unwrap();
    assert!(turn.contains("## 一日重置 · 第 2 步\n请用户写下最不想再过的一天。"));
    assert!(turn.contains("用户叫小林"));
    assert!(!p.system.contains("一日重置") && !p.system.contains("用户叫小林"));
}

#[test]
fn a_state_write_shows_in_the_next_prompt() {
    let (b, store) = builtin();
    let before = b.system_prompt(&request("lifecoach", "我的目标")).unwrap();
    assert!(!full_text(&before).contains("每天早起"));
    store
        .write_state(LOCAL_USER, "lifecoach", "north_star", json!({"goal": "每天早起写作"}))
        .unwrap();
    let after = b.system_prompt(&request("lifecoach", "我的目标")).unwrap();
    assert!(section(&after, "## 技能记录").contains("每天早起写作"));
}

#[test]
fn tools_count_against_the_budget() {
    let (b, _) = builtin();
    let tools = vec![vibe_llm::ToolDef {
        name: "read_state".into(),
        description: "读取本技能记录的数据。".into(),
        parameters: json!({"type": "object", "properties": {}}).into(),
    }];
    let p =
        b.system_prompt(&PromptRequest { tools: &tools, ..request("career", "改简历") }).unwrap();
    // The tools follow the system prompt's sections; the turn's sections come after them.
    let tools_section = p.sections.iter().find(|s| s.name == "tools").unwrap();
    assert_eq!(tools_section.tokens, b.tokenizer().count_tool(&tools[0]));
    let after: Vec<&str> = p
        .sections
        .iter()
        .skip_while(|s| s.name != "tools")
        .skip(1)
        .map(|s| s.name.as_str())
        .collect();
    assert!(after.iter().all(|n| ["cases", "profile", "state", "protocol", "summary"].contains(n)));
    assert_eq!(p.tools, tools);
}

/// A skill whose every part is far too big: long rules, many matching cases, a big state.
fn oversized(root: &std::path::Path, rule_lines: usize) {
    let frontmatter = "description: 一个过大的测试技能。\nexpert_persona: 测试教练\n\
        profile_fields: [extracted, skills.big]\nethics:\n  forbidden:\n    - 绝不羞辱用户";
    write_skill(root, "big", frontmatter, "# 测试教练\n\n你是测试教练，专门帮助用户复盘。");
    let dir = root.join("big");
    std::fs::create_dir_all(dir.join("rules")).unwrap();
    std::fs::create_dir_all(dir.join("cases")).unwrap();
    for r in 0..4 {
        let long = format!(
            "# 规则 {r}\n\n第 {r} 条规则的开头一段。\n\n{}",
            "这是一段很长的规则细节，讲复盘的方法。\n".repeat(rule_lines)
        );
        std::fs::write(dir.join(format!("rules/r{r}.md")), long).unwrap();
    }
    for c in 0..6 {
        let case = format!(
            "---\ntitle: 复盘案例 {c}\nkeywords: [复盘, 拖延]\n---\n\n## 背景\n{}",
            "用户总是拖延，想学会复盘。".repeat(40)
        );
        std::fs::write(dir.join(format!("cases/c{c}.md")), case).unwrap();
    }
}

#[test]
fn an_oversized_skill_is_trimmed_in_the_documented_order() {
    let root = tempfile::tempdir().unwrap();
    oversized(root.path(), 100);
    let limits = ContextLimits { cases_top_k: 4, ..ContextLimits::default() };
    let (b, store) = builder_with(Some(root.path()), true, limits);
    for i in 0..40 {
        let entry =
            json!({"date": format!("2026-01-{:02}", i % 28 + 1), "note": "今天复盘：".repeat(40)});
        store.append_to_list(LOCAL_USER, "big", "journal", entry, 100).unwrap();
    }
    let protocol = "## 复盘流程 · 第 1 步\n请用户写下今天最重要的一件事。";
    let req = PromptRequest {
        protocol_prompt: Some(protocol),
        ..request("big", "我总是拖延，想复盘")
    };
    let p = b.system_prompt(&req).unwrap();
    assert!(p.prompt_tokens <= 6000, "{}", p.prompt_tokens);
    let tk = b.tokenizer();
    assert!(tk.count(&full_text(&p)) <= 6000);
    assert_eq!(p.sections.iter().map(|s| s.tokens).sum::<u32>(), p.prompt_tokens);
    // Never trimmed.
    assert!(p.system.starts_with("# 测试教练\n\n你是测试教练，专门帮助用户复盘。"));
    assert!(p.system.contains("- 绝不羞辱用户"));
    assert!(p.turn.as_deref().unwrap().contains(protocol));
    assert!(p.system.contains("## 能力边界"));
    // Trimmed in order: every case, then the state's lists, then the rules to their openings.
    let kinds: Vec<&str> = p.notices.iter().map(|n| n.split(':').next().unwrap()).collect();
    assert_eq!(&kinds[..3], ["cases", "state", "rules"], "{:?}", p.notices);
    assert!(
        p.notices[0].starts_with("cases: 0 of 4 matched cases kept; 4 left out to fit 6000 tokens"),
        "{:?}",
        p.notices
    );
    assert!(!full_text(&p).contains("## 参考案例"));
    assert!(p.system.contains("第 0 条规则的开头一段。"));
    assert!(section(&p, "## 技能记录").contains("共 40 条"));
}

#[test]
fn a_slightly_oversized_skill_loses_only_cases() {
    let root = tempfile::tempdir().unwrap();
    oversized(root.path(), 60);
    let limits = ContextLimits { cases_top_k: 6, ..ContextLimits::default() };
    let (b, _) = builder_with(Some(root.path()), true, limits);
    let p = b.system_prompt(&request("big", "我总是拖延，想复盘")).unwrap();
    assert!(p.prompt_tokens <= 6000);
    assert_eq!(p.notices.len(), 1, "{:?}", p.notices);
    assert!(p.notices[0].starts_with("cases: "), "{:?}", p.notices);
    assert!(!p.notices[0].starts_with("cases: 0 of"), "some cases still fit: {:?}", p.notices);
    assert!(p.system.contains("这是一段很长的规则细节"), "rules untouched");
}

#[test]
fn edits_to_the_persona_and_rules_show_in_the_next_prompt() {
    let root = tempfile::tempdir().unwrap();
    write_skill(root.path(), "coach", "description: 一个测试教练。", "你是测试教练。");
    let rules = root.path().join("coach/rules");
    std::fs::create_dir_all(&rules).unwrap();
    std::fs::write(rules.join("01.md"), "先倾听。").unwrap();
    let (b, _) = builder_with(Some(root.path()), true, ContextLimits::default());
    let first = b.system_prompt(&request("coach", "你好")).unwrap();
    assert!(first.system.contains("你是测试教练。") && first.system.contains("先倾听。"));
    let again = b.system_prompt(&request("coach", "你好")).unwrap();
    assert_eq!(again.system, first.system, "unchanged files give the same prompt");

    // Different lengths, so the files' fingerprints change even within one mtime tick.
    write_skill(
        root.path(),
        "coach",
        "description: 一个测试教练。",
        "你是耐心的测试教练，慢慢来。",
    );
    std::fs::write(rules.join("01.md"), "先倾听，再复述对方的话。").unwrap();
    std::fs::write(rules.join("02.md"), "每次只定一个小目标。").unwrap();
    let edited = b.system_prompt(&request("coach", "你好")).unwrap();
    assert!(edited.system.contains("你是耐心的测试教练，慢慢来。"), "{}", edited.system);
    assert!(edited.system.contains("先倾听，再复述对方的话。"));
    assert!(edited.system.contains("每次只定一个小目标。"));
    assert!(!edited.system.contains("你是测试教练。"));
    let rules_tokens =
        |p: &BuiltPrompt| p.sections.iter().find(|s| s.name == "rules").unwrap().tokens;
    assert!(rules_tokens(&edited) > rules_tokens(&first), "the new rules are counted");
}

#[test]
fn the_turn_gives_way_before_the_system_prompt_changes() {
    let root = tempfile::tempdir().unwrap();
    oversized(root.path(), 60);
    let limits =
        ContextLimits { cases_top_k: 2, summary_max_tokens: 2000, ..ContextLimits::default() };
    let (b, _) = builder_with(Some(root.path()), true, limits);
    let plain = b.system_prompt(&request("big", "我总是拖延，想复盘")).unwrap();
    assert!(plain.system.contains("这是一段很长的规则细节"), "{:?}", plain.notices);
    // A long conversation's summary pushes the turn over the budget: the summary and the cases
    // are shortened, the system prompt (the cached prefix) stays exactly as it was.
    let facts: String =
        (0..400).map(|i| format!("- 第 {i} 件事：用户说起了工作里的一次复盘和拖延。\n")).collect();
    let req =
        PromptRequest { summary: Some(&facts), ..request("big", "我总是拖延，想复盘") };
    let long = b.system_prompt(&req).unwrap();
    assert!(long.prompt_tokens <= 6000, "{}", long.prompt_tokens);
    let kinds: Vec<&str> = long.notices.iter().map(|n| n.split(':').next().unwrap()).collect();
    assert!(kinds.contains(&"summary"), "{:?}", long.notices);
    assert!(!kinds.contains(&"rules"), "{:?}", long.notices);
    assert_eq!(long.system, plain.system);
}

#[test]
fn rule_files_are_cut_from_the_last_so_the_first_stay_whole() {
    let root = tempfile::tempdir().unwrap();
    oversized(root.path(), 100);
    let limits = ContextLimits { cases_top_k: 0, ..ContextLimits::default() };
    let (b, _) = builder_with(Some(root.path()), true, limits);
    let p = b.system_prompt(&request("big", "我总是拖延，想复盘")).unwrap();
    assert!(p.prompt_tokens <= 6000, "{}", p.prompt_tokens);
    let rules: Vec<&String> = p.notices.iter().filter(|n| n.starts_with("rules: ")).collect();
    assert_eq!(rules.len(), 1, "{:?}", p.notices);
    assert!(rules[0].contains("of 4 files cut to their opening paragraphs"), "{:?}", p.notices);
    assert!(!rules[0].starts_with("rules: 4 of 4"), "one file or two suffice: {:?}", p.notices);
    // The first file is whole (all its 100 lines), the last is its opening only.
    let r0 = p.system.split("# 规则 1").next().unwrap();
    assert_eq!(r0.matches("这是一段很长的规则细节").count(), 100);
    let r3 = p.system.split("# 规则 3").nth(1).unwrap();
    assert!(r3.matches("这是一段很长的规则细节").count() <= 1, "{r3}");
}
