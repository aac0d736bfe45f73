//! tools_for: phase 1 offers use_skill and flag_wellbeing_concern; in phase 2 the skill's tools.yaml decides
//! (built-ins, declared definitions over built-in handlers, script-backed tools), with a
//! default set when there is none, and notices for everything left out.

use vibe_agent::tools::{ToolKind, ToolRegistry};

use super::Fixture;

fn names(f: &Fixture, skill: Option<&str>) -> (Vec<String>, Vec<String>) {
    let set = f.tools.tools_for(&f.skills, skill);
    (set.names().into_iter().map(String::from).collect(), set.notices)
}

#[test]
fn phase_one_offers_use_skill_and_the_wellbeing_flag() {
    let f = Fixture::new();
    let (tools, notices) = names(&f, None);
    assert_eq!(tools, ["use_skill", "flag_wellbeing_concern"]);
    assert!(notices.is_empty());
}

#[test]
fn bazi_gets_exactly_its_tools_yaml_plus_use_skill() {
    let f = Fixture::new();
    let (tools, notices) = names(&f, Some("bazi"));
    assert_eq!(
        tools,
        [
            "use_skill",
            "flag_wellbeing_concern",
            "compute_chart",
            "show_chart",
            "read_state",
            "write_state",
            "append_to_list",
            "load_resource"
        ]
    );
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn tarot_draw_uses_the_skills_own_definition_over_the_builtin_handler() {
    let f = Fixture::new();
    let set = f.tools.tools_for(&f.skills, Some("tarot"));
    assert_eq!(
        set.names(),
        ["use_skill", "flag_wellbeing_concern", "draw_tarot", "read_state", "append_to_list"]
    );
    let draw = set.get("draw_tarot").unwrap();
    assert_eq!(draw.kind(), ToolKind::Compute);
    let def = draw.definition();
    assert!(def.description.starts_with("抽取塔罗牌"), "{}", def.description);
    assert!(def.description.contains("例：") && def.description.contains("注意："));
    assert_eq!(
        def.parameters["properties"]["spread"]["enum"],
        serde_json::json!(["single", "three_card"])
    );
    assert!(draw.needs_approval(&serde_json::json!({})).is_none());
}

#[test]
fn protocol_tools_are_offered_to_skills_that_list_them() {
    let f = Fixture::new();
    let (tools, notices) = names(&f, Some("lifecoach"));
    assert_eq!(
        tools,
        [
            "use_skill",
            "flag_wellbeing_concern",
            "read_state",
            "write_state",
            "append_to_list",
            "update_plan",
            "load_resource",
            "show_protocol_invitation",
            "advance_protocol_step",
            "cancel_protocol"
        ]
    );
    assert!(notices.is_empty(), "{notices:?}");
}

#[test]
fn a_skill_without_tools_yaml_gets_the_default_set() {
    let f = Fixture::new();
    f.add_skill("journal", "", &[]);
    let (tools, notices) = names(&f, Some("journal"));
    assert_eq!(
        tools,
        [
            "use_skill",
            "flag_wellbeing_concern",
            "read_state",
            "write_state",
            "append_to_list",
            "update_plan",
            "load_resource"
        ]
    );
    assert!(notices.is_empty());
}

const DECLARED: &str = r#"tools:
  - read_state
  - name: tally
    description: Count the person's habits for a week.
    parameters:
      type: object
      properties:
        week: {type: integer}
    examples:
      - arguments: {week: 3}
  - name: forecast
    description: A tool nobody implemented.
    parameters: {type: object, properties: {}}
"#;

#[test]
fn declared_tools_run_their_script_or_are_left_out_with_a_notice() {
    let f = Fixture::new();
    f.add_skill("habits", "", &[("tools.yaml", DECLARED), ("scripts/tally.py", "print('ok')\n")]);
    let set = f.tools.tools_for(&f.skills, Some("habits"));
    assert_eq!(set.names(), ["use_skill", "flag_wellbeing_concern", "read_state", "tally"]);
    let tally = set.get("tally").unwrap();
    assert_eq!(tally.kind(), ToolKind::Script);
    let reason = tally.needs_approval(&serde_json::json!({"week": 3})).unwrap();
    assert!(reason.contains("scripts/tally.py") && reason.contains("habits"), "{reason}");
    assert!(tally.definition().description.contains("{\"week\":3}"));
    assert_eq!(set.notices.len(), 1);
    assert!(
        set.notices[0].contains("forecast") && set.notices[0].contains("scripts/forecast"),
        "{:?}",
        set.notices
    );
}

#[test]
fn a_broken_tools_yaml_falls_back_to_the_defaults_with_a_notice() {
    let f = Fixture::new();
    f.add_skill("broken", "", &[("tools.yaml", "tools: [nonsense_tool]\n")]);
    let (tools, notices) = names(&f, Some("broken"));
    assert_eq!(
        tools,
        [
            "use_skill",
            "flag_wellbeing_concern",
            "read_state",
            "write_state",
            "append_to_list",
            "update_plan",
            "load_resource"
        ]
    );
    assert_eq!(notices.len(), 1);
    assert!(
        notices[0].contains("tools.yaml of skill `broken`") && notices[0].contains("nonsense_tool"),
        "{notices:?}"
    );
}

#[test]
fn an_unknown_active_skill_leaves_only_use_skill_and_the_wellbeing_flag() {
    let f = Fixture::new();
    let (tools, notices) = names(&f, Some("gone"));
    assert_eq!(tools, ["use_skill", "flag_wellbeing_concern"]);
    assert!(notices[0].contains("`gone`"), "{notices:?}");
}

#[test]
fn the_registry_serves_each_builtin_by_name() {
    let tools = ToolRegistry::with_builtins();
    assert!(
        tools
            .get("run_script")
            .unwrap()
            .needs_approval(&serde_json::json!({"script": "a.py"}))
            .is_some()
    );
    assert_eq!(tools.get("show_protocol_invitation").unwrap().kind(), ToolKind::Display);
    assert_eq!(tools.get("show_chart").unwrap().kind(), ToolKind::Display);
}

/// The phase-2 prompt budget (6,000 tokens) includes the tool definitions; keep a skill's to
/// a quarter of it for every built-in skill, and the wellbeing tool every skill also gets
/// (docs/safety.md, layer 2) small beside them.
#[test]
fn built_in_skills_tool_definitions_fit_a_quarter_of_the_phase_two_budget() {
    let f = Fixture::new();
    let tokenizer = vibe_context::Tokenizer::shared().unwrap();
    for skill in f.skills.skills() {
        let set = f.tools.tools_for(&f.skills, Some(&skill.name));
        let (flag, own): (Vec<_>, Vec<_>) = set
            .definitions()
            .into_iter()
            .partition(|d| d.name == vibe_agent::tools::FLAG_WELLBEING_CONCERN);
        let tokens: u32 = own.iter().map(|d| tokenizer.count_tool(d)).sum();
        assert!(tokens <= 1500, "{}: tool definitions take {tokens} tokens", skill.name);
        let flag: u32 = flag.iter().map(|d| tokenizer.count_tool(d)).sum();
        assert!(flag > 0 && flag <= 200, "{}: the wellbeing tool takes {flag} tokens", skill.name);
    }
}
