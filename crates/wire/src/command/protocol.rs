//! Protocol runs as front ends see them (`vibe protocol status --json`, the app's protocol
//! screens).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where a protocol run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ProtocolRunStatus {
    Active,
    Paused,
    Completed,
    Cancelled,
}

/// One run of a coaching protocol.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolRunView {
    pub id: String,
    pub skill: String,
    pub protocol_id: String,
    pub protocol_version: u32,
    pub status: ProtocolRunStatus,
    /// The current step, 1-based.
    pub step: u32,
    pub total_steps: u32,
    /// What each step collected: `{"step_1": {...}, ...}`.
    pub data: Value,
    /// `{"step_1": "summary", ...}`.
    pub summaries: Value,
    pub conversation_id: Option<String>,
    pub model: Option<String>,
    pub cancel_reason: Option<String>,
    pub started_at: String,
    pub last_activity_at: String,
    pub completed_at: Option<String>,
    /// What the person answered, step by step, as the protocol's fields name it (the completion
    /// card and the report show these, not the model's transitions). Steps without any
    /// recorded field are left out.
    pub answers: Vec<StepAnswers>,
    /// Every step's name, in order, as `protocol_progress` names them (empty when the protocol
    /// is gone), so a front end opening a stored run shows the step by name.
    #[serde(default)]
    pub step_names: Vec<String>,
    /// The same names in English, when the protocol has English titles; empty otherwise.
    #[serde(default)]
    pub step_names_en: Vec<String>,
}

/// One step's recorded fields.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct StepAnswers {
    /// 1-based.
    pub step: u32,
    /// The step's title as the protocol file writes it.
    pub title: String,
    /// Its English title, when the file has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_en: Option<String>,
    pub fields: Vec<FieldAnswer>,
}

/// One recorded field of a step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FieldAnswer {
    pub key: String,
    /// What the person sees above the answer: the field's label in the protocol file (its
    /// Chinese text), else its description (written for the coach).
    pub label: String,
    /// The label's English text, when the protocol gives one (the UI shows it in English).
    pub label_en: Option<String>,
    /// The value as text: a list is one item per line; other values as compact JSON.
    pub text: String,
}

/// Protocol runs, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolRunList {
    pub runs: Vec<ProtocolRunView>,
}

/// One valid protocol of a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolView {
    pub skill: String,
    pub id: String,
    pub version: u32,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_en: Option<String>,
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_time: Option<String>,
    pub steps: u32,
}

/// `list_protocols`: every valid protocol of every usable skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolList {
    pub protocols: Vec<ProtocolView>,
}

/// `list_protocol_runs`: most recently active first, all skills or one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ListProtocolRunsRequest {
    #[serde(default)]
    pub skill: Option<String>,
}

/// `get_protocol_run` and `resume_protocol`: one run by id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolRunRequest {
    pub run_id: String,
}

/// `start_protocol` and `later_protocol`: protocol `id`, of `skill` when several define it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolRequest {
    pub id: String,
    #[serde(default)]
    pub skill: Option<String>,
}

/// `cancel_protocol`: a run; its answers are kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct CancelProtocolRequest {
    pub run_id: String,
    #[serde(default)]
    pub reason: Option<String>,
}

/// A run a command changed, and the events it caused (shown like a turn's).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolRunChange {
    pub run: ProtocolRunView,
    pub events: Vec<crate::Event>,
}

/// `later_protocol`: the invitation is declined for now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolLater {
    pub protocol_id: String,
    pub skill: String,
}

/// `protocol_reminders`: of the active runs' current steps, in time order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RemindersRequest {
    /// Only those due now and not answered.
    #[serde(default)]
    pub due: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReminderView {
    pub protocol_run_id: String,
    pub skill: String,
    pub protocol_id: String,
    pub step: u32,
    /// The protocol's `HH:MM`: the reminder's key (`answer_reminder` takes it).
    pub at: String,
    /// `HH:MM`, local time, when it is asked (the person's own time for it, else `at`).
    pub time: String,
    /// The run's conversation, if it is bound to one (a reminder card opens it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversation_id: Option<String>,
    pub question: String,
    /// The time of day has come.
    pub due: bool,
    pub answered: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ReminderList {
    pub reminders: Vec<ReminderView>,
}

/// `answer_reminder`: the answer to the reminder at `at` (`HH:MM`) of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct AnswerReminderRequest {
    pub run_id: String,
    pub at: String,
    pub text: String,
}

/// What `answer_reminder` did: the run after the answer, and a crisis notice when the answer
/// reads as a wellbeing risk (then the run is paused, as a risky message in the chat pauses it;
/// docs/safety.md#journal-and-check-ins).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReminderAnswered {
    pub run: ProtocolRunView,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub safety: Option<super::SafetyNoticeView>,
}

/// The format of a protocol run's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ReportFormatKind {
    Md,
    Html,
    Json,
    Pdf,
}

/// `protocol_report`: a run's report in a format (bytes; PDF is binary).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProtocolReportRequest {
    pub run_id: String,
    pub format: ReportFormatKind,
}
