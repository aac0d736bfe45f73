//! tools.yaml parsing and each of its errors at its line and column.

use super::*;

fn parse(text: &str) -> (Option<ToolsSpec>, Vec<String>) {
    let (spec, problems) = parse_tools(Path::new("s/tools.yaml"), text);
    (spec, problems.iter().map(ToString::to_string).collect())
}

#[test]
fn builtin_names_and_declared_tools_are_read() {
    let text = "\
tools:
  - read_state
  - draw_tarot
  - name: log_mood
    description: 记录今天的心情
    parameters:
      type: object
      properties:
        score: {type: integer, minimum: 1, maximum: 10}
      required: [score]
    examples:
      - arguments: {score: 7}
    edge_cases: [用户不愿打分]
";
    let (spec, problems) = parse(text);
    assert!(problems.is_empty(), "{problems:?}");
    let spec = spec.unwrap();
    assert_eq!(spec.names().collect::<Vec<_>>(), vec!["read_state", "draw_tarot", "log_mood"]);
    let ToolRef::Declared(t) = &spec.tools[2] else { panic!("declared") };
    assert_eq!(t.parameters["required"][0], "score");
    assert_eq!(t.examples.len(), 1);
    assert_eq!(t.edge_cases, vec!["用户不愿打分"]);
}

#[test]
fn unknown_builtin_tool() {
    let (spec, problems) = parse("tools:\n  - read_state\n  - read_mind\n");
    assert!(spec.is_none());
    assert!(
        problems[0]
            .starts_with("s/tools.yaml:3:5: unknown built-in tool `read_mind` (known: use_skill, "),
        "{problems:?}"
    );
}

#[test]
fn invalid_json_schema_points_at_the_bad_keyword() {
    let text = "tools:\n  - name: t\n    description: d\n    parameters:\n      type: object\n      properties:\n        n: {type: integr}\n";
    let (spec, problems) = parse(text);
    assert!(spec.is_none());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("s/tools.yaml:7:"), "{problems:?}");
    assert!(problems[0].contains("not a valid JSON schema"), "{problems:?}");
}

#[test]
fn parameters_must_describe_an_object() {
    let (_, problems) =
        parse("tools:\n  - name: t\n    description: d\n    parameters: {type: string}\n");
    assert_eq!(
        problems,
        vec![
            "s/tools.yaml:4:24: `parameters` must describe an object: add `type: object` with `properties`"
        ]
    );
}

#[test]
fn examples_are_checked_against_parameters() {
    let text = "tools:\n  - name: t\n    description: d\n    parameters:\n      type: object\n      properties: {n: {type: integer}}\n    examples:\n      - arguments: {n: many}\n";
    let (spec, problems) = parse(text);
    assert!(spec.is_none());
    assert!(
        problems[0].starts_with("s/tools.yaml:8:24: example arguments do not match `parameters`"),
        "{problems:?}"
    );
}

#[test]
fn a_mapping_with_a_builtin_name_documents_the_builtin() {
    let (spec, problems) = parse("tools:\n  - name: draw_tarot\n    description: 抽牌\n");
    assert!(problems.is_empty(), "{problems:?}");
    let ToolRef::Declared(t) = &spec.unwrap().tools[0] else { panic!("declared") };
    assert!(t.builtin);
}

#[test]
fn tools_cannot_repeat_or_use_odd_names() {
    let (_, problems) = parse(
        "tools:\n  - draw_tarot\n  - name: draw_tarot\n    description: d\n  - name: 抽牌\n    description: d\n",
    );
    assert_eq!(problems[0], "s/tools.yaml:3:5: tool `draw_tarot` is listed twice");
    assert_eq!(
        problems[1],
        "s/tools.yaml:5:11: tool name `抽牌` must be 1–64 characters of A-Z, a-z, 0-9, `_` or `-`"
    );
}

#[test]
fn missing_description_and_bad_yaml() {
    let (_, problems) = parse("tools:\n  - name: t\n");
    assert_eq!(
        problems,
        vec![
            "s/tools.yaml:2:5: a declared tool needs a non-empty `description` (what it does, when to call it)"
        ]
    );
    let (_, problems) = parse("tools: [read_state\n");
    assert!(problems[0].starts_with("s/tools.yaml:2:"), "{problems:?}");
    assert!(problems[0].contains("invalid YAML"), "{problems:?}");
}

#[test]
fn network_is_off_unless_asked_for() {
    let (spec, problems) = parse("tools:\n  - run_script\n");
    assert!(problems.is_empty(), "{problems:?}");
    assert!(!spec.unwrap().network);
    let (spec, problems) = parse("network: true\ntools:\n  - run_script\n");
    assert!(problems.is_empty(), "{problems:?}");
    assert!(spec.unwrap().network);
    let (spec, problems) = parse("network: maybe\ntools:\n  - run_script\n");
    assert!(spec.is_none());
    assert!(problems.iter().any(|p| p.contains("`network` must be true or false")), "{problems:?}");
}

#[test]
fn mcp_entries_name_a_connection_and_its_tool() {
    let (spec, problems) =
        parse("tools:\n  - read_state\n  - mcp: calendar/list_events\n  - mcp: notes/search.all\n");
    assert!(problems.is_empty(), "{problems:?}");
    let spec = spec.unwrap();
    let ToolRef::Mcp(m) = &spec.tools[1] else { panic!("mcp") };
    assert_eq!((m.server.as_str(), m.tool.as_str(), m.line), ("calendar", "list_events", 3));
    assert_eq!(spec.tools[2].name(), "mcp:notes/search.all");
    for bad in ["mcp: calendar", "mcp: /list", "mcp: my cal/list"] {
        let (spec, problems) = parse(&format!("tools:\n  - {bad}\n"));
        assert!(spec.is_none(), "{bad}");
        assert!(problems.iter().any(|p| p.contains("SERVER/TOOL")), "{bad}: {problems:?}");
    }
    let (_, problems) = parse("tools:\n  - {mcp: a/b, name: x}\n");
    assert!(problems.iter().any(|p| p.contains("unknown key")), "{problems:?}");
}
