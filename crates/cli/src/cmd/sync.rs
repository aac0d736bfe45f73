//! `vibe sync setup|join|now|status|devices|remove-device` (docs/sync.md): the end-to-end encrypted sync of
//! this data folder through a folder the person syncs (Syncthing, Nextcloud, Dropbox…), a
//! WebDAV folder or an S3-compatible bucket (the target flags: `sync_target`). Parses, calls
//! `App`, prints; the recovery code is printed once, by `setup`.

use anyhow::Context as _;
use clap::{Args, Subcommand};
use vibe_core::app::App;
use vibe_wire::command::{
    SyncDeviceView, SyncJoinRequest, SyncPauseRequest, SyncRemoveDeviceRequest, SyncSetupRequest,
    SyncStatusView,
};

use super::sync_target::TargetArgs;
use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct SyncArgs {
    #[command(subcommand)]
    command: SyncCommand,
}

#[derive(Debug, Subcommand)]
enum SyncCommand {
    /// Make a folder, WebDAV folder or S3 bucket the sync target, with a new key; prints the
    /// recovery code (keep it: it joins your other devices and recovers your data).
    Setup {
        #[command(flatten)]
        target: TargetArgs,
    },
    /// Sync this data folder through a target set up on another device.
    Join {
        #[command(flatten)]
        target: TargetArgs,
        /// The recovery code the first device printed.
        #[arg(long)]
        code: String,
    },
    /// Send this device's changes and merge the other devices' (exits non-zero when a file was
    /// refused).
    Now,
    /// Whether sync is set up, the target, changes waiting, the last run, the devices.
    Status,
    /// This device and the others syncing through the target.
    Devices,
    /// Stop syncing with a device (lost, sold) and replace the sync key: prints the new
    /// recovery code; join again with it on every other device.
    RemoveDevice {
        /// The device's id (`vibe sync devices`).
        id: String,
    },
    /// Stop the desktop app's background syncing (`vibe sync now` still syncs when asked).
    Pause,
    /// Let the desktop app sync in the background again.
    Resume,
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Runtime::new().context("cannot start the async runtime")
}

pub fn run(ctx: &Ctx, args: SyncArgs) -> anyhow::Result<()> {
    let app: App = ctx.app()?;
    match args.command {
        SyncCommand::Setup { target } => {
            let (target, secret) = target.resolve()?;
            let request = SyncSetupRequest { target, secret: secret.map(|s| s.to_string()) };
            let done = runtime()?.block_on(app.sync_setup(&request))?;
            let value = serde_json::json!({"code": done.code});
            print(ctx, &value, || {
                format!(
                    "sync is set up with {}.\nYour recovery code (shown once; keep it somewhere safe, \
                     it joins your other devices and recovers your data):\n\n  {}\n\n\
                     On another device: vibe sync join (with the same target) --code CODE",
                    done.status.target.as_deref().unwrap_or(""),
                    done.code
                )
            });
        }
        SyncCommand::Join { target, code } => {
            let (target, secret) = target.resolve()?;
            let request = SyncJoinRequest { target, secret: secret.map(|s| s.to_string()), code };
            let status = runtime()?.block_on(app.sync_join(&request))?;
            print(ctx, &serde_json::to_value(&status)?, || {
                format!("joined; run `vibe sync now` to sync.\n{}", status_text(&status))
            });
        }
        SyncCommand::Now => {
            let done = runtime()?.block_on(app.sync_now())?;
            print(ctx, &serde_json::to_value(&done)?, || {
                let mut text = format!(
                    "sent {} batch(es), received {}: {} entr(ies) added or changed, {} deleted",
                    done.sent, done.received, done.changed, done.deleted
                );
                for s in &done.skipped {
                    text.push_str(&format!("\nnot applied: {s}"));
                }
                if let Some(id) = &done.new_device_id {
                    text.push_str(&format!(
                        "\nanother copy of this data folder (a restored backup?) was syncing as this \
                         device: this one is now device {id}, the other one a device of its own"
                    ));
                }
                text
            });
            if !done.refused.is_empty() {
                anyhow::bail!("refused: {}", done.refused.join("; "));
            }
        }
        SyncCommand::Status => {
            let status = app.sync_status()?;
            print(ctx, &serde_json::to_value(&status)?, || status_text(&status));
        }
        SyncCommand::RemoveDevice { id } => {
            let request = SyncRemoveDeviceRequest { device_id: id.clone() };
            let done = runtime()?.block_on(app.sync_remove_device(&request))?;
            let value = serde_json::json!({"code": done.code});
            print(ctx, &value, || {
                format!(
                    "device {id} is removed and the sync key was replaced.\nThe new recovery code \
                     (shown once; keep it somewhere safe):\n\n  {}\n\n\
                     On each other device: vibe sync join (with the target {}) --code CODE",
                    done.code,
                    done.status.target.as_deref().unwrap_or("-")
                )
            });
        }
        SyncCommand::Pause | SyncCommand::Resume => {
            let paused = matches!(args.command, SyncCommand::Pause);
            let status = app.sync_pause(&SyncPauseRequest { paused })?;
            print(ctx, &serde_json::to_value(&status)?, || status_text(&status));
        }
        SyncCommand::Devices => {
            let list = runtime()?.block_on(app.sync_devices())?;
            print(ctx, &serde_json::to_value(&list)?, || {
                list.devices.iter().map(device_line).collect::<Vec<_>>().join("\n")
            });
        }
    }
    Ok(())
}

fn status_text(s: &SyncStatusView) -> String {
    if !s.enabled {
        return "sync is not set up (vibe sync setup --folder DIR | --webdav URL | --s3 URL, or \
                vibe sync join)"
            .into();
    }
    let mut text = format!(
        "target:          {}\nthis device:     {}\nchanges to send: {}\nlast sync:       {}",
        s.target.as_deref().unwrap_or("-"),
        s.device_id.as_deref().unwrap_or("-"),
        s.pending_changes,
        s.last_sync.as_deref().unwrap_or("never"),
    );
    if s.paused {
        text.push_str("\nbackground sync: paused (vibe sync resume)");
    }
    for d in &s.devices {
        text.push('\n');
        text.push_str(&device_line(d));
    }
    text
}

fn device_line(d: &SyncDeviceView) -> String {
    format!(
        "{} {}{}  batches {}  last {}",
        if d.this_device { "*" } else { " " },
        d.device_id,
        d.name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default(),
        d.batches,
        d.last_seen.as_deref().unwrap_or("-"),
    )
}
