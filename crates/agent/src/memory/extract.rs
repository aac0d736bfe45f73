//! The extraction pass over one conversation: read the messages after its watermark (leaving
//! out what the safety screen marked and the coach's replies to it), make one model call,
//! check the answer, and apply it with the watermark in one store transaction. The call is a
//! run of its own — a `runs` row, a run folder with its events (`run_started`,
//! `model_request`, `usage`, `display` of kind `memory_updated` or `error`, `run_finished`) —
//! and counts like any run. Bad output changes nothing and is reported in those events. A
//! failed pass (model error or bad output) is counted per conversation and sets when the next
//! automatic pass may run (`trigger::backoff_wait`); a pass that goes through clears it. Its
//! writes wait for the database on a blocking thread (`store_io`).

use std::collections::HashSet;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use vibe_context::Tokenizer;
use vibe_llm::{ChatModel, collect};
use vibe_store::{Applied, PendingMessage, Role, Store};
use vibe_wire::{
    DisplayKind, ErrorInfo, ErrorKind, Event, Phase, SectionTokens, StopReason, TokenUsage,
};

use super::request::ITEMS_LISTED;
use super::trigger::backoff_wait;
use super::{
    MemorySettings, Trigger, extraction_due, extraction_request, memory_enabled, parse_answer,
};
use crate::CoreError;
use crate::store_io::blocking;
use vibe_runlog::RunFolders;
use vibe_runlog::emit::{Emitter, EventSink};

/// How to run a pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExtractOptions {
    /// Read every message again, ignoring the watermark (merges, never duplicates, and never
    /// brings back a forgotten item).
    pub from_start: bool,
    /// The settings the wait after a failed pass is computed from (`quiet_minutes`).
    pub settings: MemorySettings,
}

/// How a pass ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum ExtractionStatus {
    /// The memory switch is off: nothing was read.
    Off,
    /// No new message of the person to read (no model call was made).
    NothingNew,
    /// The answer was applied.
    Applied(Applied),
    /// The model's answer was refused; nothing changed.
    Rejected { reason: String },
    /// The model call failed; nothing changed.
    ModelFailed { reason: String },
}

/// One pass over one conversation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Extraction {
    pub conversation_id: String,
    /// The pass's run (absent when no model call was made).
    pub run_id: Option<String>,
    /// Why it ran by itself (absent when asked for).
    pub trigger: Option<Trigger>,
    /// Messages given to the model.
    pub read_messages: usize,
    /// Messages left out because the safety screen marked them (or answer one that was).
    pub skipped_risky: usize,
    /// After a failed pass: how many failed in a row and when the next automatic one may run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backoff: Option<vibe_store::MemoryBackoff>,
    #[serde(flatten)]
    pub status: ExtractionStatus,
}

/// What the model may see of the pending messages: the unmarked ones, without the coach's
/// replies in a run whose message was marked. Returns them and how many were left out.
fn readable(messages: Vec<PendingMessage>) -> (Vec<PendingMessage>, usize) {
    let risky_runs: HashSet<String> =
        messages.iter().filter(|m| m.safety.is_some()).filter_map(|m| m.run_id.clone()).collect();
    let total = messages.len();
    let kept: Vec<PendingMessage> = messages
        .into_iter()
        .filter(|m| m.safety.is_none())
        .filter(|m| {
            m.role == Role::User || m.run_id.as_ref().is_none_or(|r| !risky_runs.contains(r))
        })
        .collect();
    let skipped = total - kept.len();
    (kept, skipped)
}

/// Run one pass over `conversation_id` for `user`. `runs` holds the run folder (`None`:
/// the run row only). Errors are the store's and the audit's; a failed model call or a bad
/// answer is a status, not an error.
pub async fn extract_conversation(
    store: &Arc<Store>,
    model: &dyn ChatModel,
    runs: Option<&RunFolders>,
    user: &str,
    conversation_id: &str,
    options: ExtractOptions,
) -> Result<Extraction, CoreError> {
    extract_at(store, model, runs, user, conversation_id, options, Utc::now()).await
}

