//! Recorded runs: `list_runs` (rows), `show_run` (row, audit folder, event summary) and
//! `replay_run` (the events as recorded). Reading the audit log is `vibe_runlog`'s.

use vibe_wire::command::{
    ListRunsRequest, ReplayRunRequest, RunDetail, RunEventCounts, RunFileView, RunList, RunReplay,
    ShowRunRequest,
};

use crate::app::{App, AppError, dto};
use vibe_runlog::{self as audit, RunLog};

impl App {
    /// `list_runs`: newest first.
    pub fn list_runs(&self, request: &ListRunsRequest) -> Result<RunList, AppError> {
        if request.limit == 0 {
            return Err(AppError::InvalidInput("the run list's limit must be at least 1".into()));
        }
        let rows =
            self.store.list_runs(request.conversation_id.as_deref(), request.limit as usize)?;
        Ok(RunList { runs: rows.into_iter().map(dto::run).collect() })
    }

    /// `show_run`: a run known by its row, its folder or both.
    pub fn show_run(&self, request: &ShowRunRequest) -> Result<RunDetail, AppError> {
        let id = &request.id;
        let row = self.store.run(id)?;
        let (log, files) = match self.run_folders.read_events(id) {
            Ok(log) => (Some(log), self.run_folders.run_files(id)?),
            Err(vibe_runlog::RunLogError::RunNotFound { .. }) if row.is_some() => {
                (None, Vec::new())
            }
            Err(e) => return Err(e.into()),
        };
        let events_path = self.run_folders.run_dir(id)?.join(audit::EVENTS_FILE);
        let mut notices = log.as_ref().map(RunLog::notices).unwrap_or_default();
        if log.is_none() {
            notices.push(format!(
                "no events were recorded for this run ({} is missing)",
                events_path.display()
            ));
        }
        Ok(RunDetail {
            id: id.clone(),
            run: row.map(dto::run),
            events_path: events_path.display().to_string(),
            events: log.as_ref().map(|l| event_counts(l.summary())),
            files: files
                .into_iter()
                .map(|f| RunFileView { name: f.name, bytes: f.bytes })
                .collect(),
            notices,
        })
    }

    /// `replay_run`: the events as recorded, in order.
    pub fn replay_run(&self, request: &ReplayRunRequest) -> Result<RunReplay, AppError> {
        let log = self.run_folders.read_events(&request.id)?;
        Ok(RunReplay { notices: log.notices(), events: log.events })
    }
}

fn event_counts(s: audit::RunSummary) -> RunEventCounts {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    RunEventCounts {
        events: count(s.events),
        by_type: s.by_type.into_iter().map(|(k, n)| (k, count(n))).collect(),
        rounds: s.rounds,
        tool_calls: count(s.tool_calls),
        stop_reason: s.stop_reason,
    }
}
