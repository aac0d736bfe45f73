//! `vibe bench insights`: what the Insights and Today screens cost on a year of use — a data
//! dir holding one check-in a day (mood, feelings, a line), a journal entry every third day,
//! goals with milestones and a completed protocol run, then `insights` over the year and
//! `today`, each timed through `App` (the store read, the entries' views, every series).
//! Figures go in docs/performance.md; tests never assert timings.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use chrono::Duration;
use serde::Serialize;
use serde_json::json;
use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    CheckinRequest, InsightsRange, InsightsRequest, JournalAddRequest, TodayRequest,
};

use crate::app::{App, AppError, AppPaths, EphemeralKeys, Injections, Overrides};

/// Calls made before measuring (skill parts, prepared statements).
const WARM_UP: usize = 3;

const FEELINGS: [&str; 8] = ["平静", "专注", "开心", "疲惫", "焦虑", "感激", "烦躁", "期待"];

/// One measurement (`vibe bench insights --json` prints it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InsightsBench {
    pub encrypted: bool,
    /// Days of check-ins in the data dir, ending today.
    pub days: u64,
    /// Journal entries in all (check-ins and entries).
    pub entries: u64,
    pub runs: u64,
    /// `insights` with the year's range.
    pub insights_median_ms: f64,
    pub insights_p95_ms: f64,
    /// `today`.
    pub today_median_ms: f64,
    pub today_p95_ms: f64,
}

/// Measure `runs` calls of each after seeding `days` days of use in a fresh data dir under
/// `work` (encrypted with a random in-memory key unless `clear`). `days` and `runs` must be
/// at least 1.
pub fn bench_insights(
    work: &Path,
    days: usize,
    runs: usize,
    clear: bool,
) -> Result<InsightsBench, AppError> {
    if days == 0 || runs == 0 {
        return Err(AppError::InvalidInput(
            "the insights benchmark needs at least 1 day of data and 1 measured run".into(),
        ));
    }
    let overrides = Overrides { long_lived: true, no_encryption: clear, ..Overrides::default() };
    let app = App::open_with_injections(
        AppPaths::new(work),
        overrides,
        Arc::new(EphemeralKeys::default()),
        Injections::default(),
    )?;
    let entries = seed(&app, days)?;
    let year = InsightsRequest { range: InsightsRange::Year, until: None, lang: None };
    let today = TodayRequest::default();
    for _ in 0..WARM_UP {
        app.insights(&year)?;
        app.today(&today)?;
    }
    let (insights_median_ms, insights_p95_ms) = time(runs, || app.insights(&year).map(|_| ()))?;
    let (today_median_ms, today_p95_ms) = time(runs, || app.today(&today).map(|_| ()))?;
    Ok(InsightsBench {
        encrypted: !clear,
        days: days as u64,
        entries: entries as u64,
        runs: runs as u64,
        insights_median_ms,
        insights_p95_ms,
        today_median_ms,
        today_p95_ms,
    })
}

/// A check-in a day for `days` days ending today, an entry every third day, three goals with
/// a milestone a week; the number of journal entries written.
fn seed(app: &App, days: usize) -> Result<usize, AppError> {
    let today = app.local_today();
    let mut written = 0;
    for n in 0..days {
        let day = today - Duration::days((days - 1 - n) as i64);
        let date = Some(day.format("%Y-%m-%d").to_string());
        app.checkin(&CheckinRequest {
            mood: (n % 5) as u8 + 1,
            feelings: vec![FEELINGS[n % 8].into(), FEELINGS[(n * 3 + 1) % 8].into()],
            note: Some(format!("第 {n} 天：早起跑步，读了半小时书")),
            date: date.clone(),
        })?;
        written += 1;
        if n % 3 == 0 {
            app.journal_add(&JournalAddRequest {
                date,
                mood: Some(((n + 2) % 5) as u8 + 1),
                feelings: vec![],
                text: format!("## 第 {n} 天\n今天和朋友聊了很久，想清楚了下个月要做的事。"),
                tags: vec!["反思".into()],
            })?;
            written += 1;
        }
        if n % 7 == 0 {
            let goal = ["portfolio", "run_5k", "read"][n % 3];
            app.store().append_to_list(
                LOCAL_USER,
                "lifecoach",
                "progress.milestones",
                json!({"date": day.format("%Y-%m-%d").to_string(), "goal": goal, "note": "前进了一步"}),
                usize::MAX,
            )?;
        }
    }
    app.store().write_state(
        LOCAL_USER,
        "lifecoach",
        "goals",
        json!({
            "portfolio": {"title": "完成作品集", "status": "active", "deadline": "2027-03-31"},
            "run_5k": {"title": "跑完 5 公里", "status": "paused"},
            "read": {"title": "每月读两本书", "status": "done"}
        }),
    )?;
    Ok(written)
}

/// Median and p95 of `runs` calls of `call`, in milliseconds.
fn time(
    runs: usize,
    mut call: impl FnMut() -> Result<(), AppError>,
) -> Result<(f64, f64), AppError> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        call()?;
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    let pick = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    Ok((pick(0.5), pick(0.95)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_days_or_runs_are_refused_with_a_message() {
        let dir = tempfile::tempdir().unwrap();
        let err = bench_insights(dir.path(), 0, 5, true).unwrap_err();
        assert!(err.to_string().contains("at least 1 day"), "{err}");
    }

    #[test]
    fn a_small_bench_seeds_what_it_says_and_measures() {
        let dir = tempfile::tempdir().unwrap();
        let result = bench_insights(dir.path(), 10, 2, true).unwrap();
        assert_eq!((result.days, result.entries, result.runs), (10, 14, 2));
        assert!(result.insights_median_ms <= result.insights_p95_ms);
    }
}
