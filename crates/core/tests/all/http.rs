//! The chat service over real HTTP against the fake OpenAI-compatible server: what the model
//! actually receives (same-turn reload, history pairing, restored skill).

use serde_json::Value;
use vibe_test_support::{Reply, ev_finish, ev_text, ev_tool_call, ev_usage, sse};

use crate::harness::{Harness, Options, say, say_in};

fn system_of(body: &Value) -> String {
    body["messages"][0]["content"].as_str().unwrap_or_default().to_string()
}

fn tool_names(body: &Value) -> Vec<String> {
    body["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .map(|t| t["function"]["name"].as_str().unwrap_or_default().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_second_request_of_the_turn_carries_the_phase_two_prompt() {
    let server = vibe_test_support::FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_tool_call(0, "call_1", "use_skill", r#"{"skill":"lifecoach"}"#),
        ev_finish("tool_calls"),
        ev_usage(300, 10),
    ])));
    server.push(Reply::sse(sse(vec![ev_text("我们从你的北极星开始。"), ev_finish("stop")])));
    server.push(Reply::sse(sse(vec![ev_text("好的，继续。"), ev_finish("stop")])));
    let h = Harness::http(&server.url(), Options::default());

    let first = h.turn(say("我想重新规划我的人生方向")).await;
    assert_eq!(first.reply(), "我们从你的北极星开始。");
    let second = h.turn(say_in(&first.result.conversation_id, "继续")).await;
    assert_eq!(second.reply(), "好的，继续。");

    let requests: Vec<Value> = server.requests().iter().map(|r| r.json()).collect();
    assert_eq!(requests.len(), 3);
    for r in server.requests() {
        r.assert_tool_pairs();
    }
    let (p1, p2, p3) = (system_of(&requests[0]), system_of(&requests[1]), system_of(&requests[2]));
    assert_ne!(p1, p2, "messages[0] was rebuilt after use_skill");
    assert_eq!(
        tool_names(&requests[0]),
        vec!["use_skill", "flag_wellbeing_concern"],
        "phase 1 offers use_skill and the wellbeing flag"
    );
    assert!(
        tool_names(&requests[1]).contains(&"write_state".to_string()),
        "{:?}",
        tool_names(&requests[1])
    );
    assert!(p2.len() > p1.len() / 2 && p2 != p1);
    // The next request starts in phase 2 without being told the skill: same expert prompt and
    // tools (only the cases matched to the new message may differ).
    let title = |p: &str| p.lines().next().unwrap_or_default().to_string();
    assert_eq!(title(&p3), title(&p2));
    assert_ne!(title(&p3), title(&p1));
    assert_eq!(tool_names(&requests[2]), tool_names(&requests[1]));
    // The same turn's second request carries the use_skill call and its result.
    let msgs = requests[1]["messages"].as_array().unwrap();
    let roles: Vec<&str> = msgs.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, vec!["system", "user", "assistant", "tool"]);
    assert!(msgs[3]["content"].as_str().unwrap().contains("activated"));
    // The next turn's history holds the whole first turn, pairs intact, then the new message.
    let msgs = requests[2]["messages"].as_array().unwrap();
    // The new message carries the turn's sections (cases, profile, state) before its words.
    let last = msgs.last().unwrap()["content"].as_str().unwrap();
    assert!(last.starts_with("<本轮背景>") && last.ends_with("</本轮背景>\n\n继续"), "{last}");
}
