//! The context builder through its public API: phase budgets with the built-in skills and
//! with many installed skills, history windows, and compaction keeping early facts.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns unwrap too

use std::path::Path;
use std::sync::Arc;

use vibe_agent::tools::ToolRegistry;
use vibe_context::{
    ContextBuilder, ContextLimits, FLAG_WELLBEING_CONCERN, PromptRequest, USE_SKILL,
};
use vibe_llm::ScriptedModel;
use vibe_skills::{Registry, RegistryConfig};
use vibe_store::{LOCAL_USER, NewMessage, Role, Store};
use vibe_wire::Phase;

fn builder(project: Option<&Path>) -> (ContextBuilder, Arc<Store>) {
    let config = RegistryConfig {
        project: project.map(Path::to_path_buf),
        builtin: vibe_skills::builtin_dir(),
        ..RegistryConfig::default()
    };
    let store = Arc::new(Store::open_in_memory().unwrap());
    let skills = Arc::new(Registry::open(config));
    (ContextBuilder::new(store.clone(), skills, ContextLimits::default()).unwrap(), store)
}

fn real_tokens(b: &ContextBuilder, system: &str, tools: &[vibe_llm::ToolDef]) -> u32 {
    let tk = b.tokenizer();
    tk.count(system) + tools.iter().map(|t| tk.count_tool(t)).sum::<u32>()
}

fn write_skills(root: &Path, count: usize) {
    for i in 0..count {
        let frontmatter = format!(
            "description: 第 {i} 个扩展技能，帮助用户处理第 {i} 类生活问题：梳理现状、设定目标、跟进复盘。An extra skill for topic {i}.\ntriggers: [扩展{i}, 主题{i}, topic{i}, 练习{i}, 复盘{i}]"
        );
        vibe_test_support::write_skill(
            root,
            &format!("extra-{i:02}"),
            &frontmatter,
            &format!("# 扩展 {i}"),
        );
    }
}

#[test]
fn phase_one_fits_its_budget_with_builtin_and_fifty_skills() {
    let (b, _) = builder(None);
    let req =
        PromptRequest { user: LOCAL_USER, user_message: "你好", ..PromptRequest::default() };
    let p = b.system_prompt(&req).unwrap();
    assert_eq!(p.phase, Phase::Phase1);
    assert!(real_tokens(&b, &p.system, &p.tools) <= 2000);
    assert!(p.notices.is_empty(), "{:?}", p.notices);

    let root = tempfile::tempdir().unwrap();
    write_skills(root.path(), 50);
    let (b, _) = builder(Some(root.path()));
    let p = b.system_prompt(&PromptRequest { user_message: "想做主题7的练习", ..req }).unwrap();
    assert!(p.prompt_tokens <= 2000 && real_tokens(&b, &p.system, &p.tools) <= 2000);
    assert_eq!(p.notices.len(), 1, "{:?}", p.notices);
    assert!(p.notices[0].contains("of 55 skills"), "{:?}", p.notices);
    assert!(p.tools[0].description.contains("- extra-07："), "the matched skill is described");
}

/// The tools registry's `use_skill` and wellbeing definitions through the phase-1 builder
/// (moved here from vibe-context's unit tests: the registry is vibe-core's).
#[test]
fn the_registry_use_skill_parameters_are_kept_and_the_builtin_catalog_still_fits() {
    let registry = ToolRegistry::with_builtins();
    let base = registry.get(USE_SKILL).unwrap().definition();
    let flag = registry.get(FLAG_WELLBEING_CONCERN).unwrap().definition();
    let tools = vec![base, flag];
    let (b, _) = builder(None);
    let request = PromptRequest {
        user: LOCAL_USER,
        user_message: "帮我看看八字",
        tools: &tools,
        ..PromptRequest::default()
    };
    let p = b.system_prompt(&request).unwrap();
    let offered: Vec<&str> = p.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(offered, [USE_SKILL, "flag_wellbeing_concern"], "the wellbeing tool is offered too");
    assert!(p.system.contains("## 身心安全"), "{}", p.system);
    let props = &p.tools[0].parameters["properties"];
    assert!(props.get("birth_info").is_some(), "{props}");
    assert!(props["skill"].get("enum").is_some());
    assert!(real_tokens(&b, &p.system, &p.tools) <= 2000);
    assert!(p.notices.is_empty(), "{:?}", p.notices);
}

