//! Warm-up with a remote preset (docs/local-model.md#warm-up): only the embedded engine is
//! warmed up; opening a conversation, the app's start or a warm-up send a server nothing.

use std::time::Duration;

use serde_json::json;
use vibe_core::app::Overrides;
use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, sse};
use vibe_wire::command::{GetConversationRequest, SendMessageRequest};

use crate::app::{endpoint, open, set, sink};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_preset_never_warms_up_and_no_request_reaches_the_server_for_it() {
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![ev_text("ok"), ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    // The desktop app's kind of host, which warms up what it opens with the local preset.
    let app = open(dir.path(), Overrides { long_lived: true, ..Overrides::default() });
    endpoint(&app, &server.url());
    // On by default; it does not apply to a server whatever it says.
    set(&app, &[("llm.local.warm_up", json!(true))]);
    let (sink, _events) = sink();
    let done = app.send_message(SendMessageRequest::say(None, "hi"), sink).await.unwrap();
    assert_eq!(server.requests().len(), 1);

    app.warm_up_at_start(None);
    app.get_conversation(&GetConversationRequest { id: done.conversation_id.clone() }).unwrap();
    assert_eq!(app.warming_up(), None, "no warm-up registered");
    assert_eq!(app.warm_up(Some(&done.conversation_id)).await.unwrap(), None);
    assert_eq!(app.warm_up(None).await.unwrap(), None);
    // The start's warm-up runs on a thread of its own: give it time to (not) send anything.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(server.requests().len(), 1, "no request for a warm-up");
}
