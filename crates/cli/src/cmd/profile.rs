//! `vibe profile show|set|import|export`: the profile document
//! (docs/design.md#profile-document). `set` goes through the core's `set_profile_path`, which
//! resolves a birth place and refuses an impossible birth date, time or zone before storing;
//! this file only parses and prints.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::json;
use vibe_store::LOCAL_USER;

use crate::cmd::state::parse_json_arg;
use crate::ctx::Ctx;
use crate::output::{pretty, print};

#[derive(Debug, Args)]
pub struct ProfileArgs {
    #[command(subcommand)]
    command: ProfileCommand,
}

#[derive(Debug, Subcommand)]
enum ProfileCommand {
    /// Print the whole profile.
    Show,
    /// Set the value at a dotted path, e.g. `vibe profile set birth_info.date '"1990-05-17"'`.
    /// A birth `place` is looked up offline and fills longitude, latitude and time zone.
    Set {
        /// Dotted path, e.g. birth_info.date or preferences.language.
        path: String,
        /// JSON value (strings need JSON quotes: '"text"'); null removes the key.
        value: String,
    },
    /// Replace the profile with a JSON file (legacy shapes are migrated).
    Import { file: PathBuf },
    /// Write the profile to a JSON file.
    Export { file: PathBuf },
}

pub fn run(ctx: &Ctx, args: ProfileArgs) -> anyhow::Result<()> {
    match args.command {
        ProfileCommand::Show => {
            let doc = ctx.open_store()?.profile(LOCAL_USER)?;
            print(ctx, &doc, || pretty(&doc));
        }
        ProfileCommand::Set { path, value } => {
            let value = parse_json_arg("VALUE", &value)?;
            let store = ctx.open_store()?;
            let birth_info =
                vibe_core::profile_set::set_profile_path(&store, LOCAL_USER, &path, value)?;
            let mut out = json!({"status": "success", "path": path});
            if let Some(info) = &birth_info {
                out["birth_info"] = info.clone();
            }
            print(ctx, &out, || match birth_info.as_ref().and_then(place_line) {
                Some(line) => format!("set {path}\n{line}"),
                None => format!("set {path}"),
            });
        }
        ProfileCommand::Import { file } => {
            let doc = read_json_file(&file)?;
            let stored = ctx.open_store()?.import_profile(LOCAL_USER, doc)?;
            print(ctx, &json!({"status": "success", "profile": stored}), || {
                format!("imported {}", file.display())
            });
        }
        ProfileCommand::Export { file } => {
            let doc = ctx.open_store()?.profile(LOCAL_USER)?;
            write_atomically(&file, &pretty(&doc))?;
            print(ctx, &json!({"status": "success", "file": file}), || {
                format!("exported to {}", file.display())
            });
        }
    }
    Ok(())
}

/// `birth place 杭州市 (place_id cn330100): longitude 120.161, latitude 30.294, Asia/Shanghai`.
fn place_line(info: &serde_json::Value) -> Option<String> {
    let id = info.get("place_id")?.as_str()?;
    Some(format!(
        "birth place {} (place_id {id}): longitude {}, latitude {}, time zone {}",
        info.get("place").and_then(|p| p.as_str()).unwrap_or(id),
        info.get("longitude")?,
        info.get("latitude").map_or("?".into(), ToString::to_string),
        info.get("timezone").and_then(|t| t.as_str()).unwrap_or("?"),
    ))
}

fn read_json_file(file: &Path) -> anyhow::Result<serde_json::Value> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read {} (check the path)", file.display()))?;
    serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!("{}:{}:{}: not valid JSON: {e}", file.display(), e.line(), e.column())
    })
}

/// Write through a temporary file beside the target, so a crash never leaves half a file.
fn write_atomically(file: &Path, text: &str) -> anyhow::Result<()> {
    let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default(),
        std::process::id()
    ));
    std::fs::write(&tmp, format!("{text}\n")).with_context(|| {
        format!("cannot write {} (check the folder exists and is writable)", tmp.display())
    })?;
    std::fs::rename(&tmp, file).with_context(|| format!("cannot write {}", file.display()))?;
    Ok(())
}
