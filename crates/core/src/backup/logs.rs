//! What a backup's run logs prove (docs/audit.md#what-a-read-proves): each
//! `runs/<id>/events.jsonl` read back (opened with the run-folder key its database copy
//! holds) and checked record by record, so `vibe backup verify` names a damaged log, or one
//! that ends without its closing record, by run and line. A backup holding such a log is still
//! sound (it is a faithful copy): these are notices, not failures. Checking the archive itself
//! is `archive`'s; reading a log `vibe_runlog`'s.

use std::path::{Path, PathBuf};

use vibe_store::DbKey;

use super::{BackupError, DB_ENTRY};
use vibe_runlog::{EVENTS_FILE, Integrity, RUNS_DIR, RunKey};

/// The notices about the run logs of the backup read into `dest` (see the module header),
/// one line each, in run order; logs written before chaining are counted in one line.
pub fn check_run_logs(dest: &Path, key: &DbKey) -> Result<Vec<String>, BackupError> {
    let runs = dest.join(RUNS_DIR);
    let mut ids: Vec<String> = match std::fs::read_dir(&runs) {
        Ok(entries) => entries
            .flatten()
            .filter(|e| e.path().join(EVENTS_FILE).is_file())
            .filter_map(|e| e.file_name().into_string().ok())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(BackupError::Io { what: "list", path: runs, err: e }),
    };
    ids.sort();
    let mut run_key: Option<Option<RunKey>> = None;
    let mut notices = Vec::new();
    let mut unchained = 0;
    for id in ids {
        let path = runs.join(&id).join(EVENTS_FILE);
        let key = match &run_key {
            Some(found) => found.as_ref(),
            None => {
                let raw = vibe_store::inspect_run_file_key(&dest.join(DB_ENTRY), key)?;
                run_key.insert(raw.map(|raw| RunKey::new(&raw))).as_ref()
            }
        };
        let shown = PathBuf::from(format!("{RUNS_DIR}/{id}/{EVENTS_FILE}"));
        match vibe_runlog::read_events_at(&path, &id, key) {
            Ok(mut log) => {
                log.path = shown;
                if log.integrity == Integrity::Unchained {
                    unchained += 1;
                }
                notices.extend(log.problem());
            }
            Err(e) => notices.push(format!("run {id}: its log cannot be read: {e}")),
        }
    }
    if unchained > 0 {
        notices.push(format!(
            "{unchained} run log(s) were written before chaining (unverified order): a record \
             lost, moved or cut off at its end cannot be detected in them"
        ));
    }
    Ok(notices)
}
