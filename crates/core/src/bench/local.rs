//! `vibe bench local` (issue 32): a scripted conversation run through the embedded engine
//! (the `local` preset, as the app runs it: the real prompts, saved states and budgets) in a
//! throw-away data folder, with per-turn figures of the turn's first model request — prompt
//! tokens, tokens evaluated and reused, time to the first token, generation speed. With a
//! restart interval K, turn K, 2K, … each start a fresh process (the front end's `restart`
//! callback runs [`run_segment`] in a child process that re-opens the same folder), so what
//! makes them fast is the saved state. With `warm_up`, each process warms the conversation up
//! before its first turn (`App::warm_up`, as the app does when a conversation is opened) and
//! the warm-up's figures ride with that turn. The conversation: the skill active from the start, a
//! memory item, a protocol started and three steps advanced, more memory items; the person's
//! words are fixed, the answers the model's own (greedy, capped). Figures only: tests never
//! assert timings. The replay against llama-server and the ratios are `local_replay`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::json;
use tokio_util::sync::CancellationToken;
use vibe_agent::agent::ApprovalPolicy;
use vibe_llm::ChatModel;
use vibe_store::{LOCAL_USER, MemoryChange, Role};
use vibe_wire::command::{MemoryKind, SendMessageRequest};

use super::local_record::{LocalBenchReport, LocalTurn, WarmUpFigures, engine_counts};
use crate::CoreError;
use crate::app::{
    App, AppError, AppPaths, EphemeralKeys, Injections, LocalWrap, Overrides, SETTINGS_FILE,
};
use vibe_llm::measure::{Log, Recorder};

/// The skill the conversation runs in, and the protocol it starts.
const SKILL: &str = "lifecoach";
const PROTOCOL: &str = "dankoe";

