//! Printing results: one JSON object on stdout with `--json`, readable text otherwise.
//! Errors are one line on stderr (and a JSON `error` object on stdout with `--json`).
//! Every human-readable line passes `terminal_safe` here, the one place all listings go
//! through: skill, script and memory text, titles and model words may carry escape sequences.

use serde_json::{Value, json};
use vibe_core::app::hint_of;
use vibe_wire::command::Hint;

use crate::ctx::Ctx;
use crate::render::terminal_safe;

/// Print a command's result: `value` as one JSON line with `--json`, else `human()` without
/// control sequences or bidi overrides (JSON escapes control characters itself).
pub fn print(ctx: &Ctx, value: &Value, human: impl FnOnce() -> String) {
    if ctx.json {
        out_line(&value.to_string());
    } else {
        let text = human();
        if !text.is_empty() {
            out_line(&terminal_safe(&text));
        }
    }
}

/// The crisis contacts a command's answer carries (docs/safety.md), on stderr as `vibe chat`
/// prints them; with `--json` they are in the answer's `safety` and nothing more is printed.
pub fn safety_notice(ctx: &Ctx, notice: Option<&vibe_wire::command::SafetyNoticeView>) {
    let Some(notice) = notice.filter(|_| !ctx.json) else { return };
    for line in crate::render::notice_lines(notice) {
        err_line(&line);
    }
}

/// One line on stderr (`notice: ...`, a warning), terminal-safe: notices quote skill and
/// model text.
pub fn err_line(text: &str) {
    eprintln!("{}", terminal_safe(text));
}

