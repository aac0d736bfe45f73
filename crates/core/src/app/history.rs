//! The undo history as app commands (docs/design.md#undo): `state_history` lists the recorded
//! changes of a skill's state or of the profile, `undo_state` reverts them,
//! `clear_state_history` clears them on the person's request. The store keeps
//! and reverts; this file only maps to and from the wire DTOs.

use vibe_store::{ChangeBy, HistoryTarget, LOCAL_USER, StateChange};
use vibe_wire::command::{
    ChangeSource, ClearStateHistoryRequest, ClearStateHistoryResponse, HistoryTargetView,
    StateChangeView, StateHistoryRequest, StateHistoryView, UndoStateRequest, UndoStateResponse,
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

    /// `clear_state_history`: the person clears the target's history (a recent destructive
    /// change stays until its 90 days pass, docs/design.md#undo).
    pub fn clear_state_history(
        &self,
        request: &ClearStateHistoryRequest,
    ) -> Result<ClearStateHistoryResponse, AppError> {
        let done = self.store.clear_history(LOCAL_USER, &target(&request.target))?;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(ClearStateHistoryResponse {
            target: request.target.clone(),
            removed: count(done.removed),
            kept: count(done.kept),
            kept_until: done.kept_until,
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
