//! `vibe models list|pull|rm|use|add`: the local models (docs/models.md) through the app's
//! model commands. `pull` draws a progress bar on a terminal's stderr and cancels on Ctrl-C
//! (the partial file is kept: pulling again resumes). With `--json`, each prints its wire
//! DTO as one JSON object.

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use anyhow::Context as _;
use clap::{Args, Subcommand};
use vibe_core::app::{App, Overrides};
use vibe_core::emit::EventSink;
use vibe_wire::command::{AddModelRequest, LocalModelRequest, LocalModels};
use vibe_wire::{Envelope, Event};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct ModelsArgs {
    #[command(subcommand)]
    command: ModelsCommand,
}

#[derive(Debug, Subcommand)]
enum ModelsCommand {
    /// The catalogue (VIBE_MODELS_CATALOG or settings models.catalog override it), the
    /// installed models and the free disk space.
    List,
    /// Download a catalogue model (resumes an interrupted download; verified before use).
    Pull(IdArg),
    /// Remove an installed model (and any partial download of it).
    Rm(IdArg),
    /// Use an installed model: settings llm.preset = "local", llm.model = ID.
    Use(IdArg),
    /// Copy a GGUF model file you already have into the models folder.
    Add(AddArgs),
}

#[derive(Debug, Args)]
struct IdArg {
    /// The model id (see `vibe models list`).
    id: String,
}

#[derive(Debug, Args)]
struct AddArgs {
    /// The .gguf file.
    path: PathBuf,
    /// The id to give it (default: made from the file name).
    #[arg(long, value_name = "ID")]
    id: Option<String>,
}

