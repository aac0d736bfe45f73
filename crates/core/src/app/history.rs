//! The undo history as app commands (docs/design.md#undo): `state_history` lists the recorded
//! changes of a skill's state or of the profile, `undo_state` reverts them. The store keeps
//! and reverts; this file only maps to and from the wire DTOs.

use vibe_store::{ChangeBy, HistoryTarget, LOCAL_USER, StateChange};
use vibe_wire::command::{
    ChangeSource, HistoryTargetView, StateChangeView, StateHistoryRequest, StateHistoryView,
    UndoStateRequest, UndoStateResponse,
};

use crate::app::{App, AppError};

/// How many changes `state_history` lists when the request names no limit.
const DEFAULT_LIMIT: u32 = 50;

fn target(view: &HistoryTargetView) -> HistoryTarget {
    match view {
        HistoryTargetView::Skill { skill } => HistoryTarget::Skill(skill.clone()),
        HistoryTargetView::Profile => HistoryTarget::Profile,
    }
}

fn change_view(change: StateChange) -> StateChangeView {
    let (by, run_id) = match change.by {
        ChangeBy::Model { run_id } => (ChangeSource::Model, Some(run_id)),
        ChangeBy::Cli => (ChangeSource::Cli, None),
        ChangeBy::App => (ChangeSource::App, None),
        ChangeBy::Import => (ChangeSource::Import, None),
    };
    StateChangeView {
        id: change.id,
        at: change.at,
        path: change.path,
        by,
        run_id,
        summary: change.summary,
    }
}

impl App {
    /// `state_history`.
    pub fn state_history(
        &self,
        request: &StateHistoryRequest,
    ) -> Result<StateHistoryView, AppError> {
        let limit = request.limit.unwrap_or(DEFAULT_LIMIT) as usize;
        let changes = self.store.state_history(LOCAL_USER, &target(&request.target), limit)?;
        Ok(StateHistoryView {
            target: request.target.clone(),
            changes: changes.into_iter().map(change_view).collect(),
        })
    }

    /// `undo_state`: recorded as made by this process's front end.
    pub fn undo_state(&self, request: &UndoStateRequest) -> Result<UndoStateResponse, AppError> {
        let by = self.store.front_end();
        let done = self.store.undo(LOCAL_USER, &target(&request.target), request.to, &by)?;
        Ok(UndoStateResponse {
            target: request.target.clone(),
            reverted_to: done.reverted_to,
            changes_reverted: u32::try_from(done.changes_reverted).unwrap_or(u32::MAX),
            recorded_as: done.recorded_as,
            value: done.value,
        })
    }
}
