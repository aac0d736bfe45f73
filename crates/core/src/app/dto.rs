//! Store rows into wire DTOs. The only place that knows both shapes, so a renamed column
//! changes this file and never the contract.

use vibe_store::{
    Conversation, MemoryItem, Message, ProtocolRun, ProtocolStatus, Role, RunRow, StateRead,
    StateStatus,
};
use vibe_wire::TokenUsage;
use vibe_wire::command::{
    ChatMessage, ConversationSummary, MemoryBackoffView, MemoryItemView, MemoryPass,
    MemoryPassStatus, MemorySourceView, MemoryTrigger, MemoryVersion, MessageRole, MessageSafety,
    ProtocolRunStatus, ProtocolRunView, RunSummary, StateReadStatus,
};

use vibe_agent::memory::{Extraction, ExtractionStatus, Trigger};

pub(crate) fn conversation(c: Conversation) -> ConversationSummary {
    ConversationSummary {
        id: c.id,
        title: c.title,
        skill: c.skill,
        scenario: c.scenario,
        voice_mode: c.voice_mode,
        created_at: c.created_at,
        updated_at: c.updated_at,
    }
}

pub(crate) fn message(m: Message) -> ChatMessage {
    ChatMessage {
        id: m.id,
        role: match m.role {
            Role::System => MessageRole::System,
            Role::User => MessageRole::User,
            Role::Assistant => MessageRole::Assistant,
            Role::Tool => MessageRole::Tool,
        },
        content: m.content,
        tool_calls: m.tool_calls,
        tool_call_id: m.tool_call_id,
        run_id: m.run_id,
        interrupted: m.interrupted,
        created_at: m.created_at,
        safety: m.safety.map(|s| MessageSafety { risk: s.risk, category: s.category }),
    }
}

pub(crate) fn run(r: RunRow) -> RunSummary {
    RunSummary {
        id: r.id,
        conversation_id: r.conversation_id,
        status: r.status,
        stop_reason: r.stop_reason,
        usage: r.usage.and_then(|u| serde_json::from_value::<TokenUsage>(u).ok()),
        started_at: r.started_at,
        finished_at: r.finished_at,
    }
}

/// A protocol run row as front ends see it, its answers read through `def` (the protocol it
/// follows, when still there).
pub(crate) fn protocol_run(
    r: &ProtocolRun,
    def: Option<&vibe_skills::Protocol>,
) -> ProtocolRunView {
    ProtocolRunView {
        id: r.id.clone(),
        skill: r.skill.clone(),
        protocol_id: r.protocol_id.clone(),
        protocol_version: r.protocol_version,
        status: match r.status {
            ProtocolStatus::Active => ProtocolRunStatus::Active,
            ProtocolStatus::Paused => ProtocolRunStatus::Paused,
            ProtocolStatus::Completed => ProtocolRunStatus::Completed,
            ProtocolStatus::Cancelled => ProtocolRunStatus::Cancelled,
        },
        step: r.step,
        total_steps: r.total_steps,
        data: r.data.clone(),
        summaries: r.summaries.clone(),
        conversation_id: r.conversation_id.clone(),
        model: r.model.clone(),
        cancel_reason: r.cancel_reason.clone(),
        started_at: r.started_at.clone(),
        last_activity_at: r.last_activity_at.clone(),
        completed_at: r.completed_at.clone(),
        answers: super::answers::step_answers(def, r),
        step_names: def
            .map(|d| d.steps.iter().map(|s| s.title.clone()).collect())
            .unwrap_or_default(),
        step_names_en: def
            .filter(|d| d.steps.iter().any(|s| s.title_en.is_some()))
            .map(|d| d.steps.iter().map(|s| s.title_in("en").to_owned()).collect())
            .unwrap_or_default(),
    }
}

pub(crate) fn memory_item(m: MemoryItem) -> MemoryItemView {
    MemoryItemView {
        id: m.id,
        kind: m.kind,
        text: m.text,
        confidence: m.confidence,
        first_seen: m.first_seen,
        last_seen: m.last_seen,
        edited: m.edited,
        history: m
            .history
            .into_iter()
            .map(|h| MemoryVersion {
                text: h.text,
                confidence: h.confidence,
                replaced_at: h.replaced_at,
                by: h.by,
            })
            .collect(),
        sources: m
            .sources
            .into_iter()
            .map(|s| MemorySourceView {
                conversation_id: s.conversation_id,
                message_id: s.message_id,
            })
            .collect(),
        updated_at: m.updated_at,
    }
}

pub(crate) fn memory_backoff(b: vibe_store::MemoryBackoff) -> MemoryBackoffView {
    MemoryBackoffView {
        conversation_id: b.conversation_id,
        failures: b.failures,
        last_error: b.last_error,
        failed_at: b.failed_at,
        next_try_at: b.next_try_at,
    }
}

pub(crate) fn memory_pass(p: Extraction) -> MemoryPass {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    MemoryPass {
        conversation_id: p.conversation_id,
        run_id: p.run_id,
        trigger: p.trigger.map(|t| match t {
            Trigger::Quiet => MemoryTrigger::Quiet,
            Trigger::Turns => MemoryTrigger::Turns,
        }),
        read_messages: count(p.read_messages),
        skipped_risky: count(p.skipped_risky),
        backoff: p.backoff.map(memory_backoff),
        status: match p.status {
            ExtractionStatus::Off => MemoryPassStatus::Off,
            ExtractionStatus::NothingNew => MemoryPassStatus::NothingNew,
            ExtractionStatus::Applied(a) => MemoryPassStatus::Applied {
                added: a.added,
                merged: a.merged,
                replaced: a.replaced,
                dropped_forgotten: count(a.dropped_forgotten),
            },
            ExtractionStatus::Rejected { reason } => MemoryPassStatus::Rejected { reason },
            ExtractionStatus::ModelFailed { reason } => MemoryPassStatus::ModelFailed { reason },
        },
    }
}

pub(crate) fn state_read(r: StateRead) -> vibe_wire::command::StateRead {
    vibe_wire::command::StateRead {
        status: match r.status {
            StateStatus::Success => StateReadStatus::Success,
            StateStatus::Empty => StateReadStatus::Empty,
        },
        skill_id: r.skill_id,
        data: r.data,
        warnings: r.warnings,
    }
}
