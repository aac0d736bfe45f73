//! Coaching protocol commands: list protocols and runs, start, decline for now, resume,
//! cancel, reminders and their answers, and a run's report. The engine (the same one the chat
//! service uses) holds every rule; this file builds it over the app's store, skills and
//! settings and answers wire DTOs (`dto::protocol_run`).

use vibe_protocol::{ProtocolEngine, ReminderItem, ReportFormat, render_report};
use vibe_store::ProtocolStatus;
use vibe_wire::Event;
use vibe_wire::command::{
    AnswerReminderRequest, CancelProtocolRequest, ListProtocolRunsRequest, ProtocolLater,
    ProtocolList, ProtocolReportRequest, ProtocolRequest, ProtocolRunChange, ProtocolRunList,
    ProtocolRunRequest, ProtocolRunView, ProtocolView, ReminderAnswered, ReminderList,
    ReminderView, RemindersRequest, ReportFormatKind,
};

use crate::CoreError;
use crate::app::{App, AppError, dto};

impl App {
    /// The protocol engine over this app's store, skill registry, settings and clock (the
    /// assembly's, as turns see them).
    pub fn protocols(&self) -> ProtocolEngine {
        let assembly = self.assembly();
        ProtocolEngine::new(self.store.clone(), self.skills())
            .with_clock(assembly.clock.clone())
            .with_settings(assembly.chat.protocol)
    }

    /// `list_protocols`: every valid protocol of every usable skill.
    pub fn list_protocols(&self) -> ProtocolList {
        let protocols = self
            .protocols()
            .list()
            .into_iter()
            .map(|p| ProtocolView {
                skill: p.skill,
                id: p.id,
                version: p.version,
                title: p.title,
                title_en: p.title_en,
                description: p.description,
                estimated_time: p.estimated_time,
                steps: u32::try_from(p.steps).unwrap_or(u32::MAX),
            })
            .collect();
        ProtocolList { protocols }
    }

    /// `list_protocol_runs`: most recently active first.
    pub fn list_protocol_runs(
        &self,
        request: &ListProtocolRunsRequest,
    ) -> Result<ProtocolRunList, AppError> {
        let engine = self.protocols();
        let runs = engine.runs(request.skill.as_deref()).map_err(CoreError::from)?;
        Ok(ProtocolRunList { runs: runs.iter().map(|r| run_view(&engine, r)).collect() })
    }

    /// `get_protocol_run`.
    pub fn get_protocol_run(
        &self,
        request: &ProtocolRunRequest,
    ) -> Result<ProtocolRunView, AppError> {
        let engine = self.protocols();
        let run = engine.run(&request.run_id).map_err(CoreError::from)?;
        Ok(run_view(&engine, &run))
    }

    /// `start_protocol`: the skill's active run, if any, is paused first.
    pub fn start_protocol(&self, request: &ProtocolRequest) -> Result<ProtocolRunChange, AppError> {
        let engine = self.protocols();
        let started = engine.start(request.skill.as_deref(), &request.id, None, None);
        change(&engine, started.map_err(CoreError::from)?)
    }

    /// `later_protocol`: decline the invitation for now.
    pub fn later_protocol(&self, request: &ProtocolRequest) -> Result<ProtocolLater, AppError> {
        let skill = self
            .protocols()
            .later(request.skill.as_deref(), &request.id)
            .map_err(CoreError::from)?;
        Ok(ProtocolLater { protocol_id: request.id.clone(), skill })
    }

    /// `resume_protocol`: a paused run becomes active again.
    pub fn resume_protocol(
        &self,
        request: &ProtocolRunRequest,
    ) -> Result<ProtocolRunChange, AppError> {
        let engine = self.protocols();
        change(&engine, engine.resume(&request.run_id).map_err(CoreError::from)?)
    }

    /// `cancel_protocol`: its answers are kept.
    pub fn cancel_protocol(
        &self,
        request: &CancelProtocolRequest,
    ) -> Result<ProtocolRunChange, AppError> {
        let engine = self.protocols();
        let cancelled = engine.cancel(None, Some(&request.run_id), request.reason.as_deref());
        change(&engine, cancelled.map_err(CoreError::from)?)
    }

    /// `protocol_reminders`: all of the active runs' current steps, or those due and not
    /// answered.
    pub fn protocol_reminders(&self, request: &RemindersRequest) -> Result<ReminderList, AppError> {
        let engine = self.protocols();
        let items = if request.due { engine.due_reminders() } else { engine.reminders() };
        let reminders = items.map_err(CoreError::from)?.into_iter().map(reminder).collect();
        Ok(ReminderList { reminders })
    }