/// [`extract_conversation`] with the clock given (a failure's wait counts from `now`).
async fn extract_at(
    store: &Arc<Store>,
    model: &dyn ChatModel,
    runs: Option<&RunFolders>,
    user: &str,
    conversation_id: &str,
    options: ExtractOptions,
    now: DateTime<Utc>,
) -> Result<Extraction, CoreError> {
    let mut out = extract_pass(store, model, runs, user, conversation_id, options).await?;
    if let ExtractionStatus::Rejected { reason } | ExtractionStatus::ModelFailed { reason } =
        &out.status
    {
        let settings = options.settings;
        let wait = move |failures: u32| (now + backoff_wait(failures, &settings)).to_rfc3339();
        let (id, reason) = (conversation_id.to_string(), reason.clone());
        let failed_at = now.to_rfc3339();
        out.backoff = Some(
            blocking(store, move |s| s.record_memory_failure(&id, &reason, &failed_at, wait))
                .await?,
        );
    }
    Ok(out)
}

async fn extract_pass(
    store: &Arc<Store>,
    model: &dyn ChatModel,
    runs: Option<&RunFolders>,
    user: &str,
    conversation_id: &str,
    options: ExtractOptions,
) -> Result<Extraction, CoreError> {
    let mut out = Extraction {
        conversation_id: conversation_id.to_string(),
        run_id: None,
        trigger: None,
        read_messages: 0,
        skipped_risky: 0,
        backoff: None,
        status: ExtractionStatus::NothingNew,
    };
    store.conversation(conversation_id)?;
    if !memory_enabled(store, user)? {
        out.status = ExtractionStatus::Off;
        return Ok(out);
    }
    let pending = store.memory_pending(conversation_id, options.from_start)?;
    let Some(through) = pending.messages.last().map(|m| m.id) else { return Ok(out) };
    let (messages, skipped) = readable(pending.messages);
    out.skipped_risky = skipped;
    let sources: HashSet<i64> =
        messages.iter().filter(|m| m.role == Role::User).map(|m| m.id).collect();
    if sources.is_empty() {
        // Only marked messages or the coach's: nothing to remember, and nothing to read again.
        let (user, id) = (user.to_string(), conversation_id.to_string());
        blocking(store, move |s| s.apply_memory(&user, &id, through, &[])).await?;
        return Ok(out);
    }
    out.read_messages = messages.len();
    let mut items = store.memory_items(user, None)?;
    items.truncate(ITEMS_LISTED);
    let request = extraction_request(&items, &messages);
    let tk = Tokenizer::shared()?;
    let sent: u32 = request.messages.iter().map(|m| tk.count_message(m)).sum();

    let run_id = uuid::Uuid::now_v7().to_string();
    let audit = runs.map(|r| r.create(&run_id)).transpose()?.map(Arc::new);
    let (run, id) = (run_id.clone(), conversation_id.to_string());
    blocking(store, move |s| s.create_run(&run, Some(&id))).await?;
    out.run_id = Some(run_id.clone());
    let sinks: Vec<Arc<dyn EventSink>> =
        audit.iter().map(|a| a.clone() as Arc<dyn EventSink>).collect();
    let emitter = Emitter::new(run_id.clone(), sinks);
    emitter.emit(Event::RunStarted {
        conversation_id: conversation_id.to_string(),
        phase: Phase::Phase1,
        skill: None,
        user_message: String::new(),
        model: model.model_name().to_string(),
    });
    emitter.emit(Event::RoundStarted { round: 1 });
    emitter.emit(Event::ModelRequest {
        round: 1,
        phase: Phase::Phase1,
        prompt_tokens: sent,
        token_factor: None,
        corrected_tokens: None,
        sections: vec![SectionTokens { name: "memory_extraction".into(), tokens: sent }],
        tools: Vec::new(),
        history_messages: u32::try_from(messages.len()).unwrap_or(u32::MAX),
        notices: Vec::new(),
        budget: None,
    });
    let (response, error) = collect(model.stream(request)).await;
    let usage = response.usage.map_or_else(
        || {
            let answer = u64::from(tk.count(&response.text));
            TokenUsage {
                prompt_tokens: u64::from(sent),
                completion_tokens: answer,
                total_tokens: u64::from(sent) + answer,
            }
        },
        |u| TokenUsage {
            prompt_tokens: u.prompt_tokens,
            completion_tokens: u.completion_tokens,
            total_tokens: u.total_tokens,
        },
    );
    emitter.emit(Event::Usage { usage });

    let outcome: Result<Applied, (StopReason, ErrorKind, String)> = match error {
        Some(e) => Err((StopReason::ModelError, e.kind(), e.to_string())),
        None => match parse_answer(&response.text, &sources, &items) {
            Err(e) => Err((
                StopReason::Failed,
                ErrorKind::MemoryOutput,
                format!("{e}; memory was not changed"),
            )),
            Ok(changes) => {
                let (user, id) = (user.to_string(), conversation_id.to_string());
                blocking(store, move |s| s.apply_memory(&user, &id, through, &changes))
                    .await
                    .map_err(|e| {
                        (
                            StopReason::Failed,
                            ErrorKind::MemoryOutput,
                            format!("{e}; memory was not changed"),
                        )
                    })
            }
        },
    };
    let (stop, status) = match outcome {
        Ok(applied) => {
            emitter.emit(Event::Display {
                kind: DisplayKind::MemoryUpdated,
                data: json!({
                    "conversation_id": conversation_id,
                    "added": applied.added,
                    "merged": applied.merged,
                    "replaced": applied.replaced,
                    "dropped_forgotten": applied.dropped_forgotten,
                    "skipped_risky": skipped,
                    "read_messages": messages.len(),
                }),
            });
            (StopReason::Completed, ExtractionStatus::Applied(applied))
        }
        Err((stop, kind, reason)) => {
            emitter.emit(Event::Error { error: ErrorInfo::new(kind, reason.clone()) });
            let status = if stop == StopReason::ModelError {
                ExtractionStatus::ModelFailed { reason }
            } else {
                ExtractionStatus::Rejected { reason }
            };
            (stop, status)
        }
    };
    emitter.emit(Event::RunFinished { stop_reason: stop, usage, rounds: 1, tool_calls: 0 });
    let usage = serde_json::to_value(usage).unwrap_or_default();
    blocking(store, move |s| s.finish_run(&run_id, stop.run_status(), stop, &usage)).await?;
    out.status = status;
    Ok(out)
}