/// Five connected MCP servers with sixty tools between them (docs/mcp.md): before
/// `use_connection`, phase 1 carries one catalogue line per server in `use_connection`'s
/// definition and none of their schemas, and fits its budget.
#[test]
fn phase_one_fits_its_budget_with_five_servers_and_sixty_tools() {
    use vibe_agent::connections::{catalogue_line, summary};
    use vibe_agent::tools::{Tool as _, UseConnection};
    let servers = ["calendar", "notes", "github", "habits", "filesystem"];
    let lines: Vec<String> = servers
        .iter()
        .enumerate()
        .map(|(i, server)| {
            let tools: Vec<vibe_mcp::ToolInfo> = (0..12)
                .map(|t| vibe_mcp::ToolInfo {
                    name: format!("{server}_operation_number_{t}"),
                    model_name: vibe_mcp::model_tool_name(server, &format!("op_{t}")),
                    title: Some(format!("Operation {t}")),
                    description: Some("A long description of what this tool does. ".repeat(8)),
                    input_schema: serde_json::json!({"type": "object", "properties": {
                        "query": {"type": "string", "description": "what to look for"}
                    }}),
                    read_only: Some(true),
                    destructive: None,
                    open_world: None,
                })
                .collect();
            let instructions = format!(
                "The {server} server: use it to read and change the person's {server}. \
                 It knows many things and explains itself at length. {}",
                "More words. ".repeat(30)
            );
            let state = if i == 4 {
                Err("the command `npx` was not found; looked in /usr/bin, /usr/local/bin and \
                     twenty more folders; give an absolute path"
                    .repeat(3))
            } else {
                Ok(summary(Some(&instructions), None, &tools))
            };
            catalogue_line(server, Some(state))
        })
        .collect();
    let registry = ToolRegistry::with_builtins();
    let tools = vec![
        registry.get(USE_SKILL).unwrap().definition(),
        registry.get(FLAG_WELLBEING_CONCERN).unwrap().definition(),
        UseConnection::with_catalogue(&lines).definition(),
    ];
    // Phase 1 stays within its budget of 2,000 (issue #33): the connections' catalogue lines
    // come first, the skill catalogue gives way (descriptions shortened, with a notice).
    let (b, _) = builder(None);
    let request = PromptRequest {
        user: LOCAL_USER,
        user_message: "明天的日程有什么",
        tools: &tools,
        ..PromptRequest::default()
    };
    let p = b.system_prompt(&request).unwrap();
    let offered: Vec<&str> = p.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(offered, [USE_SKILL, "flag_wellbeing_concern", "use_connection"]);
    let catalogue = &p.tools[2].description;
    for server in servers {
        assert_eq!(catalogue.matches(&format!("- {server}: ")).count(), 1, "{catalogue}");
    }
    assert!(catalogue.contains("- filesystem: unavailable (the command `npx`"), "{catalogue}");
    let tokens = real_tokens(&b, &p.system, &p.tools);
    assert!(tokens <= 2000 && p.prompt_tokens <= 2000, "{tokens} / {}", p.prompt_tokens);
    // The skill catalogue gives way (a skill listed by name only, said in a notice), but every
    // skill can still be activated; nothing is over budget.
    assert!(!p.notices.iter().any(|n| n.contains("over the")), "{:?}", p.notices);
    assert!(p.notices.iter().any(|n| n.starts_with("catalog: ")), "{:?}", p.notices);
    let skills = &p.tools[0].parameters["properties"]["skill"]["enum"];
    assert_eq!(skills.as_array().map(Vec::len), Some(5), "{skills}");
    // The connections cost a bounded couple of hundred tokens however many tools they have.
    let connections = p.sections.iter().find(|s| s.name == "connections").unwrap();
    assert!(connections.tokens <= 250, "{:?}", p.sections);
}

#[test]
fn phase_two_bazi_fits_six_thousand_tokens_with_the_profile_and_chart() {
    let (b, store) = builder(None);
    let birth = serde_json::json!({"date": "1988-06-15", "time": "09:00", "place": "杭州", "timezone": "Asia/Shanghai"});
    store.set_path(LOCAL_USER, "birth_info", birth).unwrap();
    vibe_agent::compute::ensure_chart(&store, LOCAL_USER, "bazi", "bazi", false).unwrap();
    let req = PromptRequest {
        user: LOCAL_USER,
        active_skill: Some("bazi"),
        user_message: "有人说我土多埋金，一辈子辛苦，要花钱化解",
        ..PromptRequest::default()
    };
    let p = b.system_prompt(&req).unwrap();
    assert_eq!(p.phase, Phase::Phase2);
    assert!(real_tokens(&b, &p.text(), &p.tools) <= 6000);
    assert_eq!(p.sections.iter().map(|s| s.tokens).sum::<u32>(), p.prompt_tokens);
    assert!(p.text().contains("1988-06-15"));
    assert!(p.text().contains("算命先生说我"), "the matching case is included");
}

const EARLY_FACT: &str = "我叫林晓，对花生严重过敏，这件事请一定记住。";

/// A 60-message conversation whose first message states a fact.
fn long_conversation(store: &Store, skill: Option<&str>) -> vibe_store::Conversation {
    let conv = store.create_conversation(LOCAL_USER, None).unwrap();
    store.set_conversation_skill(&conv.id, skill, None).unwrap();
    for i in 0..60 {
        let (role, text) = match (i, i % 2) {
            (0, _) => (Role::User, EARLY_FACT.to_string()),
            (_, 0) => (Role::User, format!("第 {i} 条：今天还是有点累，工作上的事情很多。")),
            _ => (Role::Assistant, format!("听起来你今天很辛苦。第 {i} 条回复：我们慢慢来。")),
        };
        let tokens = 20;
        store
            .append_message(
                &conv.id,
                NewMessage { token_count: tokens, ..NewMessage::text(role, text) },
            )
            .unwrap();
    }
    store.conversation(&conv.id).unwrap()
}