    /// What the desktop app notifies now (its minute tick calls this): per active run the
    /// latest due, unanswered reminder, once each, following `preferences.reminders`
    /// (off switch, quiet hours). Each returned reminder is recorded as notified.
    pub fn notify_due_reminders(&self) -> Result<ReminderList, AppError> {
        let settings = self.settings().preferences.reminders;
        let items = self.protocols().reminders_to_notify(&settings).map_err(CoreError::from)?;
        Ok(ReminderList { reminders: items.into_iter().map(reminder).collect() })
    }

    /// `reminder_notices`: the notified reminders still open (per active run, the latest due
    /// one, notified and not answered), for the app's reminder card.
    pub fn reminder_notices(&self) -> Result<ReminderList, AppError> {
        let items = self.protocols().reminder_notices().map_err(CoreError::from)?;
        Ok(ReminderList { reminders: items.into_iter().map(reminder).collect() })
    }

    /// `answer_reminder` (the command line's way; the app answers in the chat, where the turn
    /// screens the message first). The answer is saved; when it reads as a wellbeing risk the
    /// crisis contacts come back and the run is paused, as the chat pauses it
    /// (docs/safety.md#journal-and-check-ins): the next step's question waits until the person
    /// resumes it.
    pub fn answer_reminder(
        &self,
        request: &AnswerReminderRequest,
    ) -> Result<ReminderAnswered, AppError> {
        let engine = self.protocols();
        let mut run = engine
            .answer_reminder(&request.run_id, &request.at, &request.text)
            .map_err(CoreError::from)?;
        let safety = self.notice_for_writing(&request.text);
        if safety.is_some()
            && run.status == ProtocolStatus::Active
            && let Some((paused, _)) = engine.pause(&run.skill).map_err(CoreError::from)?
        {
            run = paused;
        }
        Ok(ReminderAnswered { run: run_view(&engine, &run), safety })
    }

    /// `protocol_report`: the run's report, generated now, as bytes (PDF is binary).
    pub fn protocol_report(&self, request: &ProtocolReportRequest) -> Result<Vec<u8>, AppError> {
        let engine = self.protocols();
        let run = engine.run(&request.run_id).map_err(CoreError::from)?;
        let source = engine.definition(&run).map_err(CoreError::from)?;
        let format = match request.format {
            ReportFormatKind::Md => ReportFormat::Markdown,
            ReportFormatKind::Html => ReportFormat::Html,
            ReportFormatKind::Json => ReportFormat::Json,
            ReportFormatKind::Pdf => ReportFormat::Pdf,
        };
        render_report(&source.def, &run, &vibe_store::now_rfc3339(), format)
            .map_err(|e| AppError::Report(e.to_string()))
    }
}

fn change(
    engine: &ProtocolEngine,
    (run, events): (vibe_store::ProtocolRun, Vec<Event>),
) -> Result<ProtocolRunChange, AppError> {
    Ok(ProtocolRunChange { run: run_view(engine, &run), events })
}

/// A run as front ends see it, its answers read through the protocol it follows (none when
/// the protocol is gone: its answers are then listed by key).
pub(crate) fn run_view(engine: &ProtocolEngine, run: &vibe_store::ProtocolRun) -> ProtocolRunView {
    let source = engine.definition(run).ok();
    dto::protocol_run(run, source.as_deref().map(|s| &s.def))
}

fn reminder(r: ReminderItem) -> ReminderView {
    ReminderView {
        protocol_run_id: r.protocol_run_id,
        skill: r.skill,
        protocol_id: r.protocol_id,
        step: r.step,
        at: r.at,
        time: r.time,
        conversation_id: r.conversation_id,
        question: r.question,
        due: r.due,
        answered: r.answered,
        answer: r.answer,
    }
}

/// The title of the protocol `run` follows in `lang` (`title_en` for English when written);
/// its id when the protocol is gone.
pub(crate) fn protocol_title(
    def: Option<&vibe_skills::Protocol>,
    run: &vibe_store::ProtocolRun,
    lang: &str,
) -> String {
    match def {
        None => run.protocol_id.clone(),
        Some(d) => match (&d.title_en, lang.starts_with("en")) {
            (Some(en), true) => en.clone(),
            _ => d.title.clone(),
        },
    }
}
