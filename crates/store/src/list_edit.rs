//! Editing or removing one entry of a list that `append_to_list` grows (a journal entry edited
//! in place or deleted by the person),
//! named by its place as read (0 = newest) and its `_created_at` stamp, which must still match
//! (so an entry appended or trimmed meanwhile is never overwritten by mistake): the entry's
//! fields are replaced by the new ones, its `_created_at` kept and `_edited_at` stamped, in one IMMEDIATE transaction that also records
//! the list's previous value in the undo history. The other entries and their order stay.

use rusqlite::{OptionalExtension, params};
use serde_json::{Map, Value};

use crate::change::{self, ChangeBy, HistoryTarget};
use crate::error::{Result, StoreError};
use crate::json_path::{parse_dotted, type_name};
use crate::skill_rows::validate_skill_id;
use crate::{Store, clock, skill_rows, sync_log};

impl Store {
    /// Replace entry `index` (newest first, as `read_state` lists them), created at
    /// `created_at`, of the list at `path` under `skills.<skill>` with `entry` (a JSON object);
    /// answers the stored entry. Recorded as made by this process's front end.
    pub fn edit_list_entry(
        &self,
        user: &str,
        skill: &str,
        path: &str,
        index: usize,
        created_at: &str,
        entry: Value,
    ) -> Result<Value> {
        self.edit_list_entry_by(user, skill, path, index, created_at, entry, &self.front_end())
    }

    /// [`Store::edit_list_entry`], recorded in the undo history as made `by`.
    #[allow(clippy::too_many_arguments)]
    pub fn edit_list_entry_by(
        &self,
        user: &str,
        skill: &str,
        path: &str,
        index: usize,
        created_at: &str,
        entry: Value,
        by: &ChangeBy,
    ) -> Result<Value> {
        validate_skill_id(skill)?;
        let segments = parse_dotted(path, "list path")?;
        let Value::Object(fields) = entry else {
            return Err(StoreError::invalid(format!(
                "a list entry must be a JSON object, got {}; e.g. {{\"text\": ...}}",
                type_name(&entry)
            )));
        };
        let mut fields: Map<String, Value> =
            fields.into_iter().filter(|(k, _)| !k.starts_with('_')).collect();
        fields.insert("_created_at".into(), Value::String(created_at.to_string()));
        fields.insert("_edited_at".into(), Value::String(clock::now_rfc3339()));
        let entry = Value::Object(fields);
        let entry_depth = 2 + segments.len() + 1;
        crate::bounds::check_value(&entry, entry_depth, &format!("skills.{skill}.{path}[]"))?;
        self.write_tx(|tx| {
            let (list_id, seq) = locate(tx, (user, skill, path), index, created_at)?;
            let (before, _) = change::keys_before(tx, user, skill, &[segments[0], "_meta"])?;
            tx.prepare_cached(
                "UPDATE state_list_items SET item = ?3 WHERE list_id = ?1 AND seq = ?2",
            )?
            .execute(params![list_id, seq, entry.to_string()])?;
            let at = sync_log::ListAt { user, skill, path, list_id };
            sync_log::put_local(tx, &at, seq, &entry)?;
            skill_rows::touch_doc(tx, user, skill)?;
            let target = HistoryTarget::Skill(skill.into());
            let summary = format!("{path}: the entry of {created_at} edited");
            change::record(tx, user, &target, path, by, &before, &summary)?;
            Ok(())
        })?;
        Ok(entry)
    }

    /// Remove entry `index` (newest first), created at `created_at`, from the list at `path`
    /// under `skills.<skill>` (a journal entry the person deleted); answers the removed entry.
    /// Recorded in the undo history as a destructive change made `by`, so it stays undoable
    /// for as long as the history keeps removals.
    pub fn remove_list_entry_by(
        &self,
        user: &str,
        skill: &str,
        path: &str,
        index: usize,
        created_at: &str,
        by: &ChangeBy,
    ) -> Result<Value> {
        validate_skill_id(skill)?;
        let segments = parse_dotted(path, "list path")?;
        self.write_tx(|tx| {
            let (list_id, seq) = locate(tx, (user, skill, path), index, created_at)?;
            let (before, _) = change::keys_before(tx, user, skill, &[segments[0], "_meta"])?;
            let at = sync_log::ListAt { user, skill, path, list_id };
            sync_log::delete_local(tx, &at, &[seq])?;
            let item = skill_rows::remove_item(tx, list_id, seq)?;
            skill_rows::touch_doc(tx, user, skill)?;
            let target = HistoryTarget::Skill(skill.into());
            let summary = format!("{path}: the entry of {created_at} removed");
            let removal = change::Removal::Destructive;
            change::record_as(tx, removal, (user, &target), path, by, &before, &summary)?;
            serde_json::from_str(&item).map_err(|source| StoreError::CorruptJson {
                what: format!("skills.{skill}.{path} entry of {created_at}"),
                source,
            })
        })
    }
}

/// The list at `path` and the `seq` of its entry `index` (newest first), which must have been
/// created at `created_at`; else `NoSuchListEntry` (it was appended, trimmed or removed since).
fn locate(
    tx: &rusqlite::Connection,
    (user, skill, path): (&str, &str, &str),
    index: usize,
    created_at: &str,
) -> Result<(i64, i64)> {
    let missing = || StoreError::NoSuchListEntry {
        skill: skill.to_string(),
        path: path.to_string(),
        created_at: created_at.to_string(),
    };
    let list_id = skill_rows::find_list(tx, user, skill, path)?.ok_or_else(missing)?;
    let offset = i64::try_from(index).unwrap_or(i64::MAX);
    let (seq, stamp): (i64, Option<String>) = tx
        .prepare_cached(
            "SELECT seq, json_extract(item, '$._created_at') FROM state_list_items
             WHERE list_id = ?1 AND json_valid(item) ORDER BY seq DESC LIMIT 1 OFFSET ?2",
        )?
        .query_row(params![list_id, offset], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?
        .ok_or_else(missing)?;
    if stamp.as_deref() != Some(created_at) {
        return Err(missing());
    }
    Ok((list_id, seq))
}

#[cfg(test)]
#[path = "list_edit_tests.rs"]
mod tests;