/// What happens before a turn's message is sent.
#[derive(Debug, Clone, Copy)]
enum Before {
    /// The conversation opens with the skill active.
    Skill,
    Plain,
    /// A memory item noted from the previous message.
    Memory(&'static str),
    ProtocolStart,
    /// Step `n` of the protocol answered (its data saved), the run moving on.
    ProtocolStep(usize),
}

/// The scripted conversation: what happens before each turn, and the person's message.
const SCRIPT: [(Before, &str); 10] = [
    (Before::Skill, "最近总是拖延，想改变一下生活习惯"),
    (Before::Plain, "我每天都很累，下班后只想刷手机"),
    (Before::Memory("在上海做设计师，经常加班"), "今天又加班到很晚，有点沮丧"),
    (Before::ProtocolStart, "好，我们开始那个一日人生重置吧"),
    (Before::ProtocolStep(1), "五年后的周二，我大概还坐在同一个工位上"),
    (Before::ProtocolStep(2), "三年后我希望每天早上能写作"),
    (Before::ProtocolStep(3), "我一直在回避写作和运动"),
    (Before::Memory("想每天早起写作"), "我想先从每天写 500 字开始"),
    (Before::Plain, "你觉得我这周最该守住哪个小习惯？"),
    (Before::Memory("睡眠不足时容易焦虑"), "谢谢，今晚我想早点睡"),
];

/// The most turns the script has.
pub const LOCAL_BENCH_TURNS: usize = SCRIPT.len();

/// What to run.
#[derive(Debug, Clone)]
pub struct LocalBenchOptions {
    /// The `.gguf` file (absolute).
    pub model: PathBuf,
    /// Turns of the script to run (1 to [`LOCAL_BENCH_TURNS`]).
    pub turns: usize,
    /// Every this many turns a fresh process takes over (`None`: one process).
    pub restart_every: Option<usize>,
    /// Engine threads (`None`: the engine's default).
    pub threads: Option<u32>,
    /// The context window's cap (`llm.local.context_tokens`; `None`: the settings' default).
    pub context_tokens: Option<u32>,
    /// The answers' length cap, so that runs are comparable.
    pub answer_tokens: u32,
    /// llama-server's OpenAI-compatible base URL (`http://127.0.0.1:PORT/v1`) to replay the
    /// conversation's requests against, in the same run.
    pub llama_server: Option<String>,
    /// Warm the conversation up before each process's first turn, as the app does when a
    /// conversation is opened (docs/local-model.md#warm-up).
    pub warm_up: bool,
}

/// Turns `from..to` (0-based, `to` excluded) of the conversation in data folder `data_dir`,
/// run by process number `process` (1 is the bench's own).
#[derive(Debug, Clone)]
pub struct Segment {
    pub data_dir: PathBuf,
    pub conversation: String,
    pub from: usize,
    pub to: usize,
    pub process: usize,
    /// The throw-away folder's database passphrase.
    pub passphrase: zeroize::Zeroizing<String>,
    /// Warm the conversation up before the segment's first turn.
    pub warm_up: bool,
}

/// Run the benchmark in a new folder under `work`; `restart` runs a later segment in a fresh
/// process and returns its turns.
pub async fn bench_local(
    work: &Path,
    options: &LocalBenchOptions,
    restart: impl Fn(&Segment) -> Result<Vec<LocalTurn>, AppError>,
) -> Result<LocalBenchReport, AppError> {
    check(options)?;
    let passphrase = random_passphrase()?;
    let data_dir = work.join("data");
    let conversation = prepare(&data_dir, options, &passphrase)?;
    let mut turns = Vec::new();
    for (process, (from, to)) in
        segments(options.turns, options.restart_every).into_iter().enumerate()
    {
        let segment = Segment {
            data_dir: data_dir.clone(),
            conversation: conversation.clone(),
            from,
            to,
            process: process + 1,
            passphrase: passphrase.clone(),
            warm_up: options.warm_up,
        };
        let done = if process == 0 { run_segment(&segment).await? } else { restart(&segment)? };
        if done.len() != to - from {
            return Err(invalid(format!(
                "process {} ran {} turns instead of {}",
                process + 1,
                done.len(),
                to - from
            )));
        }
        turns.extend(done);
    }
    if let Some(url) = &options.llama_server {
        super::local_replay::replay(url, options.answer_tokens, &mut turns).await?;
    }
    let prefill = super::local_replay::ratios(&mut turns);
    for turn in &mut turns {
        turn.sent.clear();
    }
    Ok(LocalBenchReport {
        model: options.model.display().to_string(),
        threads: options.threads,
        answer_tokens: options.answer_tokens,
        restart_every: options.restart_every,
        warm_up: options.warm_up,
        prefill_tokens_per_s: prefill,
        llama_server: options.llama_server.clone(),
        turns,
    })
}

fn check(options: &LocalBenchOptions) -> Result<(), AppError> {
    if options.turns == 0 || options.turns > LOCAL_BENCH_TURNS {
        return Err(invalid(format!(
            "the scripted conversation has 1 to {LOCAL_BENCH_TURNS} turns, not {}; use e.g. --turns {LOCAL_BENCH_TURNS}",
            options.turns
        )));
    }
    if options.restart_every.is_some_and(|k| k < 2) {
        return Err(invalid(
            "--restart-every must be at least 2 (every K-th turn starts a fresh process)".into(),
        ));
    }
    if !options.model.is_absolute() || !options.model.is_file() {
        return Err(invalid(format!(
            "the model {} is not an existing .gguf file (give its absolute path)",
            options.model.display()
        )));
    }
    Ok(())
}

/// The processes' turn ranges: a new process starts at turn K, 2K, … (1-based).
fn segments(turns: usize, restart_every: Option<usize>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    for t in 1..turns {
        // 0-based turn `t` is turn t+1: a restart when (t+1) is a multiple of K.
        if restart_every.is_some_and(|k| (t + 1) % k == 0) {
            out.push((from, t));
            from = t;
        }
    }
    out.push((from, turns));
    out
}

/// A new data folder (encrypted with a random passphrase, so that saved states are sealed as
/// in the app) whose settings choose the model, greedy and capped answers; a conversation in
/// the skill. Returns the conversation's id.
fn prepare(
    data_dir: &Path,
    options: &LocalBenchOptions,
    passphrase: &zeroize::Zeroizing<String>,
) -> Result<String, AppError> {
    let mut llm = json!({
        "preset": vibe_llm::LOCAL_PRESET,
        "model": options.model.display().to_string(),
        "temperature": 0.0,
        "max_tokens": options.answer_tokens,
    });
    if let Some(threads) = options.threads {
        llm["local"]["threads"] = json!(threads);
    }
    if let Some(cap) = options.context_tokens {
        llm["local"]["context_tokens"] = json!(cap);
    }
    let io = |action: &'static str, err| vibe_runlog::RunLogError::AuditIo {
        action,
        path: data_dir.to_path_buf(),
        err,
    };
    std::fs::create_dir_all(data_dir).map_err(|e| io("create", e))?;
    let settings = serde_json::to_string_pretty(&json!({ "llm": llm })).unwrap_or_default();
    std::fs::write(data_dir.join(SETTINGS_FILE), settings).map_err(|e| io("write", e))?;
    let app = open(data_dir, passphrase, None)?;
    app.skills().skill(SKILL).map_err(|e| {
        invalid(format!("the local benchmark needs the built-in `{SKILL}` skill ({e})"))
    })?;
    let store = app.store();
    let conversation = store.create_conversation(LOCAL_USER, Some("bench local"))?;
    Ok(conversation.id)
}

