//! A model's write that would remove stored data asks the person first (docs/tools.md#writes-that-remove-data),
//! and every change can be undone from the skill's history (docs/design.md#undo).

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;
use vibe_agent::agent::{ApprovalDecision, ApprovalRequest, Approver};
use vibe_store::LOCAL_USER;
use vibe_wire::ApprovalSource;
use vibe_wire::command::{ChangeSource, HistoryTargetView, StateHistoryRequest, UndoStateRequest};

use crate::harness::{Harness, say};

/// Answers every request with `approve`, keeping the requests it saw.
struct Recording {
    approve: bool,
    seen: Mutex<Vec<ApprovalRequest>>,
}

impl Approver for Recording {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        self.seen.lock().unwrap().push(request.clone());
        let approved = self.approve;
        Box::pin(async move { ApprovalDecision { approved, by: ApprovalSource::User } })
    }
}

const WIPE: &str = r#"
mode: matched
responses:
  - when: {tool_result: "denied"}
    text: "好的，日记保留。"
  - when: {tool_result: "已保存"}
    text: "日记已清空。"
  - tool_calls: [{name: write_state, arguments: {section: journal, data: {}}}]
"#;

fn with_journal(h: &Harness) -> String {
    for i in 0..50 {
        let entry = json!({"text": format!("第 {i} 天：晨跑 5 公里"), "mood": i % 5});
        h.store.append_to_list(LOCAL_USER, "lifecoach", "journal", entry, 100).unwrap();
    }
    state_text(h)
}

fn state_text(h: &Harness) -> String {
    h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data.to_string()
}

fn lifecoach() -> HistoryTargetView {
    HistoryTargetView::Skill { skill: "lifecoach".into() }
}

#[tokio::test]
async fn a_models_wipe_asks_first_and_an_approved_wipe_is_undone_byte_for_byte() {
    let h = Harness::scripted(WIPE);
    let before = with_journal(&h);
    let approver = Arc::new(Recording { approve: true, seen: Mutex::default() });
    let mut request = say("把日记清空吧");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "日记已清空。");

    let seen = approver.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert_eq!(seen[0].tool, "write_state");
    assert!(
        seen[0].reason.contains("replaces journal (a list of 50 entries) with an empty object"),
        "{}",
        seen[0].reason
    );
    let read = h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap();
    assert_eq!(read.data["journal"], json!({}), "the approved write happened");

    let history =
        h.app.state_history(&StateHistoryRequest { target: lifecoach(), limit: Some(5) }).unwrap();
    let wipe = &history.changes[0];
    assert_eq!(wipe.by, ChangeSource::Model);
    assert_eq!(wipe.run_id.as_deref(), Some(turn.result.run_id.as_str()));
    assert_eq!(wipe.summary, "journal: a list of 50 entries → an empty object");

    let undone = h.app.undo_state(&UndoStateRequest { target: lifecoach(), to: None }).unwrap();
    assert_eq!(undone.reverted_to, wipe.id);
    assert_eq!(state_text(&h), before, "all 50 entries back, byte for byte");
    let journal =
        h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data["journal"].clone();
    assert_eq!(journal.as_array().unwrap().len(), 50);
}

#[tokio::test]
async fn a_denied_wipe_writes_nothing_and_the_model_is_told() {
    let h = Harness::scripted(WIPE);
    let before = with_journal(&h);
    let changes_before = h
        .app
        .state_history(&StateHistoryRequest { target: lifecoach(), limit: Some(100) })
        .unwrap()
        .changes
        .len();
    let approver = Arc::new(Recording { approve: false, seen: Mutex::default() });
    let mut request = say("把日记清空吧");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "好的，日记保留。");
    let results = turn.tool_results();
    assert_eq!(results[0].0, "write_state");
    assert_eq!(results[0].1["status"], "denied");
    assert_eq!(state_text(&h), before);
    let changes_after = h
        .app
        .state_history(&StateHistoryRequest { target: lifecoach(), limit: Some(100) })
        .unwrap()
        .changes
        .len();
    assert_eq!(changes_after, changes_before, "nothing recorded either");
}

#[tokio::test]
async fn writes_that_remove_nothing_are_not_asked_about() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "已添加"}
    text: "记下了。"
  - when: {tool_result: "已保存"}
    tool_calls: [{name: append_to_list, arguments: {path: journal, entry: {text: "跑步"}}}]
  - tool_calls: [{name: write_state, arguments: {section: goals, data: {this_year: "跑马拉松"}}}]
"#;
    let h = Harness::scripted(script);
    with_journal(&h);
    let approver = Arc::new(Recording { approve: false, seen: Mutex::default() });
    let mut request = say("记一下");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "记下了。");
    assert!(approver.seen.lock().unwrap().is_empty(), "a merge and an append lose nothing");
    let journal =
        h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data["journal"].clone();
    assert_eq!(journal.as_array().unwrap().len(), 51);
}

