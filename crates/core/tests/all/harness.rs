//! A chat service over a real SQLite file in a temp data dir, the repo's built-in skills and a
//! given model, plus helpers to read what a run emitted.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::{ApprovalPolicy, Approver, Budgets};
use vibe_agent::chat::{ChatService, TurnRequest, TurnResult};
use vibe_core::app::{App, AppPaths, EphemeralKeys, Injections, Overrides};
use vibe_llm::{ChatModel, LlmSettings, ScriptedModel};
use vibe_runlog::emit::{CollectSink, EventSink};
use vibe_store::{LOCAL_USER, Store};
use vibe_wire::command::{SettingChange, UpdateSettingsRequest};
use vibe_wire::{Envelope, Event};

/// The database keys of every harness data dir of this test process, kept in memory (two
/// harnesses over one dir share its key, as two processes share the keychain).
pub static KEYS: std::sync::LazyLock<Arc<EphemeralKeys>> =
    std::sync::LazyLock::new(|| Arc::new(EphemeralKeys::default()));

/// A plain SQLite connection to the harness data dir `dir`'s database, keyed.
pub fn raw_connection(dir: &std::path::Path) -> rusqlite::Connection {
    use vibe_core::app::KeyStore as _;
    let account = vibe_core::app::db_key_account(dir);
    let hex = KEYS.get_db_key(&account).unwrap().expect("a harness opened this data dir");
    vibe_store::sqlite_ready();
    let conn = rusqlite::Connection::open(dir.join("vibe.db")).unwrap();
    // SQLCipher 4's defaults: the raw key alone (docs/privacy.md#page-format).
    conn.pragma_update(None, "key", format!("x'{}'", hex.as_str())).unwrap();
    conn
}

/// A scripted model's one reply, for tests about what happens around a turn rather than in it.
pub const HELLO: &str = r#"
mode: matched
responses:
  - text: "你好，我在。"
"#;

/// A harness answering [`HELLO`] whose database's write lock another connection holds.
pub fn hello_with_write_lock() -> (Arc<Harness>, vibe_test_support::WriteLock) {
    let h = Arc::new(Harness::scripted(HELLO));
    let dir = h.dir.path().to_path_buf();
    let lock = vibe_test_support::WriteLock::take(move || raw_connection(&dir));
    (h, lock)
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
    /// The app's chat service (what `App::send_message` runs turns on).
    pub service: Arc<ChatService>,
    pub app: App,
}

pub struct Turn {
    pub result: TurnResult,
    pub events: Vec<Envelope>,
}

impl Turn {
    pub fn types(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| serde_json::to_value(&e.event).unwrap()["type"].as_str().unwrap().to_string())
            .collect()
    }

    pub fn model_requests(&self) -> Vec<&Event> {
        self.events
            .iter()
            .map(|e| &e.event)
            .filter(|e| matches!(e, Event::ModelRequest { .. }))
            .collect()
    }

    pub fn reply(&self) -> String {
        let mut text = String::new();
        for e in &self.events {
            match &e.event {
                Event::RoundStarted { .. } => text.clear(),
                Event::AssistantDelta { text: t } => text.push_str(t),
                _ => {}
            }
        }
        text
    }

    pub fn tool_results(&self) -> Vec<(String, Value, bool)> {
        self.events
            .iter()
            .filter_map(|e| match &e.event {
                Event::ToolResult { name, result, is_error, .. } => {
                    Some((name.clone(), result.clone(), *is_error))
                }
                _ => None,
            })
            .collect()
    }
}

#[derive(Default)]
pub struct Options {
    pub project_skills: Option<PathBuf>,
    pub budgets: Budgets,
    /// Keep run folders ready ahead of turns, as the desktop app does.
    pub runs_ahead: bool,
    /// Compaction summaries written by the model.
    pub summarize_with_model: bool,
    /// When memory extraction runs by itself.
    pub memory: vibe_agent::memory::MemorySettings,
}

impl Harness {
    pub fn new(model: Arc<dyn ChatModel>, options: Options) -> Self {
        Self::new_in(tempfile::tempdir().unwrap(), model, options)
    }

    /// A harness over an existing data dir (another process on the same files).
    pub fn new_in(dir: tempfile::TempDir, model: Arc<dyn ChatModel>, options: Options) -> Self {
        // Assembled as every front end does: through the app, over the data dir.
        let overrides = Overrides {
            seed: Some(7),
            skills_dir: options.project_skills,
            long_lived: options.runs_ahead,
            ..Overrides::default()
        };
        let injections = Injections {
            model: Some(model),
            budgets: Some(options.budgets),
            memory: Some(options.memory),
            ..Injections::default()
        };
        // Encrypted as the app's default, with the key in [`KEYS`].
        let paths = AppPaths::new(dir.path());
        let app = App::open_injected(paths, overrides, KEYS.clone(), injections).unwrap();
        if options.summarize_with_model {
            let change =
                SettingChange { key: "chat.summarize_with_model".into(), value: true.into() };
            app.update_settings(UpdateSettingsRequest { changes: vec![change] }).unwrap();
        }
        let store = app.store().clone();
        let service = app.chat().unwrap();
        Self { dir, store, service, app }
    }

    pub fn scripted(script: &str) -> Self {
        Self::scripted_with(script, Options::default())
    }

    pub fn scripted_with(script: &str, options: Options) -> Self {
        let model = ScriptedModel::from_yaml(script, "test script").unwrap();
        Self::new(Arc::new(model), options)
    }

    /// Close this harness's service and store, keeping the data dir.
    pub fn into_dir(self) -> tempfile::TempDir {
        self.dir
    }

    pub fn http(url: &str, options: Options) -> Self {
        Self::http_in(tempfile::tempdir().unwrap(), url, options)
    }

    pub fn http_in(dir: tempfile::TempDir, url: &str, options: Options) -> Self {
        let settings = LlmSettings {
            base_url: Some(url.to_string()),
            model: Some("test-model".into()),
            ..LlmSettings::default()
        };
        let setup = vibe_llm::build_model(&settings, None).unwrap();
        Self::new_in(dir, setup.model, options)
    }

    pub async fn turn(&self, request: TurnRequest) -> Turn {
        self.turn_with(request, Arc::new(ApprovalPolicy::DenyAll)).await
    }

    pub async fn turn_with(&self, request: TurnRequest, approver: Arc<dyn Approver>) -> Turn {
        let sink = Arc::new(CollectSink::default());
        let sinks: Vec<Arc<dyn EventSink>> = vec![sink.clone()];
        let result = self
            .service
            .run_turn(request, sinks, approver, CancellationToken::new())
            .await
            .unwrap();
        // The memory passes the reply made due run after it: done before the next step.
        self.service.settle().await;
        Turn { result, events: sink.events() }
    }

    pub fn profile(&self) -> Value {
        self.store.profile(LOCAL_USER).unwrap()
    }
}

pub fn say(message: &str) -> TurnRequest {
    TurnRequest { message: message.into(), ..TurnRequest::default() }
}

pub fn say_in(conversation: &str, message: &str) -> TurnRequest {
    TurnRequest {
        conversation_id: Some(conversation.into()),
        message: message.into(),
        ..TurnRequest::default()
    }
}