/// The passes due at `now` (see [`extraction_due`]; a conversation still waiting after failed
/// passes is left out), most recently active conversation first, at most `limit` of them.
/// Without the memory switch, none.
pub async fn extract_due(
    store: &Arc<Store>,
    model: &dyn ChatModel,
    runs: Option<&RunFolders>,
    user: &str,
    settings: &MemorySettings,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<Extraction>, CoreError> {
    // Both triggers off: nothing can be due, and the backlog (a count over the person's
    // unread messages) is not worth reading at every turn's end.
    if settings.every_turns == 0 && settings.quiet_minutes == 0 {
        return Ok(Vec::new());
    }
    if !memory_enabled(store, user)? {
        return Ok(Vec::new());
    }
    let mut done = Vec::new();
    let backoffs = store.memory_backoffs(user)?;
    for backlog in store.memory_backlog(user)? {
        if done.len() >= limit {
            break;
        }
        let backoff = backoffs.iter().find(|b| b.conversation_id == backlog.conversation_id);
        let Some(trigger) = extraction_due(now, &backlog, backoff, settings) else { continue };
        let options = ExtractOptions { from_start: false, settings: *settings };
        let mut pass =
            extract_at(store, model, runs, user, &backlog.conversation_id, options, now).await?;
        pass.trigger = Some(trigger);
        done.push(pass);
    }
    Ok(done)
}
