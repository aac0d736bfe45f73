//! What the chat service asks the engine before each turn: whether the person accepted a
//! pending invitation (its Start button, or a typed agreement as the very next message) or put
//! it off (its Later button) — any other next message lets it lapse —, whether the active run of
//! the conversation's skill resumes after a gap (recap) or after the idle timeout (ask to
//! continue or restart first), whether the message answers a due reminder (saved into the
//! step's data), and the protocol section for the prompt.

use vibe_wire::{Event, ProtocolChoice};

use super::engine::{ProtocolEngine, progress_event};
use super::error::ProtocolError;
use super::invite::is_acceptance;
use super::prompt::{TurnNote, protocol_prompt};

/// The engine's contribution to one turn.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnPlan {
    /// The protocol section of the system prompt (never trimmed).
    pub prompt: Option<String>,
    /// Events to emit at the start of the turn (progress on start or resume).
    pub events: Vec<Event>,
}

/// What a turn brings the engine: the person's message, the model, and the invitation button
/// pressed, if the turn came from one (`(protocol id, choice)`).
#[derive(Debug, Clone, Copy)]
pub struct TurnInputs<'a> {
    pub message: &'a str,
    pub model: &'a str,
    pub choice: Option<&'a (String, ProtocolChoice)>,
}

impl ProtocolEngine {
    /// Apply the per-turn rules for `skill` in `conversation_id` to a typed `message` and
    /// build the prompt section.
    pub fn before_turn(
        &self,
        skill: Option<&str>,
        conversation_id: &str,
        message: &str,
        model: &str,
    ) -> Result<TurnPlan, ProtocolError> {
        self.plan_turn(skill, conversation_id, TurnInputs { message, model, choice: None })
    }

    /// [`ProtocolEngine::before_turn`] for any turn, a pressed invitation button included:
    /// Start starts that protocol whatever the words; Later puts it off and the turn goes on.
    pub fn plan_turn(
        &self,
        skill: Option<&str>,
        conversation_id: &str,
        turn: TurnInputs<'_>,
    ) -> Result<TurnPlan, ProtocolError> {
        let TurnInputs { message, model, choice } = turn;
        let Some(skill) = skill else { return Ok(TurnPlan::default()) };
        let mut plan = TurnPlan::default();
        let mut note = TurnNote::Continue;
        if let Some((id, ProtocolChoice::Later)) = choice {
            self.later(Some(skill), id)?;
        }
        let active = self.store.active_protocol_run(&self.user, skill)?;
        // An accepted invitation starts its protocol (pausing another active one). A typed
        // reply counts only as the next message after the invitation and only when the whole
        // reply agrees; anything else lets the invitation lapse.
        let accepted = match choice {
            Some((id, ProtocolChoice::Start)) => Some(id.clone()),
            Some((_, ProtocolChoice::Later)) => None,
            None => match self.pending_invitation(skill, conversation_id) {
                Some(id) if is_acceptance(message) => Some(id),
                Some(id) => {
                    plan.events.push(self.lapse(skill, &id)?);
                    None
                }
                None => None,
            },
        }
        .filter(|id| active.as_ref().is_none_or(|r| &r.protocol_id != id));
        let mut run = match (accepted, active) {
            (Some(id), _) => {
                let (run, events) =
                    self.start(Some(skill), &id, Some(conversation_id), Some(model))?;
                plan.events.extend(events);
                note = TurnNote::Started;
                run
            }
            (None, Some(run)) => run,
            (None, None) => return Ok(plan),
        };
        let source = self.definition(&run)?;
        let now = self.now();
        if note == TurnNote::Continue {
            let gap = super::clock::parse(&run.last_activity_at)
                .map_or(0, |last| (now - last).num_minutes());
            let timeout = self.settings.idle_timeout_minutes as i64;
            if gap > timeout {
                note = TurnNote::AskContinueOrRestart { minutes: gap };
            } else if gap >= self.settings.recap_after_minutes as i64 {
                note = TurnNote::Recap { minutes: gap };
            }
            if note != TurnNote::Continue {
                plan.events.push(progress_event(&source.def, &run));
            }
        }
        let reminder = self.answer_due_reminder(&run.id, message)?;
        let stamp = self.now_text();
        run = self.store.update_protocol_run(&run.id, |r| {
            r.last_activity_at = stamp;
            if r.model.is_none() && !model.is_empty() {
                r.model = Some(model.to_string());
            }
            Ok(Vec::new())
        })?;
        let reminder_line = reminder.map(|(at, question)| {
            format!("用户这条消息是在回答 {at} 的提醒问题「{question}」，回答已保存到本步数据；先回应他的觉察。")
        });
        plan.prompt = Some(protocol_prompt(&source.def, &run, &note, reminder_line.as_deref()));
        Ok(plan)
    }

    /// Save `message` as the answer to the latest due, unanswered reminder of the run.
    fn answer_due_reminder(
        &self,
        run_id: &str,
        message: &str,
    ) -> Result<Option<(String, String)>, ProtocolError> {
        if message.trim().is_empty() {
            return Ok(None);
        }
        // Only the latest reminder whose time has come is open; earlier ones were missed.
        let latest =
            self.reminders()?.into_iter().rev().find(|r| r.protocol_run_id == run_id && r.due);
        let Some(latest) = latest.filter(|r| !r.answered) else { return Ok(None) };
        self.answer_reminder(run_id, &latest.at, message.trim())?;
        Ok(Some((latest.at, latest.question)))
    }
}

#[cfg(test)]
#[path = "turn_tests.rs"]
mod tests;
