//! Printing results: one JSON object on stdout with `--json`, readable text otherwise.
//! Errors are one line on stderr (and a JSON `error` object on stdout with `--json`).

use serde_json::{Value, json};

use crate::ctx::Ctx;

/// Print a command's result: `value` as one JSON line with `--json`, else `human()`.
pub fn print(ctx: &Ctx, value: &Value, human: impl FnOnce() -> String) {
    if ctx.json {
        out_line(&value.to_string());
    } else {
        let text = human();
        if !text.is_empty() {
            out_line(&text);
        }
    }
}

/// Write one line to stdout. A closed pipe (`vibe ... | head`) ends the process quietly
/// instead of panicking like `println!` would.
pub fn out_line(text: &str) {
    use std::io::Write as _;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
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

pub fn report_error(ctx: &Ctx, err: &anyhow::Error) {
    let message = format!("{err:#}");
    eprintln!("error: {message}");
    if ctx.json && err.downcast_ref::<AlreadyReported>().is_none() {
        out_line(&json!({ "error": { "message": message } }).to_string());
    }
}
