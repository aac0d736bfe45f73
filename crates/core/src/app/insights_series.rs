//! The Insights series (issue 31), computed from data already read: journal entries, the
//! completed protocol runs with their local completion day, and the life coach's `goals` and
//! `progress.milestones` values. Pure and deterministic (the range ends at a given day), so
//! every series is tested with fixed data; reading the store is `insights.rs`'s.

use std::collections::{BTreeMap, HashMap};

use chrono::{Duration, NaiveDate};
use serde_json::Value;
use vibe_wire::command::{
    CompletedProtocol, DayActivity, FeelingCount, GoalProgress, InsightsRange, InsightsView,
    JournalEntryView, JournalSource, MoodDay, MoodPoint, WeekSummary,
};

/// A completed run with the local day it was completed on.
pub(crate) struct Completed {
    pub day: NaiveDate,
    pub view: CompletedProtocol,
}

/// Days a range covers, ending `until` inclusive.
pub(crate) fn range_days(range: InsightsRange) -> i64 {
    match range {
        InsightsRange::Week => 7,
        InsightsRange::Month => 30,
        InsightsRange::Quarter => 90,
        InsightsRange::Year => 365,
    }
}

/// `YYYY-MM-DD` (chrono's `Display` of a date; no format string to interpret per call).
fn ymd(day: NaiveDate) -> String {
    day.to_string()
}

/// Every series of `InsightsView` for `range` ending `until`. `entries` in any order;
/// `protocols` every completed run (those outside the range are left out here).
pub(crate) fn compute(
    entries: &[JournalEntryView],
    range: InsightsRange,
    until: NaiveDate,
    protocols: &[Completed],
    goals: Vec<GoalProgress>,
) -> InsightsView {
    let since = until - Duration::days(range_days(range) - 1);
    let mut dated: Vec<(NaiveDate, &JournalEntryView)> =
        entries.iter().filter_map(|e| Some((e.date.parse::<NaiveDate>().ok()?, e))).collect();
    dated.sort_by(|(a, x), (b, y)| (a, &x.id).cmp(&(b, &y.id)));
    let in_range: Vec<(NaiveDate, &JournalEntryView)> =
        dated.iter().copied().filter(|(d, _)| (since..=until).contains(d)).collect();

    let mood_points: Vec<MoodPoint> = in_range
        .iter()
        .filter_map(|(d, e)| {
            Some(MoodPoint { date: ymd(*d), entry_id: e.id.clone(), mood: e.mood? })
        })
        .collect();
    let mut by_day: BTreeMap<NaiveDate, (u32, u32)> = BTreeMap::new();
    for (d, e) in &in_range {
        if let Some(m) = e.mood {
            let slot = by_day.entry(*d).or_default();
            slot.0 += u32::from(m);
            slot.1 += 1;
        }
    }
    let mood_days = by_day
        .iter()
        .map(|(d, (sum, n))| MoodDay {
            date: ymd(*d),
            mean: f64::from(*sum) / f64::from(*n),
            count: *n,
        })
        .collect();

    let mut activity: HashMap<NaiveDate, (u32, u32)> = HashMap::new();
    for (d, e) in &in_range {
        let slot = activity.entry(*d).or_default();
        if e.source == JournalSource::Checkin {
            slot.0 += 1;
        } else {
            slot.1 += 1;
        }
    }
    let days = since
        .iter_days()
        .take_while(|d| *d <= until)
        .map(|d| {
            let (checkins, journal) = activity.get(&d).copied().unwrap_or_default();
            DayActivity { date: ymd(d), checkins, journal }
        })
        .collect();

    let mut counts: HashMap<&str, u32> = HashMap::new();
    for (_, e) in &in_range {
        for f in &e.feelings {
            *counts.entry(f.as_str()).or_default() += 1;
        }
    }
    let mut feelings: Vec<FeelingCount> = counts
        .into_iter()
        .map(|(feeling, count)| FeelingCount { feeling: feeling.to_string(), count })
        .collect();
    feelings.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.feeling.cmp(&b.feeling)));

    let mut done: Vec<&Completed> =
        protocols.iter().filter(|c| (since..=until).contains(&c.day)).collect();
    done.sort_by(|a, b| a.view.completed_at.cmp(&b.view.completed_at));

    InsightsView {
        since: ymd(since),
        until: ymd(until),
        mood_points,
        mood_days,
        days,
        feelings,
        protocols: done.iter().map(|c| c.view.clone()).collect(),
        goals,
        week: week(&dated, until, &done),
    }
}