pub fn run(ctx: &Ctx, args: ModelsArgs) -> anyhow::Result<()> {
    let app = ctx.open_app(Overrides::from_env())?;
    match args.command {
        ModelsCommand::List => list(ctx, &app),
        ModelsCommand::Pull(arg) => pull(ctx, Arc::new(app), arg.id),
        ModelsCommand::Rm(arg) => {
            let removed = app.remove_model(&LocalModelRequest { id: arg.id })?;
            print(ctx, &serde_json::to_value(&removed)?, || {
                let what = if removed.was_installed {
                    "removed"
                } else {
                    "removed the partial download of"
                };
                let mut text =
                    format!("{what} {} ({} freed)", removed.id, bytes(removed.freed_bytes));
                if removed.was_in_use {
                    text.push_str("\nnotice: the settings still select it; choose another with `vibe models use ID`");
                }
                text
            });
            Ok(())
        }
        ModelsCommand::Use(arg) => {
            let used = app.use_model(&LocalModelRequest { id: arg.id })?;
            print(ctx, &serde_json::to_value(&used)?, || {
                format!(
                    "using {} ({}); written to {}",
                    used.model.id, used.model.path, used.settings_file
                )
            });
            Ok(())
        }
        ModelsCommand::Add(args) => {
            let path = std::path::absolute(&args.path)
                .with_context(|| format!("cannot resolve {}", args.path.display()))?;
            let request = AddModelRequest { path: path.display().to_string(), id: args.id };
            let added = app.add_model(&request)?;
            print(ctx, &serde_json::to_value(&added)?, || {
                format!(
                    "added {} ({}, sha256 {}); use it with `vibe models use {}`",
                    added.id,
                    bytes(added.size_bytes),
                    added.sha256.as_deref().unwrap_or("?"),
                    added.id
                )
            });
            Ok(())
        }
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Runtime::new().context("cannot start the async runtime")
}

fn list(ctx: &Ctx, app: &App) -> anyhow::Result<()> {
    let models = runtime()?.block_on(app.list_local_models())?;
    print(ctx, &serde_json::to_value(&models)?, || list_text(&models));
    Ok(())
}

fn list_text(models: &LocalModels) -> String {
    let mut lines = vec![format!("catalogue ({}):", models.catalog_source)];
    if let Some(error) = &models.catalog_error {
        lines.push(format!("  cannot be read: {}", error.message));
    }
    for m in &models.catalog {
        let state = if models.in_use.as_deref() == Some(m.id.as_str()) {
            "in use".to_string()
        } else if m.installed {
            "installed".to_string()
        } else if let Some(part) = m.partial_bytes {
            format!("{} downloaded, `vibe models pull` resumes", bytes(part))
        } else {
            String::new()
        };
        let state = if state.is_empty() { String::new() } else { format!("  [{state}]") };
        lines.push(format!(
            "  {}  {}, {} download, needs {} RAM, {} tokens, {}{state}",
            m.id,
            m.name,
            bytes(m.size_bytes),
            bytes(m.ram_bytes),
            m.context_length,
            m.license
        ));
    }
    let free = models.free_bytes.map(|b| format!(", {} free", bytes(b))).unwrap_or_default();
    lines.push(format!("installed in {}{free}:", models.models_dir));
    if models.installed.is_empty() {
        lines.push("  none yet: `vibe models pull ID` or `vibe models add FILE.gguf`".into());
    }
    for m in &models.installed {
        let in_use = if m.in_use { "  [in use]" } else { "" };
        lines.push(format!("  {}  {}{in_use}", m.id, bytes(m.size_bytes)));
    }
    lines.join("\n")
}

/// Draws `model_download_progress` as one redrawn stderr line on a terminal.
struct ProgressBar {
    last: Mutex<Option<u64>>,
}

impl EventSink for ProgressBar {
    fn send(&self, envelope: &Envelope) {
        let Event::ModelDownloadProgress { id, received, total } = &envelope.event else { return };
        let percent = if *total == 0 { 100 } else { received.saturating_mul(100) / total };
        let mut last = self.last.lock().unwrap_or_else(|p| p.into_inner());
        if *last == Some(percent) {
            return;
        }
        *last = Some(percent);
        let width = 30usize;
        let filled = (percent as usize * width / 100).min(width);
        let bar = format!("{}{}", "#".repeat(filled), "-".repeat(width - filled));
        let mut err = std::io::stderr().lock();
        let _ =
            write!(err, "\r{id} [{bar}] {percent:>3}% {} / {}", bytes(*received), bytes(*total));
        let _ = err.flush();
    }
}

/// Quiet: without a terminal, progress is not drawn (scripts read the answer).
struct Quiet;

impl EventSink for Quiet {
    fn send(&self, _: &Envelope) {}
}

fn pull(ctx: &Ctx, app: Arc<App>, id: String) -> anyhow::Result<()> {
    let drawing = !ctx.json && std::io::stderr().is_terminal();
    let sink: Arc<dyn EventSink> =
        if drawing { Arc::new(ProgressBar { last: Mutex::new(None) }) } else { Arc::new(Quiet) };
    let request = LocalModelRequest { id };
    let pulled = runtime()?.block_on(async {
        let canceller = app.clone();
        let cancel_id = request.clone();
        let ctrl_c = tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                canceller.cancel_model_download(&cancel_id);
            }
        });
        let pulled = app.pull_model(&request, sink).await;
        ctrl_c.abort();
        pulled
    });
    if drawing {
        eprintln!();
    }
    let pulled = pulled?;
    print(ctx, &serde_json::to_value(&pulled)?, || {
        let m = &pulled.model;
        let how = if pulled.already_installed {
            "already installed".to_string()
        } else if pulled.restarted {
            "downloaded again from the start (the server cannot resume)".to_string()
        } else if pulled.resumed_from > 0 {
            format!("resumed from {}", bytes(pulled.resumed_from))
        } else {
            "downloaded".to_string()
        };
        format!(
            "{}: {how}, verified (sha256 {}), {}\nuse it with `vibe models use {}`",
            m.id,
            m.sha256.as_deref().unwrap_or("?"),
            m.path,
            m.id
        )
    });
    Ok(())
}

/// Bytes for people (1 KiB = 1024 bytes).
fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{n} B") } else { format!("{value:.1} {}", UNITS[unit]) }
}
