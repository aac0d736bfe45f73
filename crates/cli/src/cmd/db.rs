//! `vibe db info`: where the database is and what it holds.

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

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
}

pub fn run(ctx: &Ctx, args: DbArgs) -> anyhow::Result<()> {
    let DbCommand::Info = args.command;
    let store = ctx.open_store()?;
    let path = ctx.db_path();
    let size: u64 = ["", "-wal", "-shm"]
        .iter()
        .filter_map(|suffix| {
            std::fs::metadata(format!("{}{suffix}", path.display())).ok().map(|m| m.len())
        })
        .sum();
    let counts: Map<String, Value> =
        store.counts()?.into_iter().map(|(table, n)| (table.to_string(), json!(n))).collect();
    let backups: Vec<String> =
        vibe_store::list_backups(&path).iter().map(|p| p.display().to_string()).collect();
    let info = json!({
        "path": path,
        "schema_version": store.schema_version()?,
        "latest_schema_version": vibe_store::latest_version(),
        "size_bytes": size,
        "counts": counts,
        "backups": backups,
    });
    print(ctx, &info, || {
        let mut text = format!(
            "path:           {}\nschema version: {}\nsize:           {} bytes\n",
            path.display(),
            info["schema_version"],
            size
        );
        for (table, n) in &counts {
            text.push_str(&format!("{table:<15} {n}\n"));
        }
        text.push_str(&format!("backups:        {}", backups.len()));
        text
    });
    Ok(())
}
