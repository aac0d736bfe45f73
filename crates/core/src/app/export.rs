//! `export_all` (docs/privacy.md#export): everything the person has, in files readable
//! without VibeLife, into a new or empty folder. The same data always gives the same bytes
//! (no export time is written; a report's date is its run's last activity), so two exports
//! can be compared. Layout:
//!
//! - `profile.json`: the whole profile document (skill states included);
//! - `skill-states/<skill>.json`: each skill's saved state;
//! - `memory.json`: what the coach remembers (every item, its sources and history);
//! - `conversations/<id>.json` and `<id>.md`: each conversation with its messages;
//! - `protocol-runs/<id>.json` and `<id>.md`: each protocol run and its report (the report
//!   only while its skill is installed);
//! - `runs/<id>/events.jsonl` and the run's large tool outputs beside it: each recorded run's
//!   audit log, in clear (sealed on disk in an encrypted data folder). A damaged log is
//!   exported up to its damage, and the answer's notices name it (docs/audit.md).

use std::path::{Path, PathBuf};

use vibe_protocol::{ReportFormat, render_report};
use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    ConversationDetail, ExportAllRequest, ExportAllResponse, ListMemoryRequest, MessageRole,
};

use crate::app::{App, AppError};
use crate::backup::{BackupError, private_dir};
use vibe_runlog as audit;

impl App {
    /// `export_all`: refuses a folder that exists and is not empty.
    pub fn export_all(&self, request: &ExportAllRequest) -> Result<ExportAllResponse, AppError> {
        let dir = PathBuf::from(&request.out);
        if dir.exists() {
            let empty = std::fs::read_dir(&dir)
                .map_err(|err| AppError::Files {
                    what: format!("cannot read {}", dir.display()),
                    err,
                })?
                .next()
                .is_none();
            if !empty {
                return Err(BackupError::NotEmpty { path: dir }.into());
            }
        }
        private_dir(&dir)?;
        let mut out = Export { dir: dir.clone(), files: Vec::new(), notices: Vec::new() };

        let profile = self.store.profile(LOCAL_USER)?;
        out.json("profile.json", &profile)?;
        if let Some(skills) = profile.get("skills").and_then(|s| s.as_object()) {
            for (skill, state) in skills {
                out.json(&format!("skill-states/{}.json", file_name(skill)), state)?;
            }
        }
        out.json("memory.json", &self.list_memory(&ListMemoryRequest::default())?)?;
        for summary in self.list_conversations()?.conversations {
            let detail = self.conversation_detail(&summary.id)?;
            let name = file_name(&detail.conversation.id);
            out.json(&format!("conversations/{name}.json"), &detail)?;
            out.text(&format!("conversations/{name}.md"), &conversation_markdown(&detail))?;
        }
        let engine = self.protocols();
        for run in engine.runs(None).map_err(crate::CoreError::from)? {
            let name = file_name(&run.id);
            let view = super::protocol::run_view(&engine, &run);
            out.json(&format!("protocol-runs/{name}.json"), &view)?;
            let Ok(source) = engine.definition(&run) else { continue };
            let report =
                render_report(&source.def, &run, &run.last_activity_at, ReportFormat::Markdown)
                    .map_err(|e| AppError::Report(e.to_string()))?;
            out.bytes(&format!("protocol-runs/{name}.md"), &report)?;
        }
        let mut unchained = 0;
        for run in self.store.list_runs(None, usize::MAX)? {
            if self.export_run_log(&mut out, &run.id)? == Some(audit::Integrity::Unchained) {
                unchained += 1;
            }
        }
        if unchained > 0 {
            out.notices.push(format!(
                "{unchained} run log(s) were written before chaining (unverified order): a record \
                 lost, moved or cut off at its end cannot be detected in them"
            ));
        }
        out.files.sort();
        Ok(ExportAllResponse {
            dir: dir.display().to_string(),
            files: out.files,
            notices: out.notices,
        })
    }
}

impl App {
    /// A run's audit log and large tool outputs, opened with the data folder's key, into
    /// `runs/<id>/`; a damaged log (or one without its closing record) is named in the
    /// notices. A run that recorded nothing (its folder is gone) has nothing to export.
    /// Answers what the log's form proved.
    fn export_run_log(
        &self,
        out: &mut Export,
        run_id: &str,
    ) -> Result<Option<audit::Integrity>, AppError> {
        let log = match self.run_folders.read_events(run_id) {
            Ok(log) => log,
            Err(vibe_runlog::RunLogError::RunNotFound { .. }) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        out.notices.extend(log.problem());
        let name = file_name(run_id);
        // The events as recorded (a cut last line or an unreadable one is left out, and a
        // damaged log stops at its damage, as `vibe runs replay` shows it).
        let mut text = String::new();
        for line in &log.lines {
            text.push_str(line);
            text.push('\n');
        }
        out.text(&format!("runs/{name}/{}", audit::EVENTS_FILE), &text)?;
        for file in self.run_folders.run_files(run_id)? {
            if file.name != audit::EVENTS_FILE {
                let bytes = self.run_folders.read_run_file(run_id, &file.name)?;
                out.bytes(&format!("runs/{name}/{}", file_name(&file.name)), &bytes)?;
            }
        }
        Ok(Some(log.integrity))
    }
}

struct Export {
    dir: PathBuf,
    files: Vec<String>,
    notices: Vec<String>,
}

impl Export {
    fn json(&mut self, rel: &str, value: &impl serde::Serialize) -> Result<(), AppError> {
        let mut text = serde_json::to_string_pretty(value)
            .map_err(|e| AppError::InvalidInput(format!("cannot write {rel}: {e}")))?;
        text.push('\n');
        self.bytes(rel, text.as_bytes())
    }

    fn text(&mut self, rel: &str, text: &str) -> Result<(), AppError> {
        self.bytes(rel, text.as_bytes())
    }

    fn bytes(&mut self, rel: &str, bytes: &[u8]) -> Result<(), AppError> {
        let path = self.dir.join(rel);
        if let Some(parent) = path.parent() {
            private_dir(parent)?;
        }
        write_private(&path, bytes).map_err(|err| AppError::Files {
            what: format!("cannot write {}", path.display()),
            err,
        })?;
        self.files.push(rel.to_string());
        Ok(())
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)?.write_all(bytes)
}

/// An id as a file name: anything but letters, digits, `-`, `_` and `.` becomes `_`.
fn file_name(id: &str) -> String {
    let name: String = id
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' })
        .collect();
    if name.starts_with('.') { format!("_{name}") } else { name }
}

/// A conversation as Markdown: its title and skill, then each message under who wrote it.
fn conversation_markdown(detail: &ConversationDetail) -> String {
    let c = &detail.conversation;
    let mut md = format!("# {}\n\n", c.title.as_deref().unwrap_or("Conversation"));
    md.push_str(&format!("- id: {}\n- started: {}\n", c.id, c.created_at));
    if let Some(skill) = &c.skill {
        md.push_str(&format!("- skill: {skill}\n"));
    }
    for m in &detail.messages {
        let who = match m.role {
            MessageRole::User => "You",
            MessageRole::Assistant => "Coach",
            MessageRole::Tool => "Tool",
            MessageRole::System => "System",
        };
        let mut mark = if m.interrupted { " (interrupted)".to_string() } else { String::new() };
        if let Some(safety) = m.safety {
            let about = safety.category.map(|c| format!(", {c}")).unwrap_or_default();
            mark.push_str(&format!(" (safety notice shown: {}{about})", safety.risk));
        }
        md.push_str(&format!("\n## {who}{mark} — {}\n\n{}\n", m.created_at, m.content));
    }
    md
}
