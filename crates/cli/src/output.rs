//! Printing results: one JSON object on stdout with `--json`, readable text otherwise.
//! Errors are one line on stderr (and a JSON `error` object on stdout with `--json`).

use serde_json::{Value, json};

use crate::ctx::Ctx;

/// Print a command's result: `value` as one JSON line with `--json`, else `human()`.
pub fn print(ctx: &Ctx, value: &Value, human: impl FnOnce() -> String) {
    if ctx.json {
        println!("{value}");
    } else {
        let text = human();
        if !text.is_empty() {
            println!("{text}");
        }
    }
}

/// Pretty JSON for people.
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

pub fn report_error(ctx: &Ctx, err: &anyhow::Error) {
    let message = format!("{err:#}");
    eprintln!("error: {message}");
    if ctx.json {
        println!("{}", json!({ "error": { "message": message } }));
    }
}
