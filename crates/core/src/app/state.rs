//! Skill-state commands (docs/design.md#state-semantics): `read_state`, `write_state`,
//! `append_state` and `edit_state_entry` for the local user. The rules (skill ids, deep merge, list bounds) are the
//! store's; this file calls it and answers wire DTOs.

use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    AppendStateRequest, EditStateEntryRequest, ReadStateRequest, StateAppended, StateEntryEdited,
    StateRead, StateWritten, WriteStateRequest,
};

use crate::app::{App, AppError, dto};

impl App {
    /// `read_state`: every section, or only those asked for (`status: empty` when nothing is
    /// saved).
    pub fn read_state(&self, request: &ReadStateRequest) -> Result<StateRead, AppError> {
        let read =
            self.store.read_state(LOCAL_USER, &request.skill, request.sections.as_deref())?;
        Ok(dto::state_read(read))
    }

    /// `write_state`: deep-merge `data` (an object) into one section; null removes a key.
    pub fn write_state(&self, request: &WriteStateRequest) -> Result<StateWritten, AppError> {
        self.store.write_state(
            LOCAL_USER,
            &request.skill,
            &request.section,
            request.data.clone(),
        )?;
        Ok(StateWritten { skill_id: request.skill.clone(), section: request.section.clone() })
    }

    /// `append_state`: the entry goes first in the list at `path`; with `max_items`, the
    /// oldest beyond it are dropped (without it, only the list's own bound applies).
    pub fn append_state(&self, request: &AppendStateRequest) -> Result<StateAppended, AppError> {
        let max_items = request.max_items.map_or(usize::MAX, |n| n as usize);
        let out = self.store.append_to_list(
            LOCAL_USER,
            &request.skill,
            &request.path,
            request.entry.clone(),
            max_items,
        )?;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(StateAppended {
            skill_id: out.skill_id,
            path: out.path,
            length: count(out.length),
            dropped: count(out.dropped),
            entry: out.entry,
        })
    }

    /// `edit_state_entry`: replace one entry of a list in place (a journal entry edited in
    /// "Me"); an entry no longer at that place with that stamp is refused and nothing changes.
    pub fn edit_state_entry(
        &self,
        request: &EditStateEntryRequest,
    ) -> Result<StateEntryEdited, AppError> {
        let entry = self.store.edit_list_entry(
            LOCAL_USER,
            &request.skill,
            &request.path,
            request.index as usize,
            &request.created_at,
            request.entry.clone(),
        )?;
        // The person's own words in the entry (its text fields; `_` fields are the app's).
        let mut words = Vec::new();
        collect_text(&request.entry, &mut words);
        let safety = self.notice_for_writing(&words.join("\n"));
        Ok(StateEntryEdited {
            skill_id: request.skill.clone(),
            path: request.path.clone(),
            entry,
            safety,
        })
    }
}

/// Every string in `value`, depth first, but under keys starting with `_` (the app's stamps).
fn collect_text<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match value {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_text(v, out)),
        serde_json::Value::Object(map) => map
            .iter()
            .filter(|(key, _)| !key.starts_with('_'))
            .for_each(|(_, v)| collect_text(v, out)),
        _ => {}
    }
}