/// Write one line to stdout. A closed pipe (`vibe ... | head`) ends the process quietly
/// instead of panicking like `println!` would.
pub fn out_line(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // A run may be printing: write what waits in its log before ending.
            vibe_core::audit::write_waiting(std::time::Duration::from_secs(1));
            std::process::exit(0);
        }
        eprintln!("error: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

/// Pretty JSON for people.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

/// An error whose details already went out as events (`vibe chat --json`): only the stderr
/// line is printed, so stdout keeps nothing but events.
#[derive(Debug)]
pub struct AlreadyReported(pub String);

impl std::fmt::Display for AlreadyReported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AlreadyReported {}

/// The error and its causes, each said once: a cause whose text the message already holds
/// (an error that prints its source too) is left out.
pub fn chain_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let part = cause.to_string();
        if part.is_empty() || text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

pub fn report_error(ctx: &Ctx, err: &anyhow::Error) {
    let message = message(err);
    eprintln!("error: {}", terminal_safe(&message));
    if ctx.json && err.downcast_ref::<AlreadyReported>().is_none() {
        // With `--json`, the same fields the desktop app gets: the kind when the app knows it,
        // and the hint's data (which folder, which setting) for a script to act on.
        let mut error = json!({ "message": message });
        if let Some(app) = err.chain().find_map(|e| e.downcast_ref::<vibe_core::app::AppError>()) {
            error["kind"] = json!(app.kind());
        }
        if let Some(hint) = err.chain().find_map(hint_of) {
            error["hint"] = json!(hint);
        }
        out_line(&json!({ "error": error }).to_string());
    }
}

/// The error's one line, with the CLI's wording of the app's hint (a flag or a command to
/// run) when the error carries one.
pub fn message(err: &anyhow::Error) -> String {
    let text = chain_text(err);
    let hint = err.chain().find_map(hint_of);
    match hint.as_ref().and_then(cli_hint) {
        Some(fix) => format!("{text}; {fix}"),
        None => text,
    }
}

/// How the CLI says a hint.
fn cli_hint(hint: &Hint) -> Option<String> {
    Some(match hint {
        Hint::Endpoint { .. } => {
            "or pass --base-url / set VIBE_LLM_BASE_URL (`vibe llm probe` tests it)".into()
        }
        Hint::ChooseModel { .. } => {
            "or pass --model or set VIBE_LLM_MODEL (`vibe llm models` lists what the server offers)"
                .into()
        }
        Hint::ApiKey { .. } => "set VIBE_LLM_API_KEY or store the key in the OS keychain".into(),
        Hint::NeedsConversation => "pass --conversation ID (see `vibe conversations list`)".into(),
        Hint::RetryTurn { conversation_id } => {
            format!("retry with `vibe chat --retry --conversation {conversation_id}`")
        }
        Hint::Conversation { .. } => "see `vibe conversations list`".into(),
        Hint::Run { .. } => "list runs with `vibe runs list`".into(),
        Hint::Skill { .. } => "run `vibe skills list` to see the available skills".into(),
        Hint::SkillResource { skill } => format!("see `vibe skills show {skill}` for its resources"),
        Hint::Protocol { .. } => {
            "see `vibe protocol list`; a protocol with errors is disabled: run `vibe skills check`"
                .into()
        }
        Hint::ProtocolSkill { .. } => "pass --skill to choose one".into(),
        Hint::ProtocolStart { .. } => {
            "start one with `vibe protocol start ID`, or resume a paused run with `vibe protocol resume RUN_ID`".into()
        }
        Hint::ProtocolRun { .. } => "list them with `vibe protocol list`".into(),
        Hint::DataDir { .. } => "pass --data-dir or set VIBE_DATA_DIR to another folder".into(),
        Hint::MemoryOff => "turn it on with `vibe memory on`".into(),
        Hint::MemoryItem { .. } => "see `vibe memory list`".into(),
        Hint::BirthInfo { field } if field == "birth_info" => format!(
            "set it with `vibe profile set birth_info {}`",
            r#"'{"date": "1990-05-17", "time": "08:30", "place": "Beijing", "timezone": "Asia/Shanghai"}'"#
        ),
        Hint::BirthInfo { field } => format!("fix it with `vibe profile set {field} <JSON value>`"),
        Hint::DbPassphrase { .. } => {
            "set VIBE_DB_PASSPHRASE, or run the command in a terminal to be asked for it".into()
        }
        Hint::DbKey { .. } => "set VIBE_DB_PASSPHRASE to encrypt with a passphrase instead of the keychain, or pass --no-encryption when creating a new data folder (not recommended)".into(),
        Hint::LocalModel { .. } => "`vibe models list` shows the catalogue and what is installed".into(),
        Hint::Setting { .. } | Hint::SettingsFile { .. } | Hint::Keychain => return None,
    })
}

#[cfg(test)]
mod chain_tests {
    use super::chain_text;

    /// Like the store's errors: prints its source and also returns it as the source.
    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl std::fmt::Display for Outer {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "database error: {}", self.0)
        }
    }

    impl std::error::Error for Outer {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let inner = std::io::Error::other("disk I/O error");
        let err = anyhow::Error::new(Outer(inner)).context("saving the reply");
        assert_eq!(chain_text(&err), "saving the reply: database error: disk I/O error");
    }

    /// Real store errors repeat their source in their own text (`database error: {0}`, a
    /// backup failure quoting why): the chain says each cause once.
    #[test]
    fn a_real_store_error_says_each_cause_once() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let failed = || conn.execute("INSERT INTO nowhere VALUES (1)", []).unwrap_err();
        let reason = failed().to_string();
        assert!(reason.contains("no such table: nowhere"), "{reason}");

        let store = vibe_store::StoreError::from(failed());
        let err = anyhow::Error::new(vibe_core::app::AppError::from(store)).context("saving");
        let text = chain_text(&err);
        assert_eq!(text, format!("saving: database error: {reason}"));

        let backup = vibe_store::StoreError::Backup {
            path: "/data/vibe.db".into(),
            source: Box::new(vibe_store::StoreError::from(failed())),
        };
        let text = chain_text(&anyhow::Error::new(vibe_core::app::AppError::from(backup)));
        assert_eq!(text.matches("no such table: nowhere").count(), 1, "{text}");
        assert_eq!(text.matches("database error").count(), 1, "{text}");
    }
}
