//! [`ProtocolEngine`]: the protocol commands over the store's runs. Each command returns the
//! events it caused (the caller emits them: a tool through its run's emitter, the CLI by
//! printing), so the same rules hold in chat, in `vibe protocol` and in tests.

use std::sync::Arc;

use chrono::{DateTime, FixedOffset, Local, Utc};
use serde_json::{Map, Value, json};
use vibe_skills::{Protocol, ProtocolSource, Registry};
use vibe_store::{
    NewProtocolRun, ProtocolRun, ProtocolStatus, StateLeaf, Store, StoreError, put, step_key,
};
use vibe_wire::Event;

use super::clock::{Clock, stamp};
use super::error::ProtocolError;
use super::find::{self, ProtocolInfo};
use super::{ProtocolSettings, system_clock};

/// The protocol engine for one local user.
#[derive(Clone)]
pub struct ProtocolEngine {
    pub(crate) store: Arc<Store>,
    pub(crate) skills: Arc<Registry>,
    pub(crate) clock: Clock,
    pub(crate) settings: ProtocolSettings,
    pub(crate) user: String,
    /// The offset reminders' `HH:MM` are read in.
    pub(crate) offset: FixedOffset,
}

/// What `advance_protocol_step` did.
#[derive(Debug, Clone, PartialEq)]
pub enum Advance {
    /// `step_data` did not fit the step's fields: nothing was saved. One line per problem,
    /// each naming the field.
    Rejected { step: u32, problems: Vec<String> },
    /// The step was saved and the run moved on; `events` holds the new progress.
    Advanced { run: ProtocolRun, events: Vec<Event> },
    /// The last step was saved: the run is completed and the completion mapping written.
    Completed { run: ProtocolRun, events: Vec<Event>, written: Vec<String> },
}

impl ProtocolEngine {
    pub fn new(store: Arc<Store>, skills: Arc<Registry>) -> Self {
        Self {
            store,
            skills,
            clock: system_clock(),
            settings: ProtocolSettings::default(),
            user: vibe_store::LOCAL_USER.to_string(),
            offset: *Local::now().offset(),
        }
    }

    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Work for `user` (default: the local user).
    pub fn with_user(mut self, user: &str) -> Self {
        self.user = user.to_string();
        self
    }

    pub fn with_settings(mut self, settings: ProtocolSettings) -> Self {
        self.settings = settings;
        self
    }

    /// Read reminder times in this UTC offset (default: the machine's local offset).
    pub fn with_offset(mut self, offset: FixedOffset) -> Self {
        self.offset = offset;
        self
    }

    pub(crate) fn now(&self) -> DateTime<Utc> {
        (self.clock)()
    }

    pub(crate) fn now_text(&self) -> String {
        stamp(self.now())
    }

    /// Every valid protocol of every skill.
    pub fn list(&self) -> Vec<ProtocolInfo> {
        find::list(&self.skills)
    }

    /// The protocol `id` (in `skill` when given) with the skill that defines it.
    pub fn find(
        &self,
        skill: Option<&str>,
        id: &str,
    ) -> Result<(String, Arc<ProtocolSource>), ProtocolError> {
        find::find(&self.skills, skill, id)
    }

    /// The definition a run follows.
    pub fn definition(&self, run: &ProtocolRun) -> Result<Arc<ProtocolSource>, ProtocolError> {
        Ok(self.find(Some(&run.skill), &run.protocol_id)?.1)
    }

    /// Start protocol `id`; a run of the same skill that is active is paused first.
    pub fn start(
        &self,
        skill: Option<&str>,
        id: &str,
        conversation_id: Option<&str>,
        model: Option<&str>,
    ) -> Result<(ProtocolRun, Vec<Event>), ProtocolError> {
        let (skill, source) = self.find(skill, id)?;
        let def = &source.def;
        let run_id = uuid::Uuid::now_v7().to_string();
        let now = self.now_text();
        let (run, paused) = self.store.start_protocol_run(&NewProtocolRun {
            id: &run_id,
            user: &self.user,
            skill: &skill,
            protocol_id: &def.id,
            protocol_version: def.version,
            total_steps: def.steps.len() as u32,
            conversation_id,
            model,
            now: &now,
        })?;
        self.close_invitation(&skill, id, "started")?;
        let mut events = Vec::new();
        if let Some(p) = paused {
            events.push(paused_event(&p));
        }
        events.push(progress_event(def, &run));
        Ok((run, events))
    }