#[tokio::test]
async fn compaction_keeps_an_early_fact_in_the_phase_two_prompt() {
    let (b, store) = builder(None);
    let conv = long_conversation(&store, Some("lifecoach"));
    let before = b.history(&conv, Phase::Phase2, None).unwrap();
    assert!(before.more_before);
    let c = b.compact(&conv, Phase::Phase2, None).await.unwrap().expect("something to fold");
    assert!(!c.used_model);
    assert!(c.summary_tokens > 0 && c.summary_tokens <= 600);
    let conv = store.conversation(&conv.id).unwrap();
    let summary = conv.summary.clone().unwrap();
    assert!(summary.contains("对花生严重过敏"), "{summary}");
    assert_eq!(conv.summary_through_id, Some(c.through_id));

    // The window now starts after the summary, and ends with the latest user turn.
    let h = b.history(&conv, Phase::Phase2, None).unwrap();
    assert!(!h.more_before);
    assert!(h.message_ids.iter().all(|id| *id > c.through_id));
    assert_eq!(
        h.message_ids.last(),
        store.messages(&conv.id).unwrap().last().map(|m| m.id).as_ref()
    );
    assert_eq!(c.folded_messages as usize + h.messages.len(), 60);

    let req = PromptRequest {
        user: LOCAL_USER,
        active_skill: Some("lifecoach"),
        user_message: "我又累了",
        summary: conv.summary.as_deref(),
        ..PromptRequest::default()
    };
    let p = b.system_prompt(&req).unwrap();
    assert!(p.text().contains("对花生严重过敏"));
    assert!(p.sections.iter().any(|s| s.name == "summary"));

    // Nothing more to fold until the window overflows again.
    assert_eq!(b.compact(&conv, Phase::Phase2, None).await.unwrap(), None);
}

#[tokio::test]
async fn compacting_turn_by_turn_keeps_the_first_fact_and_does_not_run_every_turn() {
    let (b, store) = builder(None);
    let conv = store.create_conversation(LOCAL_USER, None).unwrap();
    let mut compactions = 0;
    for i in 0..200 {
        let (role, text) = match (i, i % 2) {
            (0, _) => (Role::User, EARLY_FACT.to_string()),
            (_, 0) => (Role::User, format!("第 {i} 条：今天聊聊工作和生活里的小事，心情还不错。")),
            _ => (Role::Assistant, format!("谢谢你告诉我。第 {i} 条回复：听起来是平稳的一天。")),
        };
        store
            .append_message(
                &conv.id,
                NewMessage { token_count: 20, ..NewMessage::text(role, text) },
            )
            .unwrap();
        if i % 2 == 1 {
            compactions +=
                usize::from(b.compact(&conv, Phase::Phase1, None).await.unwrap().is_some());
        }
    }
    let summary = store.conversation(&conv.id).unwrap().summary.unwrap();
    assert!(summary.contains("对花生严重过敏"), "{summary}");
    assert!(b.tokenizer().count(&summary) <= 600);
    assert!(compactions > 10 && compactions < 100, "{compactions}");
}

#[tokio::test]
async fn a_summariser_model_writes_the_summary_and_a_failing_one_leaves_the_digest() {
    let (b, store) = builder(None);
    let conv = long_conversation(&store, None);
    let yaml = "responses:\n  - text: \"- 用户叫林晓，对花生严重过敏。\\n- 最近工作很累。\"\n    usage: {prompt_tokens: 900, completion_tokens: 30, total_tokens: 930}\n";
    let model = ScriptedModel::from_yaml(yaml, "test").unwrap();
    let c = b.compact(&conv, Phase::Phase1, Some(&model)).await.unwrap().unwrap();
    assert!(c.used_model);
    assert_eq!(c.fallback_reason, None);
    assert_eq!(c.usage.map(|u| u.total_tokens), Some(930));
    let summary = store.conversation(&conv.id).unwrap().summary.unwrap();
    assert_eq!(summary, "- 用户叫林晓，对花生严重过敏。\n- 最近工作很累。");

    let conv = long_conversation(&store, None);
    let failing =
        ScriptedModel::from_yaml("responses:\n  - error: {kind: server, message: boom}\n", "test")
            .unwrap();
    let c = b.compact(&conv, Phase::Phase1, Some(&failing)).await.unwrap().unwrap();
    assert!(!c.used_model);
    let reason = c.fallback_reason.unwrap();
    assert!(
        reason.contains("the summarising model call failed") && reason.contains("boom"),
        "{reason}"
    );
    let cost = c.usage.expect("a failed call still cost its prompt");
    assert!(cost.prompt_tokens > 100 && cost.completion_tokens == 0, "{cost:?}");
    let summary = store.conversation(&conv.id).unwrap().summary.unwrap();
    assert!(summary.contains("对花生严重过敏"));
}
