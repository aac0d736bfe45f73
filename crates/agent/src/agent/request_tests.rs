use serde_json::json;
use vibe_llm::{ToolCall, ToolDef};

use super::*;

fn prompt() -> BuiltPrompt {
    BuiltPrompt {
        phase: Phase::Phase2,
        skill: Some("lifecoach".into()),
        system: "你是教练。".into(),
        tools: vec![ToolDef {
            name: "read_state".into(),
            description: "read".into(),
            parameters: json!({"type": "object"}).into(),
        }],
        turn: None,
        sections: vec![SectionTokens { name: "persona".into(), tokens: 100 }],
        prompt_tokens: 100,
        notices: vec!["persona shortened".into()],
    }
}

fn history() -> History {
    History {
        messages: vec![Message::user("之前的话"), Message::assistant("之前的回答", vec![])],
        message_ids: vec![1, 2],
        tokens: 40,
        message_tokens: vec![20, 20],
        notices: vec!["2 older messages left out".into()],
        more_before: false,
    }
}

fn run_messages() -> Vec<Message> {
    let call = ToolCall { id: "c1".into(), name: "read_state".into(), arguments: "{}".into() };
    vec![Message::assistant("", vec![call]), Message::tool("c1", "{\"ok\":true}")]
}

fn state<'a>(run: &'a [Message], closing: Option<StopReason>) -> RoundState<'a> {
    RoundState {
        round: 2,
        phase: Phase::Phase2,
        prompt: prompt(),
        history: history(),
        run_messages: run,
        run_tokens: 30,
        closing,
        tool_notices: &[],
        token_factor: None,
        budget: None,
    }
}

#[test]
fn the_request_is_the_system_prompt_then_history_then_this_runs_messages() {
    let run = run_messages();
    let a = assemble(state(&run, None));
    let messages = &a.request.messages;
    assert_eq!(messages.len(), 5);
    assert_eq!(messages[0], Message::system("你是教练。"));
    assert_eq!(messages[1], Message::user("之前的话"));
    assert_eq!(&messages[3..], &run[..]);
    let offered: Vec<_> = a.request.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(offered, ["read_state"]);
    assert_eq!(a.prompt_tokens, 170, "prompt + history + this run");
    assert_eq!(a.budget_tokens, 170, "no calibration yet: the estimate is what counts");
}

#[test]
fn the_closing_call_offers_no_tools_and_says_why_the_reply_ends() {
    let run = run_messages();
    let a = assemble(state(&run, Some(StopReason::MaxRounds)));
    assert!(a.request.tools.is_empty());
    let Message::System { content } = &a.request.messages[0] else { panic!("system first") };
    assert!(content.starts_with("你是教练。"), "{content}");
    assert!(content.contains("思考轮数已达上限") && content.contains("不要再调用任何工具"));
    let Event::ModelRequest { tools, .. } = &a.event else { panic!("{:?}", a.event) };
    assert!(tools.is_empty(), "the event shows no tools offered");
}

#[test]
fn the_budget_is_checked_in_the_models_tokens_once_calibrated() {
    let run = run_messages();
    let a = assemble(RoundState { token_factor: Some(1.5), ..state(&run, None) });
    assert_eq!(a.prompt_tokens, 170);
    assert_eq!(a.budget_tokens, 255);
    let Event::ModelRequest { corrected_tokens, token_factor, .. } = &a.event else {
        panic!("{:?}", a.event)
    };
    assert_eq!((*corrected_tokens, *token_factor), (Some(255), Some(1.5)));
}

#[test]
fn the_event_shows_sections_notices_and_history_size() {
    let run = run_messages();
    let notices = ["journal: tool left out".to_string()];
    let a = assemble(RoundState { tool_notices: &notices, ..state(&run, None) });
    let Event::ModelRequest {
        round,
        sections,
        notices,
        history_messages,
        prompt_tokens,
        tools,
        ..
    } = a.event
    else {
        panic!("not a model request")
    };
    assert_eq!((round, history_messages, prompt_tokens), (2, 2, 170));
    let names: Vec<_> = sections.iter().map(|s| (s.name.as_str(), s.tokens)).collect();
    assert_eq!(names, [("persona", 100), ("history", 40), ("this_run", 30)]);
    assert_eq!(
        notices,
        ["persona shortened", "journal: tool left out", "2 older messages left out"]
    );
    assert_eq!(tools, ["read_state"]);

    // Nothing of this run yet: no `this_run` section.
    let first = assemble(RoundState { run_tokens: 0, ..state(&[], None) });
    let Event::ModelRequest { sections, .. } = first.event else { panic!() };
    assert!(sections.iter().all(|s| s.name != "this_run"));
    assert_eq!(first.request.messages.len(), 3);
}

#[test]
fn the_turns_sections_ride_with_the_latest_user_message_and_the_system_prompt_stays() {
    let run = run_messages();
    let turn = "<本轮背景>\n## 进行中的协议：第 2/6 步\n</本轮背景>".to_string();
    let with_turn = BuiltPrompt { turn: Some(turn.clone()), ..prompt() };
    let mut window = history();
    window.messages.push(Message::user("现在的话"));
    let a = assemble(RoundState { prompt: with_turn, history: window, ..state(&run, None) });
    let messages = &a.request.messages;
    assert_eq!(messages[0], Message::system("你是教练。"), "the system prompt is unchanged");
    assert_eq!(messages[1], Message::user("之前的话"), "older history is unchanged");
    assert_eq!(messages[3], Message::user(format!("{turn}\n\n现在的话")));
    assert_eq!(&messages[4..], &run[..], "this run's messages follow");

    // No user message in the window: the sections close the system prompt instead.
    let empty =
        History { messages: vec![], message_ids: vec![], message_tokens: vec![], ..history() };
    let with_turn = BuiltPrompt { turn: Some(turn.clone()), ..prompt() };
    let a = assemble(RoundState { prompt: with_turn, history: empty, ..state(&[], None) });
    assert_eq!(a.request.messages, [Message::system(format!("你是教练。\n\n{turn}"))]);
}

#[test]
fn the_event_names_the_budget_the_request_was_fitted_to() {
    let budget = PromptBudget { context_window: 4096, prompt_budget: 1843, reply_reserve: 1024 };
    let a = assemble(RoundState { budget: Some(budget), ..state(&[], None) });
    let Event::ModelRequest { budget: named, .. } = a.event else { panic!("not a model request") };
    assert_eq!(named, Some(budget));
}