#[tokio::test]
async fn trimming_a_list_below_its_length_asks_first() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "denied"}
    text: "不删。"
  - tool_calls: [{name: append_to_list, arguments: {path: journal, entry: {text: "x"}, max_items: 10}}]
"#;
    let h = Harness::scripted(script);
    let before = with_journal(&h);
    let approver = Arc::new(Recording { approve: false, seen: Mutex::default() });
    let mut request = say("只留最近的");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "不删。");
    let seen = approver.seen.lock().unwrap().clone();
    assert!(
        seen[0].reason.contains("trims journal from 50 to 10 entries (drops the 41 oldest)"),
        "{}",
        seen[0].reason
    );
    assert_eq!(state_text(&h), before);
}

#[tokio::test]
async fn a_wipe_of_data_made_earlier_in_the_same_round_is_refused_not_run_unasked() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "not written"}
    text: "那我先不清空。"
  - tool_calls:
      - {name: append_to_list, arguments: {path: journal, entry: {text: "第一条"}}}
      - {name: write_state, arguments: {section: journal, data: {}}}
"#;
    let h = Harness::scripted(script);
    let approver = Arc::new(Recording { approve: true, seen: Mutex::default() });
    let mut request = say("记一条再清空");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "那我先不清空。");
    assert!(
        approver.seen.lock().unwrap().is_empty(),
        "nothing was stored when approvals were asked"
    );
    let results = turn.tool_results();
    let (name, result, is_error) = &results[1];
    assert_eq!(name, "write_state");
    assert!(is_error, "{result}");
    let message = result["message"].as_str().unwrap();
    assert!(message.contains("replaces journal (a list of 1 entry)"), "{message}");
    let journal =
        h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data["journal"].clone();
    assert_eq!(journal.as_array().unwrap().len(), 1, "the entry is kept");
}

#[tokio::test]
async fn a_trim_of_entries_added_in_the_same_round_is_refused_not_run_unasked() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "not written"}
    text: "先不删。"
  - tool_calls:
      - {name: append_to_list, arguments: {path: journal, entry: {text: "一"}}}
      - {name: append_to_list, arguments: {path: journal, entry: {text: "二"}}}
      - {name: append_to_list, arguments: {path: journal, entry: {text: "三"}, max_items: 1}}
"#;
    let h = Harness::scripted(script);
    let approver = Arc::new(Recording { approve: true, seen: Mutex::default() });
    let mut request = say("记三条只留一条");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "先不删。");
    assert!(approver.seen.lock().unwrap().is_empty());
    let (_, result, is_error) = &turn.tool_results()[2];
    assert!(is_error, "{result}");
    assert!(
        result["message"].as_str().unwrap().contains("trims journal from 2 to 1 entries"),
        "{result}"
    );
    let journal =
        h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data["journal"].clone();
    assert_eq!(journal.as_array().unwrap().len(), 2);
}

/// Edits the skill's state while it decides, as a person could in another window while the
/// approval waits, then approves.
struct EditsWhileAsked(Arc<vibe_store::Store>);

impl Approver for EditsWhileAsked {
    fn decide<'a>(&'a self, _request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            let tags = json!({"tags": ["晨跑", "阅读"]});
            self.0.write_state(LOCAL_USER, "career", "journal_meta", tags).unwrap();
            ApprovalDecision { approved: true, by: ApprovalSource::User }
        })
    }
}

/// A write checked before the round asked the person something is checked again when it
/// runs: what the person saved while deciding is not removed unasked.
#[tokio::test]
async fn a_write_checked_before_an_approval_wait_is_checked_again_when_it_runs() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "已保存 goals"}
    text: "你刚加的标签我先不动。"
  - tool_calls:
      - {name: write_state, arguments: {section: journal_meta, data: {tags: null}}}
      - {name: write_state, arguments: {section: goals, data: {steps: null}}}
"#;
    let h = Harness::scripted(script);
    h.store
        .write_state(LOCAL_USER, "career", "goals", json!({"steps": ["改简历", "投三家公司"]}))
        .unwrap();
    let mut request = say("清掉标签和步骤");
    request.skill = Some("career".into());
    let turn = h.turn_with(request, Arc::new(EditsWhileAsked(h.store.clone()))).await;
    let results = turn.tool_results();
    assert_eq!(results.len(), 2, "{results:?}");
    let (_, refused, is_error) = &results[0];
    assert!(*is_error && refused["message"].as_str().unwrap().contains("not written"), "{refused}");
    assert!(!results[1].2, "the approved removal is done: {results:?}");
    let state = h.store.read_state(LOCAL_USER, "career", None).unwrap();
    assert_eq!(state.data["journal_meta"]["tags"], json!(["晨跑", "阅读"]));
    assert!(state.data["goals"].get("steps").is_none(), "{}", state.data);
    assert_eq!(turn.reply(), "你刚加的标签我先不动。");
}

/// Reads the conversation while it decides (as the app's window would show it), then denies.
struct ReadsWhileAsked(Arc<vibe_store::Store>, Mutex<Vec<vibe_store::Message>>);

