//! `vibe insights`: the Insights series as text — the week's summary, mood by day as a bar,
//! feelings by frequency, active days, protocols completed and goals. Thin: one
//! `App::insights` call, printed (`--json` prints the wire's `InsightsView`). `--words`: the
//! week in the coach's words instead (`App::insights_week_words`; `--json` prints `WeekWords`).

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use vibe_wire::command::{
    InsightsRange, InsightsRequest, InsightsView, WeekSummary, WeekWords, WeekWordsRequest,
};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct InsightsArgs {
    /// How far back to look, ending --until.
    #[arg(long, value_enum, default_value_t = Range::Month)]
    range: Range,
    /// The last day, YYYY-MM-DD (default: today).
    #[arg(long)]
    until: Option<String>,
    /// The language of protocol titles: zh-CN or en (default: the settings' language).
    #[arg(long)]
    lang: Option<String>,
    /// The seven days ending --until said by the configured model, from the week's figures
    /// only (no entry is sent); --range does not apply.
    #[arg(long)]
    words: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Range {
    /// 7 days.
    Week,
    /// 30 days.
    Month,
    /// 90 days.
    Quarter,
    /// 365 days.
    Year,
}

pub fn run(ctx: &Ctx, args: InsightsArgs) -> anyhow::Result<()> {
    if args.words {
        let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
        let app = ctx.app()?;
        let request = WeekWordsRequest { until: args.until, lang: args.lang };
        let words = runtime.block_on(app.insights_week_words(&request))?;
        print(ctx, &serde_json::to_value(&words)?, || render_words(&words));
        return Ok(());
    }
    let range = match args.range {
        Range::Week => InsightsRange::Week,
        Range::Month => InsightsRange::Month,
        Range::Quarter => InsightsRange::Quarter,
        Range::Year => InsightsRange::Year,
    };
    let request = InsightsRequest { range, until: args.until, lang: args.lang };
    let view = ctx.app()?.insights(&request)?;
    print(ctx, &serde_json::to_value(&view)?, || render(&view));
    Ok(())
}

fn render(v: &InsightsView) -> String {
    let mut out = vec![format!("{} – {}", v.since, v.until), week(&v.week)];
    if v.mood_days.is_empty() {
        out.push("mood: no moods in this range yet — `vibe checkin --mood 4`".into());
    } else {
        out.push("mood by day (mean of the day's moods, 1–5):".into());
        out.extend(v.mood_days.iter().map(|d| {
            let bar = "█".repeat(d.mean.round().clamp(0.0, 5.0) as usize);
            format!("  {}  {:.1} {bar:<5}  ({} entr{})", d.date, d.mean, d.count, plural(d.count))
        }));
    }
    if !v.feelings.is_empty() {
        let f: Vec<String> =
            v.feelings.iter().map(|f| format!("{} ×{}", f.feeling, f.count)).collect();
        out.push(format!("feelings: {}", f.join(", ")));
    }
    let active = v.days.iter().filter(|d| d.checkins + d.journal > 0).count();
    let checkins: u32 = v.days.iter().map(|d| d.checkins).sum();
    let journal: u32 = v.days.iter().map(|d| d.journal).sum();
    out.push(format!(
        "active days: {active} of {} ({checkins} check-ins, {journal} other entries)",
        v.days.len()
    ));
    if !v.protocols.is_empty() {
        out.push("protocols completed:".into());
        out.extend(v.protocols.iter().map(|p| {
            let day = p.completed_at.get(..10).unwrap_or(&p.completed_at);
            format!("  {day} {} ({} steps)", p.title, p.steps)
        }));
    }
    if !v.goals.is_empty() {
        out.push("goals:".into());
        out.extend(v.goals.iter().map(|g| {
            let mut line = format!("  {} · {}", g.title, g.status);
            if let Some(d) = &g.deadline {
                line.push_str(&format!(" · due {d}"));
            }
            line.push_str(&format!(
                " · {} milestone{}",
                g.milestones,
                if g.milestones == 1 { "" } else { "s" }
            ));
            if let Some(last) = &g.last_milestone {
                line.push_str(&format!(", last {last}"));
            }
            line
        }));
    }
    out.join("\n")
}

fn render_words(w: &WeekWords) -> String {
    format!("{}\n\n{}", week(&w.week), w.text)
}

/// `this week: 5 check-ins, 1 journal entry, 5 active days, mood mostly 4 (mean 3.8, the week before 3.2); completed: 每周回顾`
fn week(w: &WeekSummary) -> String {
    let mut line = format!(
        "this week ({} – {}): {} check-in{}, {} journal entr{}, {} active day{}",
        w.since,
        w.until,
        w.checkins,
        if w.checkins == 1 { "" } else { "s" },
        w.journal_entries,
        plural(w.journal_entries),
        w.active_days,
        if w.active_days == 1 { "" } else { "s" },
    );
    if let (Some(mode), Some(mean)) = (w.mood_mode, w.mood_mean) {
        line.push_str(&format!(", mood mostly {mode} (mean {mean:.1}"));
        if let Some(before) = w.previous_mood_mean {
            line.push_str(&format!(", the week before {before:.1}"));
        }
        line.push(')');
    }
    if !w.protocols_completed.is_empty() {
        line.push_str(&format!("; completed: {}", w.protocols_completed.join(", ")));
    }
    line
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "y" } else { "ies" }
}
