//! The options every command takes (`--data-dir`, `--json`, `-v`, `--no-encryption`): parsed
//! by clap as part of the command line (`cli.rs`), read by the context every command gets
//! (`ctx.rs`). Only the options; no behaviour.

use std::path::PathBuf;

use clap::Args;

/// Options every command takes.
#[derive(Debug, Args)]
pub struct GlobalArgs {
    /// Data directory (database, settings, runs, user skills). Default: the desktop app's
    /// data directory for this OS user.
    #[arg(long, global = true, env = "VIBE_DATA_DIR", value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// More log output on stderr (-v info, -vv debug). `VIBE_LOG` overrides.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Create a new data directory's database WITHOUT encryption (an explicit choice; `vibe db
    /// info` then warns). By default it is encrypted with a key kept in the OS keychain, or
    /// with the passphrase in VIBE_DB_PASSPHRASE.
    #[arg(long, global = true)]
    pub no_encryption: bool,
}
