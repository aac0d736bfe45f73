//! `insights` (issue 31): reads what the series are made of — the journal, the completed
//! protocol runs and the life coach's goals and milestones — and hands it to
//! `insights_series`, which computes every series. Read-only.

use chrono::{DateTime, Local};
use vibe_store::{LOCAL_USER, ProtocolStatus};
use vibe_wire::command::{CompletedProtocol, InsightsRequest, InsightsView, JournalEntryView};

use crate::CoreError;
use crate::app::insights_series::{Completed, compute, goals};
use crate::app::journal::{JOURNAL_SKILL, parse_date, view};
use crate::app::protocol::protocol_title;
use crate::app::{App, AppError};

impl App {
    /// `insights`: the series for the range ending `until` (absent: today, local time).
    pub fn insights(&self, request: &InsightsRequest) -> Result<InsightsView, AppError> {
        let lang = self.ui_lang(request.lang.as_deref());
        let until = match request.until.as_deref() {
            Some(date) => parse_date(date, "until")?,
            None => self.local_today(),
        };
        let entries: Vec<JournalEntryView> =
            self.journal_entries()?.iter().filter_map(view).collect();
        let protocols = self.completed_protocols(&lang)?;
        let sections = ["goals".to_string(), "progress".to_string()];
        let state = self.store.read_state(LOCAL_USER, JOURNAL_SKILL, Some(&sections))?;
        let milestones = state.data.get("progress").and_then(|p| p.get("milestones"));
        let goals = goals(state.data.get("goals"), milestones);
        Ok(compute(&entries, request.range, until, &protocols, goals))
    }

    /// Every completed run with its local completion day and its title in `lang`.
    fn completed_protocols(&self, lang: &str) -> Result<Vec<Completed>, AppError> {
        let engine = self.protocols();
        let runs = engine.runs(None).map_err(CoreError::from)?;
        Ok(runs
            .into_iter()
            .filter(|r| r.status == ProtocolStatus::Completed)
            .filter_map(|run| {
                let completed_at = run.completed_at.clone()?;
                let day = DateTime::parse_from_rfc3339(&completed_at)
                    .ok()?
                    .with_timezone(&Local)
                    .date_naive();
                let source = engine.definition(&run).ok();
                let title = protocol_title(source.as_deref().map(|s| &s.def), &run, lang);
                Some(Completed {
                    day,
                    view: CompletedProtocol {
                        run_id: run.id,
                        skill: run.skill,
                        protocol_id: run.protocol_id,
                        title,
                        completed_at,
                        steps: run.total_steps,
                    },
                })
            })
            .collect())
    }
}
