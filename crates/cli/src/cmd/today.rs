//! `vibe today`: the Today screen as text — the crisis contacts when the day's words called for
//! them, the day's check-ins and entries, the streak, the
//! day's prompt, the protocol in progress with its due reminders and the conversation to
//! continue. Thin: one `App::today` call, printed (`--json` prints the wire's `TodayView`).

use clap::Args;
use vibe_wire::command::{JournalEntryView, TodayRequest, TodayView};

use crate::ctx::Ctx;
use crate::output::print;
use crate::render::notice_lines;

#[derive(Debug, Args)]
pub struct TodayArgs {
    /// The day to show, YYYY-MM-DD (default: today).
    #[arg(long)]
    date: Option<String>,
    /// The language of the prompt: zh-CN or en (default: the settings' language).
    #[arg(long)]
    lang: Option<String>,
}

pub fn run(ctx: &Ctx, args: TodayArgs) -> anyhow::Result<()> {
    let view = ctx.app()?.today(&TodayRequest { lang: args.lang, date: args.date })?;
    print(ctx, &serde_json::to_value(&view)?, || render(&view));
    Ok(())
}

fn render(view: &TodayView) -> String {
    let mut out = vec![view.date.clone()];
    let s = &view.streak;
    out.push(match (s.days, s.today_done) {
        (0, _) => "streak: none yet — a check-in today starts one".to_string(),
        (n, true) => format!("streak: {n} day(s) in a row, today included · longest {}", s.longest),
        (n, false) => {
            format!(
                "streak: {n} day(s) in a row — check in today to keep it · longest {}",
                s.longest
            )
        }
    });
    if let Some(s) = &view.safety {
        out.extend(notice_lines(s));
    }
    if view.checkins.is_empty() {
        out.push("check-ins: none yet today — `vibe checkin --mood 4`".into());
    } else {
        out.push("check-ins:".into());
        out.extend(view.checkins.iter().map(|e| format!("  {}", entry(e))));
    }
    if !view.journal.is_empty() {
        out.push("journal:".into());
        out.extend(view.journal.iter().map(|e| format!("  {}", entry(e))));
    }
    if let Some(p) = &view.prompt {
        out.push(format!("today's question ({}): {}", p.skill, p.text));
    }
    if let Some(p) = &view.protocol {
        out.push(format!(
            "in progress: {} · step {}/{} {} (run {})",
            p.title, p.run.step, p.run.total_steps, p.step_title, p.run.id
        ));
    }
    for r in &view.reminders {
        out.push(format!(
            "  due {}: {} — answer: vibe protocol reminders --answer {} {} \"…\"",
            r.time, r.question, r.protocol_run_id, r.at
        ));
    }
    if let Some(c) = &view.last_conversation {
        let title = c.title.as_deref().unwrap_or("(untitled)");
        out.push(format!("continue: {title} — vibe chat --conversation {}", c.id));
    }
    out.join("\n")
}

/// `mood 4/5 · 平静, 专注 · first line`
fn entry(e: &JournalEntryView) -> String {
    let mut parts = Vec::new();
    if let Some(m) = e.mood {
        parts.push(format!("mood {m}/5"));
    }
    if !e.feelings.is_empty() {
        parts.push(e.feelings.join(", "));
    }
    if let Some(first) = e.text.lines().find(|l| !l.trim().is_empty()) {
        parts.push(first.trim().to_string());
    }
    if parts.is_empty() {
        parts.push("(empty)".into());
    }
    parts.join(" · ")
}
