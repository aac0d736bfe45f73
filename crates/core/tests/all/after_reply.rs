//! What runs after a turn's reply (issue 29 §3): the memory pass a reply makes due starts once
//! the reply is returned, so the send never waits for it; it is still a run of its own with
//! its events recorded. The extraction call is held at a gate the test opens only after the
//! send came back: a send that waited for it would see the call start first, and the test
//! says so instead of hanging.

use std::sync::Arc;

use futures::StreamExt;
use futures::future::BoxFuture;
use tokio::sync::{Notify, Semaphore};
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_agent::memory::MemorySettings;
use vibe_llm::{ChatModel, ChatRequest, DeltaStream, LlmError, Message, ScriptedModel};
use vibe_store::LOCAL_USER;
use vibe_wire::Event;
use vibe_wire::command::SendMessageRequest;

use crate::harness::{Harness, Options};

/// Fresh database: the person's first message is message 1.
const SCRIPT: &str = r#"mode: matched
responses:
  - when: {user: "新消息"}
    text: "{\"items\": [{\"kind\": \"goals\", \"text\": \"学会游泳\", \"confidence\": 0.8, \"sources\": [1]}]}"
  - text: "好的"
"#;

/// The scripted model, its memory-extraction calls held until the gate opens (and saying
/// when one is waiting there).
struct Gated {
    inner: ScriptedModel,
    gate: Arc<Semaphore>,
    waiting: Arc<Notify>,
}

impl ChatModel for Gated {
    fn stream(&self, request: ChatRequest) -> DeltaStream {
        let extraction = request.messages.iter().any(|m| match m {
            Message::User { content } => content.contains("新消息"),
            _ => false,
        });
        let answer = self.inner.stream(request);
        if !extraction {
            return answer;
        }
        self.waiting.notify_one();
        let gate = self.gate.clone();
        let opened = futures::stream::once(async move {
            let _ = gate.acquire().await;
        });
        Box::pin(opened.filter_map(|()| async { None }).chain(answer))
    }
    fn list_models(&self) -> BoxFuture<'_, Result<Vec<vibe_llm::ModelInfo>, LlmError>> {
        self.inner.list_models()
    }
    fn model_name(&self) -> &str {
        self.inner.model_name()
    }
}

#[tokio::test]
async fn the_reply_comes_back_before_the_memory_pass_it_made_due_and_the_pass_is_recorded() {
    let (gate, waiting) = (Arc::new(Semaphore::new(0)), Arc::new(Notify::new()));
    let model = Gated {
        inner: ScriptedModel::from_yaml(SCRIPT, "chat").unwrap(),
        gate: gate.clone(),
        waiting: waiting.clone(),
    };
    let options = Options {
        memory: MemorySettings { quiet_minutes: 10, every_turns: 1 },
        ..Options::default()
    };
    let h = Harness::new(Arc::new(model), options);
    let send = h.app.send_message_with(
        SendMessageRequest::say(None, "我今年想学会游泳"),
        Vec::new(),
        Arc::new(ApprovalPolicy::DenyAll),
        CancellationToken::new(),
    );
    tokio::pin!(send);
    let reply = tokio::select! {
        biased;
        reply = &mut send => reply.unwrap(),
        () = waiting.notified() => panic!("the send waited for the memory pass its reply made due"),
    };
    assert_eq!(reply.text, "好的");
    assert!(h.store.memory_items(LOCAL_USER, None).unwrap().is_empty(), "not read yet");

    gate.add_permits(1);
    h.app.settle().await;
    let items = h.store.memory_items(LOCAL_USER, None).unwrap();
    assert_eq!(items.iter().map(|i| i.text.as_str()).collect::<Vec<_>>(), ["学会游泳"]);
    let runs = h.store.list_runs(Some(&reply.conversation_id), 10).unwrap();
    assert_eq!(runs.len(), 2, "the turn and the extraction run");
    let pass = runs.iter().find(|r| r.id != reply.run_id).unwrap();
    let log = h.app.run_folders().read_events(&pass.id).unwrap();
    assert!(
        log.events.iter().any(|e| matches!(e.event, Event::RunFinished { .. })),
        "the pass's events are recorded in its run folder"
    );
}
