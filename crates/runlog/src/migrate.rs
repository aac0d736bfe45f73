//! Sealing the clear run folders an encrypted data folder still holds (runs written before
//! run folders were sealed, or brought back by restoring an older backup), once, when the app
//! opens the folder. Each clear file is written sealed beside itself (`.<name>.sealing`),
//! synced, and renamed over the clear one, so a kill at any point leaves every file whole in
//! one form or the other; the next open finishes the job. Runs another process is still
//! writing are left for a later open. When every run is sealed the marker `runs/.sealed` is
//! written and later opens skip the walk.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Read as _, Write as _};
use std::path::Path;
use std::sync::Arc;

use super::keys::SEALED_MARKER;
use super::liveness;
use super::run_key::RunKey;
use super::seal::{self, Form, Sealer};
use super::{EVENTS_FILE, RUNS_DIR};

/// The suffix of a file being sealed (`.<name>.sealing`).
const SEALING_SUFFIX: &str = ".sealing";

/// What sealing the run folders did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SealReport {
    /// Clear files sealed now.
    pub files: usize,
    /// What was left clear and why, one line each (a run still going on, a file that cannot
    /// be written); tried again at the next open.
    pub left: Vec<String>,
}

/// Seal every clear run file under `data_dir/runs/` with `key` (see the module header).
pub fn seal_clear_runs(data_dir: &Path, key: &Arc<RunKey>) -> SealReport {
    let root = data_dir.join(RUNS_DIR);
    let marker = root.join(SEALED_MARKER);
    let mut report = SealReport::default();
    if marker.exists() {
        return report;
    }
    match std::fs::read_dir(&root) {
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => report.left.push(format!("cannot list {}: {e}", root.display())),
        Ok(entries) => {
            for entry in entries.flatten() {
                let dir = entry.path();
                let Some(run_id) = entry.file_name().to_str().map(str::to_string) else { continue };
                if run_id.starts_with('.') || !dir.is_dir() {
                    continue;
                }
                if !liveness::is_dead(&dir) {
                    report
                        .left
                        .push(format!("{}: the run is going on in another process", dir.display()));
                    continue;
                }
                seal_run_dir(&dir, &run_id, key, &mut report);
            }
        }
    }
    if report.left.is_empty() {
        let made = super::private_dir(&root).and_then(|()| {
            super::private_file(OpenOptions::new()).write(true).create(true).open(&marker)
        });
        if let Err(e) = made {
            report.left.push(format!("cannot write {}: {e}", marker.display()));
        }
    }
    report
}

/// Seal the clear files of one run's folder; a leftover `.<name>.sealing` of a killed attempt
/// is removed first.
fn seal_run_dir(dir: &Path, run_id: &str, key: &Arc<RunKey>, report: &mut SealReport) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        report.left.push(format!("cannot list {}", dir.display()));
        return;
    };
    let mut names: Vec<String> =
        entries.flatten().filter_map(|e| e.file_name().to_str().map(str::to_string)).collect();
    names.sort();
    let mut sealed_any = false;
    for name in names {
        let path = dir.join(&name);
        if name.starts_with('.') {
            if name.ends_with(SEALING_SUFFIX) {
                let _ = std::fs::remove_file(&path);
            }
            continue;
        }
        let is_run_file =
            name == EVENTS_FILE || (name.starts_with("tool-") && name.ends_with(".json"));
        if !is_run_file || !path.is_file() {
            continue;
        }
        match seal_file(dir, &name, run_id, key) {
            Ok(true) => {
                report.files += 1;
                sealed_any = true;
            }
            Ok(false) => {}
            Err(e) => report.left.push(format!("cannot encrypt {}: {e}", path.display())),
        }
    }
    if sealed_any {
        sync_dir(dir);
    }
}

/// Seal `dir/name` when it is clear: `Ok(true)` when it was.
fn seal_file(dir: &Path, name: &str, run_id: &str, key: &Arc<RunKey>) -> std::io::Result<bool> {
    let path = dir.join(name);
    // The head says the form; only clear files are read whole.
    let mut head = Vec::with_capacity(seal::HEADER_LEN);
    std::fs::File::open(&path)?.take(seal::HEADER_LEN as u64).read_to_end(&mut head)?;
    if seal::form(&head) != Form::Clear {
        return Ok(false);
    }
    let clear = std::fs::read(&path)?;
    // Sealed unchained (v1): the clear file's order was never protected, and its sealed form
    // must not claim it was (docs/audit.md#sealed-logs).
    let mut sealer = Sealer::unchained(key.clone(), run_id, name)?;
    let sealed = seal::seal_whole(&mut sealer, &clear);
    let temp = dir.join(format!(".{name}{SEALING_SUFFIX}"));
    let mut file = super::private_file(OpenOptions::new())
        .write(true)
        .create(true)
        .truncate(true)
        .open(&temp)?;
    file.write_all(&sealed)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&temp, &path)?;
    Ok(true)
}

fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Err(e) = std::fs::File::open(dir).and_then(|d| d.sync_all()) {
        tracing::debug!(dir = %dir.display(), "cannot sync a run folder: {e}");
    }
}

#[cfg(test)]
#[path = "migrate_tests.rs"]
mod tests;