impl Approver for ReadsWhileAsked {
    fn decide<'a>(&'a self, _request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            let conversation = &self.0.list_conversations(LOCAL_USER).unwrap()[0];
            *self.1.lock().unwrap() = self.0.messages(&conversation.id).unwrap();
            ApprovalDecision { approved: false, by: ApprovalSource::User }
        })
    }
}

/// The answer whose calls wait for the person's approval is stored before the wait, whole:
/// it is otherwise stored with its first result, and a wait may last as long as the person
/// takes (or outlive the process).
#[tokio::test]
async fn the_answer_asking_for_approval_is_stored_before_the_wait() {
    let h = Harness::scripted(WIPE);
    with_journal(&h);
    let approver = Arc::new(ReadsWhileAsked(h.store.clone(), Mutex::default()));
    let mut request = say("把日记清空吧");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "好的，日记保留。");
    let seen = approver.1.lock().unwrap().clone();
    let roles: Vec<_> = seen.iter().map(|m| m.role).collect();
    assert_eq!(roles, [vibe_store::Role::User, vibe_store::Role::Assistant], "{seen:?}");
    let calls = seen[1].tool_calls.as_ref().expect("the asking answer carries its call");
    assert_eq!(calls[0]["name"], "write_state");
    assert!(!seen[1].interrupted);
    let after = h.store.messages(&seen[0].conversation_id).unwrap();
    assert_eq!(after.len(), 4, "user, the asking answer (once), the denial, the reply");
    assert_eq!(after[1].id, seen[1].id);
}

/// A journal of `n` entries, written by the person (the app), no cap.
fn with_long_journal(h: &Harness, n: usize) -> String {
    for i in 0..n {
        let entry = json!({"text": format!("第 {i} 天")});
        h.store.append_to_list(LOCAL_USER, "lifecoach", "journal", entry, 1000).unwrap();
    }
    state_text(h)
}

fn journal_len(h: &Harness) -> usize {
    let read = h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap();
    read.data["journal"].as_array().unwrap().len()
}

/// Issue 28: `append_to_list` without `max_items` used to cap the list at 100 unasked (a
/// 150-entry journal lost 51 entries in one call).
#[tokio::test]
async fn an_append_without_max_items_keeps_every_entry_of_a_long_list() {
    let script = r#"
mode: matched
responses:
  - when: {tool_result: "已添加"}
    text: "记下了。"
  - tool_calls: [{name: append_to_list, arguments: {path: journal, entry: {text: "今天"}}}]
"#;
    let h = Harness::scripted(script);
    with_long_journal(&h, 150);
    let approver = Arc::new(Recording { approve: false, seen: Mutex::default() });
    let mut request = say("记一下");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "记下了。");
    assert!(approver.seen.lock().unwrap().is_empty(), "nothing is dropped, nothing asked");
    assert_eq!(turn.tool_results()[0].1["dropped"], 0);
    assert_eq!(journal_len(&h), 151);
}

const AT_LENGTH: &str = r#"
mode: matched
responses:
  - when: {tool_result: "denied"}
    text: "不删。"
  - when: {tool_result: "已添加"}
    text: "记下了，最旧的一条删了。"
  - tool_calls: [{name: append_to_list, arguments: {path: journal, entry: {text: "x"}, max_items: 150}}]
"#;

/// Issue 28: a cap the model chose equal to the length dropped one real entry per call,
/// unasked.
#[tokio::test]
async fn a_model_cap_at_the_length_asks_first_and_denied_changes_nothing() {
    let h = Harness::scripted(AT_LENGTH);
    let before = with_long_journal(&h, 150);
    let approver = Arc::new(Recording { approve: false, seen: Mutex::default() });
    let mut request = say("记一下");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "不删。");
    let seen = approver.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(
        seen[0].reason.contains("trims journal from 150 to 150 entries (drops the 1 oldest)"),
        "{}",
        seen[0].reason
    );
    assert_eq!(state_text(&h), before);
}

#[tokio::test]
async fn an_approved_cap_at_the_length_drops_the_oldest_and_is_undoable() {
    let h = Harness::scripted(AT_LENGTH);
    let before = with_long_journal(&h, 150);
    let approver = Arc::new(Recording { approve: true, seen: Mutex::default() });
    let mut request = say("记一下");
    request.skill = Some("lifecoach".into());
    let turn = h.turn_with(request, approver.clone()).await;
    assert_eq!(turn.reply(), "记下了，最旧的一条删了。");
    assert_eq!(approver.seen.lock().unwrap().len(), 1);
    assert_eq!(turn.tool_results()[0].1["dropped"], 1);
    assert_eq!(journal_len(&h), 150);
    h.app.undo_state(&UndoStateRequest { target: lifecoach(), to: None }).unwrap();
    assert_eq!(state_text(&h), before, "the dropped entry is back, byte for byte");
}
