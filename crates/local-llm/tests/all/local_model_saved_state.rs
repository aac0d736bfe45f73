//! Saved prompt states (docs/local-model.md#saved-states): a conversation's KV state, saved
//! sealed after a turn by one engine, is loaded by a new engine (a new process) and spares the
//! prompt it shares, with the same greedy answer as a full prefill; a state of another key,
//! another model, another prompt or cut short is ignored; no file holds the conversation's
//! text; deleting it removes it.

use std::path::Path;
use std::sync::Arc;

use vibe_llm::{ChatRequest, Message};
use vibe_local_llm::saved_state::state_file;
use vibe_local_llm::{
    DEFAULT_STATES_CAP_BYTES, LocalConfig, LocalModel, STATES_DIR, SavedStates, StateSeal,
    delete_saved_state, flush_saved_states,
};

use crate::support::{answer, config, greedy};

/// The app's seal: the data folder's run key (core's `RunKeySeal`).
struct RunKeySeal(vibe_runlog::RunKey);

impl StateSeal for RunKeySeal {
    fn key_id(&self) -> &str {
        self.0.id()
    }
    fn seal(&self, aad: &[u8], plain: &[u8]) -> Option<Vec<u8>> {
        self.0.seal_blob(aad, plain)
    }
    fn open(&self, aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
        self.0.open_blob(aad, sealed)
    }
}

const MARKER: &str = "ZEBRAMARKER";

pub(crate) fn saving(kind: &str, data_dir: &Path, key: u8) -> LocalConfig {
    let seal = Arc::new(RunKeySeal(vibe_runlog::RunKey::new(&[key; 32])));
    LocalConfig {
        saved_states: Some(SavedStates::new(data_dir, seal, DEFAULT_STATES_CAP_BYTES)),
        ..config(kind)
    }
}

/// The first turn of conversation `conv`: a system prompt long enough to be worth keeping.
fn first_turn(conv: &str, system: &str) -> ChatRequest {
    let mut request = greedy(&format!("{MARKER}: I slept badly again, what can I do?"), 8);
    request.messages[0] = Message::system(system.repeat(6));
    request.params.cache_key = Some(conv.to_string());
    request
}

const SYSTEM: &str = "You are a calm coach who asks one question at a time and listens well. ";

/// The next turn: the first one, its answer, a new message.
pub(crate) fn next_turn(first: &ChatRequest, reply: &str) -> ChatRequest {
    let mut next = first.clone();
    next.messages.push(Message::assistant(reply.to_string(), vec![]));
    next.messages.push(Message::user("And what about the evenings?"));
    next
}

/// The first turn answered by an engine that saves states into `dir`, dropped after, its
/// state written as at the end of a process (the app flushes the saver thread when it ends).
async fn first_answer(kind: &str, dir: &Path, key: u8, conv: &str) -> String {
    let model = LocalModel::open(saving(kind, dir, key)).unwrap();
    let reply = answer(&model, first_turn(conv, SYSTEM)).await.unwrap().text;
    assert_eq!(model.stats().states_saved, 1);
    assert!(flush_saved_states(std::time::Duration::from_secs(60)));
    reply
}

#[tokio::test]
async fn a_saved_state_spares_the_next_process_the_shared_prompt_with_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let reply = first_answer("q8_0", dir.path(), 1, "conv-1").await;
    let next = next_turn(&first_turn("conv-1", SYSTEM), &reply);

    let fresh = LocalModel::open(config("q8_0")).unwrap();
    let expected = answer(&fresh, next.clone()).await.unwrap();

    let resumed = LocalModel::open(saving("q8_0", dir.path(), 1)).unwrap();
    let got = answer(&resumed, next).await.unwrap();
    let stats = resumed.stats();
    assert_eq!(stats.states_loaded, 1);
    assert!(stats.prompt_tokens_reused > 32, "{stats:?}");
    assert!(stats.prompt_tokens_evaluated < expected.usage.unwrap().prompt_tokens, "{stats:?}");
    assert_eq!(got.text, expected.text, "the same greedy answer as a full prefill");
}

#[tokio::test]
async fn a_state_of_another_key_model_prompt_or_cut_short_is_ignored() {
    let reply = first_answer("q8_0", tempfile::tempdir().unwrap().path(), 1, "conv-1").await;
    let next = next_turn(&first_turn("conv-1", SYSTEM), &reply);
    let expected = answer(&LocalModel::open(config("q8_0")).unwrap(), next.clone()).await.unwrap();
    let other_prompt = first_turn("conv-1", "Tu es un entraîneur qui parle peu, en français. ");
    // (what differs, the engine that resumes: model and key, the request, whether the file
    // is cut short first)
    let cases = [
        ("another data folder's key", "q8_0", 2, &next, false),
        ("another model file", "f16", 1, &next, false),
        (
            "another prompt (only the template's first tokens match)",
            "q8_0",
            1,
            &other_prompt,
            false,
        ),
        ("a file cut short", "q8_0", 1, &next, true),
    ];
    for (case, kind, key, request, cut) in cases {
        let dir = tempfile::tempdir().unwrap();
        first_answer("q8_0", dir.path(), 1, "conv-1").await;
        if cut {
            let path = state_file(&dir.path().join(STATES_DIR), "conv-1");
            let bytes = std::fs::read(&path).unwrap();
            std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        }
        let model = LocalModel::open(saving(kind, dir.path(), key)).unwrap();
        let got = answer(&model, request.clone()).await.unwrap();
        let stats = model.stats();
        assert_eq!((stats.states_loaded, stats.prompt_tokens_reused), (0, 0), "{case}: {stats:?}");
        if kind == "q8_0" && std::ptr::eq(request, &next) {
            assert_eq!(got.text, expected.text, "{case}: a full prefill's answer");
        }
    }
}

#[tokio::test]
async fn no_state_file_holds_the_conversation_and_deleting_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let reply = first_answer("q8_0", dir.path(), 1, "conv-1").await;
    let states = dir.path().join(STATES_DIR);
    let files: Vec<_> = std::fs::read_dir(&states).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    for file in &files {
        let bytes = std::fs::read(file.path()).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for clear in [MARKER, "calm coach", "conv-1"] {
            assert!(!text.contains(clear), "{clear:?} in {}", file.path().display());
        }
    }

    delete_saved_state(dir.path(), "conv-1").unwrap();
    assert!(!state_file(&states, "conv-1").exists());
    let resumed = LocalModel::open(saving("q8_0", dir.path(), 1)).unwrap();
    answer(&resumed, next_turn(&first_turn("conv-1", SYSTEM), &reply)).await.unwrap();
    assert_eq!(resumed.stats().states_loaded, 0);
}