    /// The active run of `skill`, or the error saying there is none.
    pub fn active(&self, skill: &str) -> Result<ProtocolRun, ProtocolError> {
        self.store
            .active_protocol_run(&self.user, skill)?
            .ok_or_else(|| ProtocolError::NoActiveRun { skill: skill.to_string() })
    }

    /// Save the current step's data and move on (`advance_protocol_step`,
    /// docs/design.md#protocols).
    pub fn advance(
        &self,
        skill: &str,
        step_data: &Value,
        step_summary: Option<&str>,
    ) -> Result<Advance, ProtocolError> {
        let run = self.active(skill)?;
        let source = self.definition(&run)?;
        let def = &source.def;
        let Some(step) = def.steps.get(run.step as usize - 1) else {
            return Err(StoreError::InvalidInput(format!(
                "run {} is at step {} but protocol `{}` v{} has {} steps; cancel it and start again",
                run.id,
                run.step,
                def.id,
                def.version,
                def.steps.len()
            ))
            .into());
        };
        let problems = step.check_data(step_data);
        if !problems.is_empty() {
            return Ok(Advance::Rejected { step: run.step, problems });
        }
        let now = self.now_text();
        let last = run.step as usize == def.steps.len();
        let mut leaves: Vec<StateLeaf> = Vec::new();
        let mut written = Vec::new();
        let run = self.store.update_protocol_run(&run.id, |r| {
            let key = step_key(r.step);
            let mut saved = step_data.clone();
            // Reminder answers collected during the step stay with it.
            if let Some(kept) = r.data.get(&key).and_then(|d| d.get(REMINDERS_KEY)).cloned() {
                put(&mut saved, REMINDERS_KEY, kept);
            }
            put(&mut r.data, &key, saved);
            if let Some(summary) = step_summary.filter(|s| !s.trim().is_empty()) {
                put(&mut r.summaries, &key, json!(summary.trim()));
            }
            r.last_activity_at = now.clone();
            if last {
                r.status = ProtocolStatus::Completed;
                r.completed_at = Some(now.clone());
                leaves = completion_leaves(def, &r.data);
                written = leaves.iter().map(|(p, _)| p.join(".")).collect();
            } else {
                r.step += 1;
            }
            Ok(leaves.clone())
        })?;
        if last {
            let events = vec![
                progress_event(def, &run),
                Event::ProtocolCompleted {
                    protocol_id: run.protocol_id.clone(),
                    protocol_run_id: run.id.clone(),
                    summary: completion_summary(def, &run),
                },
            ];
            Ok(Advance::Completed { run, events, written })
        } else {
            let events = vec![progress_event(def, &run)];
            Ok(Advance::Advanced { run, events })
        }
    }

    /// Cancel the active run of `skill` (or the run `run_id`); its data is kept.
    pub fn cancel(
        &self,
        skill: Option<&str>,
        run_id: Option<&str>,
        reason: Option<&str>,
    ) -> Result<(ProtocolRun, Vec<Event>), ProtocolError> {
        let id = match (run_id, skill) {
            (Some(id), _) => id.to_string(),
            (None, Some(skill)) => self.active(skill)?.id,
            (None, None) => {
                return Err(StoreError::InvalidInput(
                    "name the run to cancel (RUN_ID) or its skill".into(),
                )
                .into());
            }
        };
        let now = self.now_text();
        let run = self.store.update_protocol_run(&id, |r| {
            r.status = ProtocolStatus::Cancelled;
            r.cancel_reason = reason.map(str::trim).filter(|r| !r.is_empty()).map(String::from);
            r.last_activity_at = now.clone();
            Ok(Vec::new())
        })?;
        let event = Event::ProtocolCancelled {
            protocol_id: run.protocol_id.clone(),
            protocol_run_id: run.id.clone(),
            reason: run.cancel_reason.clone(),
        };
        Ok((run, vec![event]))
    }

