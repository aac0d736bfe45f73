//! `vibe profile show|set|import|export`: the profile document
//! (docs/design.md#profile-document), each one `App` command. `set` is `set_profile_path`, which
//! resolves a birth place and refuses an impossible birth date, time or zone before storing;
//! this file only parses and prints.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::json;
use vibe_core::input::{FILE_CAP, read_text};
use vibe_wire::command::{ImportProfileRequest, SetProfilePathRequest};

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
            let doc = ctx.app()?.get_profile()?.profile;
            print(ctx, &doc, || pretty(&doc));
        }
        ProfileCommand::Set { path, value } => {
            let value = parse_json_arg("VALUE", &value)?;
            let request = SetProfilePathRequest { path: path.clone(), value };
            let set = ctx.app()?.set_profile_path(&request)?;
            // A birth_info change answers the birth_info as stored (with the resolved place),
            // the place confirmed back with its country, and a zone that is not the place's.
            let birth_info = (path == "birth_info" || path.starts_with("birth_info."))
                .then(|| set.profile.get("birth_info").cloned())
                .flatten();
            let mut out = json!({"status": "success", "path": path});
            if let Some(info) = &birth_info {
                out["birth_info"] = info.clone();
            }
            if let Some(place) = &set.place {
                out["place"] = json!(place);
            }
            if let Some(warning) = &set.zone_warning {
                out["zone_warning"] = json!(warning);
            }
            print(ctx, &out, || {
                let mut lines = vec![format!("set {path}")];
                if let Some(place) = &set.place {
                    lines.push(confirmation(place));
                }
                lines.extend(birth_info.as_ref().and_then(place_line));
                if let Some(w) = &set.zone_warning {
                    lines.push(format!(
                        "warning: {}\n  to use it: vibe profile set birth_info.timezone '\"{}\"'",
                        w.message, w.place_zone
                    ));
                }
                lines.join("\n")
            });
        }
        ProfileCommand::Import { file } => {
            let profile = read_json_file(&file)?;
            let stored = ctx.app()?.import_profile(ImportProfileRequest { profile })?.profile;
            print(ctx, &json!({"status": "success", "profile": stored}), || {
                format!("imported {}", file.display())
            });
        }
        ProfileCommand::Export { file } => {
            let doc = ctx.app()?.get_profile()?.profile;
            write_atomically(&file, &pretty(&doc))?;
            print(ctx, &json!({"status": "success", "file": file}), || {
                format!("exported to {}", file.display())
            });
        }
    }
    Ok(())
}

/// `place: Auckland, New Zealand (奥克兰，新西兰)`: the place found, to check it is the one meant.
fn confirmation(place: &vibe_wire::command::PlaceView) -> String {
    if place.name_zh.is_empty() {
        format!("place: {}", place.label_en)
    } else {
        format!("place: {} ({})", place.label_en, place.label_zh)
    }
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
    let text = read_text(file, "profile file", FILE_CAP)?;
    vibe_core::input::parse_strict(&text).map_err(|e| {
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
