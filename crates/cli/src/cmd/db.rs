//! `vibe db info`: where the database is and what it holds; `vibe db check`: SQLite's full
//! integrity check, and how to restore the last backup when it fails.

use clap::{Args, Subcommand};
use serde_json::json;
use vibe_core::app::{App, AppPaths, Encryption, OsKeychain, Overrides};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct DbArgs {
    #[command(subcommand)]
    command: DbCommand,
}

#[derive(Debug, Subcommand)]
enum DbCommand {
    /// Path, schema version, size, row counts and backups.
    Info,
    /// Full integrity check of the database; exits non-zero when it is damaged.
    Check,
}

pub fn run(ctx: &Ctx, args: DbArgs) -> anyhow::Result<()> {
    if let DbCommand::Check = args.command {
        return check(ctx);
    }
    let info = ctx.app()?.database_info()?;
    print(ctx, &serde_json::to_value(&info)?, || {
        let mut text = format!(
            "path:           {}\nencryption:     {}\nschema version: {}\nsize:           {} bytes\n",
            info.path,
            encryption_line(info.encryption),
            info.schema_version,
            info.size_bytes
        );
        for (table, n) in &info.counts {
            text.push_str(&format!("{table:<15} {n}\n"));
        }
        text.push_str(&format!("backups:        {}", info.backups.len()));
        text
    });
    Ok(())
}

/// The encryption mode, with the warning `none` deserves.
fn encryption_line(mode: Encryption) -> String {
    match mode {
        Encryption::Keychain => "on (key in the OS keychain)".into(),
        Encryption::Passphrase => "on (passphrase)".into(),
        Encryption::None => "OFF - warning: the database is stored in clear text; anyone who \
                             can read this folder can read it"
            .into(),
    }
}

/// The full integrity check (`App::check_database` opens the database alone, with its key,
/// not the app).
fn check(ctx: &Ctx) -> anyhow::Result<()> {
    let paths = AppPaths::new(&ctx.data_dir);
    let checked = ctx
        .with_passphrase(Overrides::from_env(), |o| App::check_database(&paths, &o, &OsKeychain))?;
    if checked.ok {
        let value = json!({"status": "ok", "path": checked.path});
        print(ctx, &value, || format!("{}: ok", checked.path));
        return Ok(());
    }
    anyhow::bail!(
        "database {} is damaged ({}). Stop using it: {}",
        checked.path,
        checked.problems.join("; "),
        checked.advice.unwrap_or_default()
    )
}