/// The seven days ending `until` in numbers, and the seven before's mean mood.
fn week(
    dated: &[(NaiveDate, &JournalEntryView)],
    until: NaiveDate,
    done: &[&Completed],
) -> WeekSummary {
    let since = until - Duration::days(6);
    let before = (since - Duration::days(7))..=(since - Duration::days(1));
    let this: Vec<&JournalEntryView> =
        dated.iter().filter(|(d, _)| (since..=until).contains(d)).map(|(_, e)| *e).collect();
    let moods: Vec<u8> = this.iter().filter_map(|e| e.mood).collect();
    let previous: Vec<u8> =
        dated.iter().filter(|(d, _)| before.contains(d)).filter_map(|(_, e)| e.mood).collect();
    let mut tally = [0u32; 6];
    for m in &moods {
        tally[usize::from(*m).min(5)] += 1;
    }
    // The most given; on a tie the higher (scanning up, `>=` keeps the later).
    let mood_mode = (1..=5u8).filter(|m| tally[usize::from(*m)] > 0).fold(
        None,
        |best: Option<u8>, m| match best {
            Some(b) if tally[usize::from(b)] > tally[usize::from(m)] => Some(b),
            _ => Some(m),
        },
    );
    let active: std::collections::BTreeSet<NaiveDate> =
        dated.iter().filter(|(d, _)| (since..=until).contains(d)).map(|(d, _)| *d).collect();
    WeekSummary {
        since: ymd(since),
        until: ymd(until),
        checkins: count(this.iter().filter(|e| e.source == JournalSource::Checkin).count()),
        journal_entries: count(this.iter().filter(|e| e.source != JournalSource::Checkin).count()),
        active_days: count(active.len()),
        mood_mode,
        mood_mean: mean(&moods),
        previous_mood_mean: mean(&previous),
        protocols_completed: done
            .iter()
            .filter(|c| (since..=until).contains(&c.day))
            .map(|c| c.view.title.clone())
            .collect(),
    }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn mean(moods: &[u8]) -> Option<f64> {
    (!moods.is_empty())
        .then(|| moods.iter().map(|m| f64::from(*m)).sum::<f64>() / moods.len() as f64)
}

/// The goals (`skills.lifecoach.goals`: id → `{title, status, deadline, …}`), active first
/// then paused, done, dropped and any other status, each group in the stored order, with
/// the milestones (`progress.milestones` entries whose `goal` is the id) counted.
pub(crate) fn goals(goals: Option<&Value>, milestones: Option<&Value>) -> Vec<GoalProgress> {
    let Some(Value::Object(goals)) = goals else { return Vec::new() };
    let milestones: &[Value] = match milestones {
        Some(Value::Array(items)) => items,
        _ => &[],
    };
    let mut out: Vec<GoalProgress> = goals
        .iter()
        .filter_map(|(id, goal)| {
            let goal = goal.as_object()?;
            let text = |k: &str| {
                goal.get(k).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
            };
            let mine =
                milestones.iter().filter(|m| m.get("goal").and_then(Value::as_str) == Some(id));
            let dates: Vec<String> = mine.clone().filter_map(milestone_day).map(ymd).collect();
            Some(GoalProgress {
                id: id.clone(),
                title: text("title").unwrap_or(id).to_string(),
                status: text("status").unwrap_or("active").to_string(),
                deadline: text("deadline")
                    .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
                    .map(ymd),
                milestones: count(mine.count()),
                last_milestone: dates.into_iter().max(),
            })
        })
        .collect();
    let rank = |status: &str| match status {
        "active" => 0,
        "paused" => 1,
        "done" => 2,
        "dropped" => 3,
        _ => 4,
    };
    out.sort_by_key(|g| rank(&g.status));
    out
}

/// A milestone's day: its `date`, else the day of its creation stamp.
fn milestone_day(m: &Value) -> Option<NaiveDate> {
    let date = m.get("date").and_then(Value::as_str);
    date.and_then(|d| NaiveDate::parse_from_str(d.trim(), "%Y-%m-%d").ok()).or_else(|| {
        let stamp = m.get("_created_at")?.as_str()?;
        let t = chrono::DateTime::parse_from_rfc3339(stamp).ok()?;
        Some(t.with_timezone(&chrono::Local).date_naive())
    })
}

#[cfg(test)]
#[path = "insights_tests.rs"]
mod tests;