    /// Pause the active run of `skill` (the safety screen found acute risk, docs/safety.md):
    /// it keeps its step and data and waits for `resume`. `None` when the skill has no active
    /// run. A pending invitation of the skill lapses too: the message that caused the pause
    /// was its next message and agreed to nothing.
    pub fn pause(&self, skill: &str) -> Result<Option<(ProtocolRun, Vec<Event>)>, ProtocolError> {
        self.lapse_pending(skill)?;
        let Some(active) = self.store.active_protocol_run(&self.user, skill)? else {
            return Ok(None);
        };
        let now = self.now_text();
        let run = self.store.update_protocol_run(&active.id, |r| {
            r.status = ProtocolStatus::Paused;
            r.last_activity_at = now.clone();
            Ok(Vec::new())
        })?;
        let event = paused_event(&run);
        Ok(Some((run, vec![event])))
    }

    /// Make a paused run active again (pausing the skill's active one).
    pub fn resume(&self, run_id: &str) -> Result<(ProtocolRun, Vec<Event>), ProtocolError> {
        let (run, paused) = self.store.resume_protocol_run(run_id)?;
        let source = self.definition(&run)?;
        let mut events = Vec::new();
        if let Some(p) = paused {
            events.push(paused_event(&p));
        }
        events.push(progress_event(&source.def, &run));
        Ok((run, events))
    }

    /// One run by id.
    pub fn run(&self, run_id: &str) -> Result<ProtocolRun, ProtocolError> {
        Ok(self.store.protocol_run(run_id)?)
    }

    /// Every run, most recently active first.
    pub fn runs(&self, skill: Option<&str>) -> Result<Vec<ProtocolRun>, ProtocolError> {
        Ok(self.store.protocol_runs(&self.user, skill)?)
    }
}

/// Key of a step's data that holds answers to its reminders.
pub(crate) const REMINDERS_KEY: &str = "_reminders";

/// Share of steps done: `(step - 1) / total`, 1 when completed.
pub(crate) fn progress_of(run: &ProtocolRun) -> f64 {
    if run.status == ProtocolStatus::Completed {
        return 1.0;
    }
    f64::from(run.step - 1) / f64::from(run.total_steps.max(1))
}

pub(crate) fn progress_event(def: &Protocol, run: &ProtocolRun) -> Event {
    let step = def.steps.get(run.step as usize - 1);
    Event::ProtocolProgress {
        protocol_id: run.protocol_id.clone(),
        protocol_run_id: run.id.clone(),
        step: run.step,
        total_steps: run.total_steps,
        step_name: step.map(|s| s.title.clone()).unwrap_or_default(),
        phase: step.and_then(|s| s.phase.clone()),
        progress: progress_of(run),
        step_names: def.steps.iter().map(|s| s.title.clone()).collect(),
        step_names_en: if def.steps.iter().any(|s| s.title_en.is_some()) {
            def.steps.iter().map(|s| s.title_in("en").to_owned()).collect()
        } else {
            Vec::new()
        },
    }
}

pub(crate) fn paused_event(run: &ProtocolRun) -> Event {
    Event::ProtocolPaused {
        protocol_id: run.protocol_id.clone(),
        protocol_run_id: run.id.clone(),
        step: run.step,
        total_steps: run.total_steps,
    }
}

/// The collected value of `step.field` in a run's data.
pub(crate) fn collected<'a>(def: &Protocol, data: &'a Value, reference: &str) -> Option<&'a Value> {
    let (step_id, key) = reference.split_once('.')?;
    let (index, _) = def.step(step_id)?;
    data.get(step_key(index as u32 + 1))?.get(key).filter(|v| !v.is_null())
}

/// The completion mapping's leaves with their collected values (missing optional fields are
/// left out).
fn completion_leaves(def: &Protocol, data: &Value) -> Vec<StateLeaf> {
    def.completion_targets()
        .into_iter()
        .filter_map(|t| collected(def, data, &t.from).map(|v| (t.path, v.clone())))
        .collect()
}

fn completion_summary(def: &Protocol, run: &ProtocolRun) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Value::Object(map) = &run.summaries {
        for (i, step) in def.steps.iter().enumerate() {
            if let Some(s) = map.get(&step_key(i as u32 + 1)).and_then(Value::as_str) {
                parts.push(format!("{}：{s}", step.title));
            }
        }
    }
    if parts.is_empty() {
        format!("{}：{} 步全部完成", def.title, def.steps.len())
    } else {
        parts.join("；")
    }
}

/// An empty JSON object.
pub(crate) fn empty() -> Value {
    Value::Object(Map::new())
}

#[cfg(test)]
#[path = "engine_tests.rs"]
pub(crate) mod tests;
