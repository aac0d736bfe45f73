//! `vibe state history|undo|clear-history (--skill S | --profile)`: the undo history of a
//! skill's saved state or of the profile (docs/design.md#undo), through the app's
//! `state_history`, `undo_state` and `clear_state_history` commands; `--json` prints their wire
//! DTOs.

use clap::{Args, Subcommand};
use vibe_wire::command::{
    ChangeSource, ClearStateHistoryRequest, HistoryTargetView, StateHistoryRequest,
    StateHistoryView, UndoStateRequest,
};

use crate::ctx::Ctx;
use crate::output::{pretty, print};

#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// List the recorded changes, newest first (id, when, by whom, what changed).
    History {
        #[command(flatten)]
        target: Target,
        /// Show at most this many changes.
        #[arg(long, default_value_t = 50)]
        limit: u32,
    },
    /// Revert the newest change, or with --to ID that change and every later one. The undo
    /// is recorded too, so it can be undone.
    Undo {
        #[command(flatten)]
        target: Target,
        /// Go back to before this change (an id from `vibe state history`).
        #[arg(long, value_name = "ID")]
        to: Option<i64>,
    },
    /// Clear the recorded changes. A change that removed data (a trimmed or wiped list) stays
    /// undoable until it is 90 days old, with the changes after it; the rest go now.
    ClearHistory {
        #[command(flatten)]
        target: Target,
    },
}

/// A skill's state or the profile's own sections.
#[derive(Debug, Args)]
#[group(required = true, multiple = false)]
pub struct Target {
    /// Skill id, e.g. lifecoach.
    #[arg(long)]
    skill: Option<String>,
    /// The profile's own sections (account, birth_info, preferences, ...).
    #[arg(long)]
    profile: bool,
}

impl Target {
    fn view(self) -> HistoryTargetView {
        match self.skill {
            Some(skill) => HistoryTargetView::Skill { skill },
            None => HistoryTargetView::Profile,
        }
    }
}

fn shown(target: &HistoryTargetView) -> String {
    match target {
        HistoryTargetView::Skill { skill } => skill.clone(),
        HistoryTargetView::Profile => "profile".into(),
    }
}

pub fn run(ctx: &Ctx, command: HistoryCommand) -> anyhow::Result<()> {
    let app = ctx.app()?;
    match command {
        HistoryCommand::History { target, limit } => {
            let request = StateHistoryRequest { target: target.view(), limit: Some(limit) };
            let view = app.state_history(&request)?;
            print(ctx, &serde_json::to_value(&view)?, || lines(&view));
        }
        HistoryCommand::ClearHistory { target } => {
            let done =
                app.clear_state_history(&ClearStateHistoryRequest { target: target.view() })?;
            print(ctx, &serde_json::to_value(&done)?, || {
                let shown = shown(&done.target);
                match &done.kept_until {
                    Some(until) => format!(
                        "{shown}: cleared {} change(s); kept {} until {until}: a recent change removed data, and it stays undoable until then",
                        done.removed, done.kept
                    ),
                    None => format!("{shown}: cleared {} change(s)", done.removed),
                }
            });
        }
        HistoryCommand::Undo { target, to } => {
            let done = app.undo_state(&UndoStateRequest { target: target.view(), to })?;
            print(ctx, &serde_json::to_value(&done)?, || {
                format!(
                    "{}: reverted {} change(s), back to before #{} (recorded as #{}; undo again to redo)\n{}",
                    shown(&done.target),
                    done.changes_reverted,
                    done.reverted_to,
                    done.recorded_as,
                    pretty(&done.value)
                )
            });
        }
    }
    Ok(())
}

fn lines(view: &StateHistoryView) -> String {
    if view.changes.is_empty() {
        return format!("{}: no recorded changes", shown(&view.target));
    }
    view.changes
        .iter()
        .map(|c| {
            let by = match (c.by, &c.run_id) {
                (ChangeSource::Model, Some(run)) => format!("model (run {run})"),
                (ChangeSource::Model, None) => "model".into(),
                (ChangeSource::Cli, _) => "cli".into(),
                (ChangeSource::App, _) => "app".into(),
                (ChangeSource::Import, _) => "import".into(),
            };
            let summary = crate::render::terminal_safe(&c.summary);
            format!("#{}  {}  {by}  {summary}", c.id, c.at)
        })
        .collect::<Vec<_>>()
        .join("\n")
}
