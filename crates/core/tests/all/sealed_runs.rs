//! Run folders sealed in an encrypted data folder (docs/privacy.md#run-folders), through the app
//! as a front end opens it: the bytes on disk hold no message text, `replay_run` / `show_run`
//! read them back (a finished run's log whole, with no notice), a record cut short by a kill is
//! left out with a notice, a run folder copied
//! from another data folder is refused with a clear error, the scripted model replays a sealed
//! recording, and a folder with encryption off keeps clear files.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use vibe_core::app::{App, AppPaths, EphemeralKeys, Injections, Overrides};
use vibe_llm::{ChatRequest, Message, ScriptedModel};
use vibe_wire::command::{ReplayRunRequest, ShowRunRequest};
use vibe_wire::{ErrorKind, Event};

use crate::harness::{Harness, KEYS, say};

const USER_TEXT: &str = "我害怕告诉老板我想辞职";
const REPLY: &str = "先说说你最担心的是什么？";

fn script() -> String {
    format!("responses:\n  - text: \"{REPLY}\"\n")
}

fn holds(path: &Path, text: &str) -> bool {
    let bytes = std::fs::read(path).unwrap();
    bytes.windows(text.len()).any(|w| w == text.as_bytes())
}

fn events_path(dir: &Path, run_id: &str) -> PathBuf {
    dir.join("runs").join(run_id).join("events.jsonl")
}

fn replayed_reply(app: &App, run_id: &str) -> String {
    let replay = app.replay_run(&ReplayRunRequest { id: run_id.into() }).unwrap();
    replay
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::AssistantDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn an_encrypted_folder_seals_its_run_logs_and_reads_them_back() {
    let h = Harness::scripted(&script());
    let turn = h.turn(say(USER_TEXT)).await;
    let run_id = turn.result.run_id.clone();
    let path = events_path(h.dir.path(), &run_id);
    assert!(!holds(&path, USER_TEXT) && !holds(&path, REPLY), "no clear text on disk");
    assert!(holds(&path, "#vibelife-sealed v2"), "chained");

    assert_eq!(replayed_reply(&h.app, &run_id), REPLY);
    let shown = h.app.show_run(&ShowRunRequest { id: run_id.clone() }).unwrap();
    let events = shown.events.unwrap().events as usize;
    assert!(events > 3);
    assert!(shown.notices.is_empty(), "{:?}", shown.notices);

    // A kill in the middle of the next record: the part written is left out, with a notice.
    let mut bytes = std::fs::read(&path).unwrap();
    let whole = bytes.len();
    let last_record_start = bytes[..whole - 1].iter().rposition(|b| *b == b'\n').unwrap() + 1;
    let torn = bytes[last_record_start..last_record_start + 30].to_vec();
    bytes.extend_from_slice(&torn);
    std::fs::write(&path, &bytes).unwrap();
    let replay = h.app.replay_run(&ReplayRunRequest { id: run_id.clone() }).unwrap();
    assert_eq!(replay.events.len(), events);
    let notice = &replay.notices[0];
    assert!(
        notice.contains("ends without its closing record") && notice.contains("is cut short"),
        "{notice}"
    );
}

#[tokio::test]
async fn a_run_folder_from_another_data_folder_is_refused_and_left_as_it_is() {
    let a = Harness::scripted(&script());
    let run_id = a.turn(say(USER_TEXT)).await.result.run_id;
    let b = Harness::scripted(&script());
    let to = b.dir.path().join("runs").join(&run_id);
    std::fs::create_dir_all(&to).unwrap();
    let copied = events_path(b.dir.path(), &run_id);
    std::fs::copy(events_path(a.dir.path(), &run_id), &copied).unwrap();
    let before = std::fs::read(&copied).unwrap();

    let err = b.app.replay_run(&ReplayRunRequest { id: run_id.clone() }).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::WrongKey);
    let message = err.to_string();
    assert!(
        message.contains(&copied.display().to_string()) && message.contains("another key"),
        "{message}"
    );
    assert_eq!(std::fs::read(&copied).unwrap(), before, "nothing changed");
}

#[tokio::test]
async fn the_scripted_model_replays_a_sealed_recording() {
    let h = Harness::scripted(&script());
    let run_id = h.turn(say(USER_TEXT)).await.result.run_id;
    let path = events_path(h.dir.path(), &run_id);
    let overrides = Overrides {
        base_url: Some(format!("scripted:{}", path.display())),
        ..Overrides::default()
    };
    let replayer =
        App::open_with_keys(AppPaths::new(h.dir.path()), overrides, KEYS.clone()).unwrap();
    let (model, _) = replayer.model().unwrap();
    let (response, err) =
        vibe_llm::collect(model.stream(ChatRequest::new(vec![Message::user("again")]))).await;
    assert_eq!((response.text.as_str(), err.map(|e| e.to_string())), (REPLY, None));

    // Without the app's reader, the error says what the file is.
    let err = ScriptedModel::load(&path).err().unwrap().to_string();
    assert!(err.contains("encrypted recorded run"), "{err}");
}

#[tokio::test]
async fn a_folder_with_encryption_off_keeps_clear_run_logs() {
    let dir = tempfile::tempdir().unwrap();
    let overrides = Overrides { no_encryption: true, ..Overrides::default() };
    let injections = Injections {
        model: Some(Arc::new(ScriptedModel::from_yaml(&script(), "s").unwrap())),
        ..Injections::default()
    };
    let app = App::open_injected(
        AppPaths::new(dir.path()),
        overrides,
        Arc::new(EphemeralKeys::default()),
        injections,
    )
    .unwrap();
    let service = app.chat().unwrap();
    let result = service
        .run_turn(
            say(USER_TEXT),
            Vec::new(),
            Arc::new(vibe_agent::agent::ApprovalPolicy::DenyAll),
            tokio_util::sync::CancellationToken::new(),
        )
        .await
        .unwrap();
    let path = events_path(dir.path(), &result.run_id);
    assert!(holds(&path, USER_TEXT), "clear, as chosen");
    assert!(!dir.path().join("runs/.sealed").exists());
    assert_eq!(replayed_reply(&app, &result.run_id), REPLY);
}
