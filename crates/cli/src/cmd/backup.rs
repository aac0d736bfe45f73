//! `vibe backup create|verify|restore`, `vibe export all` and `vibe erase`: the data folder's
//! backups, a readable export of everything, and erasing it (docs/privacy.md). Verify, restore
//! and erase work on the data folder without opening the app (`App::verify_backup`, ...).

use std::path::PathBuf;

use clap::{Args, Subcommand};
use vibe_core::app::{App, AppPaths, OsKeychain, Overrides};
use vibe_wire::command::{
    BackupFileRequest, BackupManifest, CreateBackupRequest, EraseRequest, ExportAllRequest,
};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct BackupArgs {
    #[command(subcommand)]
    command: BackupCommand,
}

#[derive(Debug, Subcommand)]
enum BackupCommand {
    /// Write a verified, encrypted backup (database and run folders) to one new file.
    Create {
        /// The new file (default: backups/vibelife-<time>.tar in the data folder).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Check a backup file completely without restoring it (non-zero exit when it fails).
    Verify { file: PathBuf },
    /// Replace the data with a backup's (the current data is backed up first).
    Restore { file: PathBuf },
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    command: ExportCommand,
}

#[derive(Debug, Subcommand)]
enum ExportCommand {
    /// Everything, as JSON and Markdown files readable without VibeLife.
    All {
        /// A new or empty folder.
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

#[derive(Debug, Args)]
pub struct EraseArgs {
    /// Really erase (without it, only say what would be removed).
    #[arg(long)]
    yes: bool,
}

pub fn run(ctx: &Ctx, args: BackupArgs) -> anyhow::Result<()> {
    let paths = AppPaths::new(&ctx.data_dir);
    match args.command {
        BackupCommand::Create { out } => {
            let request = CreateBackupRequest { out: out.map(|p| p.display().to_string()) };
            let created = ctx.app()?.create_backup(&request)?;
            print(ctx, &serde_json::to_value(&created)?, || {
                format!("wrote {}\n{}", created.file, summary(&created.manifest))
            });
        }
        BackupCommand::Verify { file } => {
            let request = BackupFileRequest { file: file.display().to_string() };
            let checked = ctx.with_passphrase(Overrides::from_env(), |o| {
                App::verify_backup(&paths, &o, &OsKeychain, &request)
            })?;
            print(ctx, &serde_json::to_value(&checked)?, || {
                let newer = if checked.restorable {
                    ""
                } else {
                    "\nnote: it is of a newer schema than this VibeLife can restore"
                };
                format!("{}: ok\n{}{newer}", checked.file, summary(&checked.manifest))
            });
            warn(&checked.notices);
        }
        BackupCommand::Restore { file } => {
            let request = BackupFileRequest { file: file.display().to_string() };
            let restored = ctx.with_passphrase(Overrides::from_env(), |o| {
                App::restore_backup(&paths, &o, &OsKeychain, &request)
            })?;
            print(ctx, &serde_json::to_value(&restored)?, || {
                let previous = match &restored.previous {
                    Some(p) => format!("\nthe data as it was is kept in {p}"),
                    None => String::new(),
                };
                format!("restored {}\n{}{previous}", restored.file, summary(&restored.manifest))
            });
        }
    }
    Ok(())
}

pub fn export(ctx: &Ctx, args: ExportArgs) -> anyhow::Result<()> {
    let ExportCommand::All { out } = args.command;
    let done = ctx.app()?.export_all(&ExportAllRequest { out: out.display().to_string() })?;
    print(ctx, &serde_json::to_value(&done)?, || {
        format!("exported {} files into {}", done.files.len(), done.dir)
    });
    warn(&done.notices);
    Ok(())
}

/// Run logs found damaged or unclosed, one `warning:` line each on stderr (also with --json,
/// where the answer's `notices` holds them too).
fn warn(notices: &[String]) {
    for notice in notices {
        crate::output::err_line(&format!("warning: {notice}"));
    }
}

pub fn erase(ctx: &Ctx, args: EraseArgs) -> anyhow::Result<()> {
    let paths = AppPaths::new(&ctx.data_dir);
    let report = App::erase_data(&paths, &OsKeychain, EraseRequest { confirm: args.yes })?;
    if !args.yes {
        let mut text = format!(
            "nothing was erased. `vibe erase --yes` would remove, for good, in {}:",
            report.data_dir
        );
        for f in report.files.iter().chain(&report.keychain_entries) {
            text.push_str(&format!("\n  {f}"));
        }
        for n in &report.notes {
            text.push_str(&format!("\nnote: {n}"));
        }
        anyhow::bail!(text);
    }
    print(ctx, &serde_json::to_value(&report)?, || {
        let mut text = format!("erased {}:", report.data_dir);
        for f in &report.files {
            text.push_str(&format!("\n  removed {f}"));
        }
        for k in &report.keychain_entries {
            text.push_str(&format!("\n  removed keychain entry {k}"));
        }
        for n in &report.notes {
            text.push_str(&format!("\nnote: {n}"));
        }
        text
    });
    Ok(())
}

fn summary(m: &BackupManifest) -> String {
    let rows: Vec<String> = m.counts.iter().map(|(t, n)| format!("{t} {n}")).collect();
    format!(
        "made {} by VibeLife {}, schema v{}, encryption {}, {} files\nrows: {}",
        m.created_at,
        m.app_version,
        m.schema_version,
        m.encryption.as_str(),
        m.files.len(),
        rows.join(", ")
    )
}