fn open(data_dir: &Path, passphrase: &str, wrap: Option<LocalWrap>) -> Result<App, AppError> {
    let overrides = Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new(passphrase.to_string())),
        ..Overrides::default()
    };
    let injections = Injections {
        // The script's turns only: no memory extraction between them (items are added by the
        // script instead).
        memory: Some(vibe_agent::memory::MemorySettings { quiet_minutes: 0, every_turns: 0 }),
        local_wrap: wrap,
        ..Injections::default()
    };
    App::open_with_injections(
        AppPaths::new(data_dir),
        overrides,
        Arc::new(EphemeralKeys::default()),
        injections,
    )
}

/// Run one segment's turns in this process.
pub async fn run_segment(segment: &Segment) -> Result<Vec<LocalTurn>, AppError> {
    let log: Log = Arc::new(Mutex::new(Vec::new()));
    let wrap: LocalWrap = {
        let log = log.clone();
        Arc::new(move |inner| {
            Arc::new(Recorder::new(inner, log.clone(), Arc::new(engine_counts)))
                as Arc<dyn ChatModel>
        })
    };
    let app = open(&segment.data_dir, &segment.passphrase, Some(wrap))?;
    let load_ms = load_model(&app).await?;
    let approver = Arc::new(ApprovalPolicy::DenyAll);
    let mut turns = Vec::new();
    let script = SCRIPT.iter().enumerate().take(segment.to).skip(segment.from);
    for (n, &(step, message)) in script {
        let label = before_turn(&app, &segment.conversation, step)?;
        // After what happens before the turn (the skill activated), as the app warms up a
        // conversation when it is opened.
        let warm_up = if segment.warm_up && n == segment.from {
            Some(warm_up(&app, &segment.conversation).await?)
        } else {
            None
        };
        log.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
        let request = SendMessageRequest::say(Some(segment.conversation.clone()), message);
        let result =
            app.send_message_with(request, Vec::new(), approver.clone(), CancellationToken::new());
        let result = result.await?;
        let sent =
            std::mem::take(&mut *log.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let Some(first) = sent.first() else {
            return Err(invalid(format!("turn {} made no model request", n + 1)));
        };
        turns.push(LocalTurn {
            turn: n + 1,
            process: segment.process,
            restarted: segment.process > 1 && n == segment.from,
            step: label,
            load_ms: (n == segment.from).then_some(load_ms),
            requests: sent.len(),
            stop_reason: result.stop_reason.as_str().to_string(),
            engine: first.figures.clone(),
            warm_up,
            sent,
            ..LocalTurn::default()
        });
    }
    Ok(turns)
}

/// Load the model before the first timed turn (a person's first word does not wait for the
/// file either: the app loads it at start); returns the load time.
async fn load_model(app: &App) -> Result<f64, AppError> {
    let started = Instant::now();
    let _model = app.model()?;
    #[cfg(feature = "local-llm")]
    if let Some(loading) = vibe_local_llm::shared_model_info() {
        loading.await?;
    }
    Ok(started.elapsed().as_secs_f64() * 1000.0)
}

/// Warm the conversation up and wait for it; its figures.
async fn warm_up(app: &App, conversation: &str) -> Result<WarmUpFigures, AppError> {
    let started = Instant::now();
    let warmed = app.warm_up(Some(conversation)).await?.ok_or_else(|| {
        invalid(
            "the warm-up did not run (is llm.local.warm_up off, or no engine in this build?)"
                .into(),
        )
    })?;
    Ok(WarmUpFigures {
        ms: started.elapsed().as_secs_f64() * 1000.0,
        prefix_tokens: warmed.prefix_tokens,
        evaluated_tokens: warmed.evaluated_tokens,
        reused_tokens: warmed.reused_tokens,
        state_loaded: warmed.state_loaded,
    })
}

/// Do what the script says before a turn; returns its label.
fn before_turn(app: &App, conversation: &str, step: Before) -> Result<String, AppError> {
    let store = app.store();
    Ok(match step {
        Before::Skill => {
            store.set_conversation_skill(conversation, Some(SKILL), None)?;
            format!("skill {SKILL}")
        }
        Before::Plain => "plain".into(),
        Before::Memory(text) => {
            let messages = store.messages(conversation)?;
            let Some(source) = messages.iter().rev().find(|m| m.role == Role::User) else {
                return Err(invalid("a memory item needs an earlier message".into()));
            };
            let change = MemoryChange::Add {
                kind: MemoryKind::Facts,
                text: text.into(),
                confidence: 0.9,
                sources: vec![source.id],
            };
            store.apply_memory(LOCAL_USER, conversation, source.id, &[change])?;
            "memory item".into()
        }
        Before::ProtocolStart => {
            app.protocols()
                .start(Some(SKILL), PROTOCOL, Some(conversation), None)
                .map_err(CoreError::from)?;
            format!("protocol {PROTOCOL} started")
        }
        Before::ProtocolStep(n) => {
            let advanced = app
                .protocols()
                .advance(SKILL, &protocol_step(n), Some("用户回答了这一步"))
                .map_err(CoreError::from)?;
            if let vibe_protocol::Advance::Rejected { problems, .. } = advanced {
                return Err(invalid(format!("protocol step {n} refused: {problems:?}")));
            }
            format!("protocol step {n} done")
        }
    })
}

/// The data of the dankoe protocol's steps 1–3.
fn protocol_step(n: usize) -> serde_json::Value {
    match n {
        1 => {
            json!({"dull_dissatisfaction": "每天都很累", "top_complaints": ["加班", "没时间运动", "刷手机"], "revealed_wants": "安全感"})
        }
        2 => {
            json!({"tuesday_in_5_years": "还在同一个工位", "tuesday_in_10_years": "身体垮了", "cost_of_safe_life": "错过了自己", "identity_to_give_up": "老好人"})
        }
        _ => {
            json!({"tuesday_in_3_years": "早上写作", "identity_statement": "我是那种每天创作的人", "this_week_action": "写一篇文章"})
        }
    }
}

fn random_passphrase() -> Result<zeroize::Zeroizing<String>, AppError> {
    let mut raw = zeroize::Zeroizing::new([0u8; 24]);
    getrandom::fill(raw.as_mut())
        .map_err(|e| invalid(format!("no randomness for the bench folder's passphrase: {e}")))?;
    Ok(zeroize::Zeroizing::new(raw.iter().map(|b| format!("{b:02x}")).collect()))
}

fn invalid(message: String) -> AppError {
    CoreError::InvalidRequest(message).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_process_starts_at_every_kth_turn() {
        assert_eq!(segments(3, None), vec![(0, 3)]);
        assert_eq!(segments(3, Some(2)), vec![(0, 1), (1, 3)]);
        assert_eq!(segments(10, Some(3)), vec![(0, 2), (2, 5), (5, 8), (8, 10)]);
    }
}
