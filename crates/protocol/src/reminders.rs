//! Reminders: the schedule of the current step of each active run (`HH:MM` in the engine's
//! offset; the person's own times from the profile replace the protocol's in order), which are
//! due now (time of day reached, not yet answered), and saving an answer into that step's data
//! under `_reminders.<HH:MM>` (the protocol's time: a reminder's key). Which to notify is
//! `notify`'s; showing them is the desktop app's job.

use chrono::Timelike;
use serde::Serialize;
use serde_json::json;
use vibe_store::{ProtocolRun, put, step_key};

use super::engine::{ProtocolEngine, REMINDERS_KEY, empty};
use super::error::ProtocolError;
use super::reminder_times::{TimeOfDay, personal_times};

/// One reminder of an active run's current step.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReminderItem {
    pub protocol_run_id: String,
    pub skill: String,
    pub protocol_id: String,
    pub step: u32,
    /// The protocol's `HH:MM`: the reminder's key (answers are saved under it).
    pub at: String,
    /// `HH:MM`, local time, when it is asked: the person's own time for it, else `at`.
    pub time: String,
    /// The run's conversation, if it is bound to one.
    pub conversation_id: Option<String>,
    pub question: String,
    /// The time of day has come.
    pub due: bool,
    pub answered: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

impl ProtocolEngine {
    /// The reminders of every active run's current step, in time order.
    pub fn reminders(&self) -> Result<Vec<ReminderItem>, ProtocolError> {
        let minute = self.minute_now();
        let personal = personal_times(&self.store.profile(&self.user)?);
        let mut out = Vec::new();
        for run in self.runs(None)? {
            if run.status != vibe_store::ProtocolStatus::Active {
                continue;
            }
            out.extend(self.run_reminders(&run, minute, &personal)?);
        }
        out.sort_by(|a, b| a.time.cmp(&b.time));
        Ok(out)
    }

    /// Reminders due now and not answered.
    pub fn due_reminders(&self) -> Result<Vec<ReminderItem>, ProtocolError> {
        Ok(self.reminders()?.into_iter().filter(|r| r.due && !r.answered).collect())
    }

    /// Minutes after midnight now, in the engine's offset.
    pub(crate) fn minute_now(&self) -> u32 {
        let now = self.now().with_timezone(&self.offset);
        now.hour() * 60 + now.minute()
    }

    fn run_reminders(
        &self,
        run: &ProtocolRun,
        minute: u32,
        personal: &[TimeOfDay],
    ) -> Result<Vec<ReminderItem>, ProtocolError> {
        let source = self.definition(run)?;
        let Some(step) = source.def.steps.get(run.step as usize - 1) else { return Ok(Vec::new()) };
        let answers = run.data.get(step_key(run.step)).and_then(|d| d.get(REMINDERS_KEY));
        Ok(step
            .reminders
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let time = personal
                    .get(i)
                    .copied()
                    .unwrap_or_else(|| TimeOfDay::from_minute(r.minute_of_day()));
                let answer = answers
                    .and_then(|a| a.get(&r.at))
                    .and_then(|a| a.get("answer"))
                    .and_then(|a| a.as_str())
                    .map(String::from);
                ReminderItem {
                    protocol_run_id: run.id.clone(),
                    skill: run.skill.clone(),
                    protocol_id: run.protocol_id.clone(),
                    step: run.step,
                    at: r.at.clone(),
                    time: time.to_string(),
                    conversation_id: run.conversation_id.clone(),
                    question: r.question.clone(),
                    due: time.minute() <= minute,
                    answered: answer.is_some(),
                    answer,
                }
            })
            .collect())
    }

    /// Save `answer` to the reminder at `at` of run `run_id`'s current step.
    pub fn answer_reminder(
        &self,
        run_id: &str,
        at: &str,
        answer: &str,
    ) -> Result<ProtocolRun, ProtocolError> {
        let run = self.run(run_id)?;
        let source = self.definition(&run)?;
        let step = source.def.steps.get(run.step as usize - 1);
        let Some(reminder) = step.and_then(|s| s.reminders.iter().find(|r| r.at == at)) else {
            let known = step
                .map(|s| s.reminders.iter().map(|r| r.at.as_str()).collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            return Err(ProtocolError::UnknownReminder {
                run_id: run_id.to_string(),
                at: at.to_string(),
                known: if known.is_empty() { "none".into() } else { known },
            });
        };
        let now = self.now_text();
        let question = reminder.question.clone();
        Ok(self.store.update_protocol_run(run_id, |r| {
            let key = step_key(r.step);
            let mut data = r.data.get(&key).cloned().unwrap_or_else(empty);
            let mut answers = data.get(REMINDERS_KEY).cloned().unwrap_or_else(empty);
            put(
                &mut answers,
                at,
                json!({"question": question, "answer": answer, "answered_at": now}),
            );
            put(&mut data, REMINDERS_KEY, answers);
            put(&mut r.data, &key, data);
            r.last_activity_at = now.clone();
            Ok(Vec::new())
        })?)
    }
}
