//! The journaling streak (issue 31): days in a row with a check-in or an entry the person
//! wrote (the coach's entries do not count), the current run ending on the day shown or the
//! day before, and the longest run ever. Pure: the entries are given.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use vibe_wire::command::{JournalEntryView, JournalSource, StreakView};

/// The days with a check-in or a person-written entry.
pub(crate) fn person_days(entries: &[JournalEntryView]) -> BTreeSet<NaiveDate> {
    entries
        .iter()
        .filter(|e| matches!(e.source, JournalSource::Checkin | JournalSource::Person))
        .filter_map(|e| NaiveDate::parse_from_str(&e.date, "%Y-%m-%d").ok())
        .collect()
}

/// The streak on `day`: the run of days ending `day` (or the day before, when `day` has
/// none yet); days after `day` do not count for it. `longest` is over every day.
pub(crate) fn streak(days: &BTreeSet<NaiveDate>, day: NaiveDate) -> StreakView {
    let today_done = days.contains(&day);
    let mut end = if today_done { Some(day) } else { day.pred_opt() };
    let mut current = 0;
    while let Some(d) = end.filter(|d| days.contains(d)) {
        current += 1;
        end = d.pred_opt();
    }
    let mut longest = 0;
    let mut run = 0;
    let mut previous: Option<NaiveDate> = None;
    for d in days {
        run = if previous.and_then(|p| p.succ_opt()) == Some(*d) { run + 1 } else { 1 };
        longest = longest.max(run);
        previous = Some(*d);
    }
    StreakView { days: current, today_done, longest }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    fn set(days: &[&str]) -> BTreeSet<NaiveDate> {
        days.iter().map(|t| d(t)).collect()
    }

    #[test]
    fn a_run_ending_today_counts_today() {
        let days = set(&["2026-03-08", "2026-03-09", "2026-03-10"]);
        let s = streak(&days, d("2026-03-10"));
        assert_eq!(s, StreakView { days: 3, today_done: true, longest: 3 });
    }

    #[test]
    fn a_run_ending_yesterday_is_not_lost_before_the_day_is_over() {
        let days = set(&["2026-03-08", "2026-03-09"]);
        let s = streak(&days, d("2026-03-10"));
        assert_eq!(s, StreakView { days: 2, today_done: false, longest: 2 });
    }

    #[test]
    fn a_gap_of_a_day_ends_the_run_but_not_the_longest() {
        let days = set(&["2026-02-27", "2026-02-28", "2026-03-01", "2026-03-02", "2026-03-05"]);
        let s = streak(&days, d("2026-03-06"));
        assert_eq!(s, StreakView { days: 1, today_done: false, longest: 4 }, "across a month");
        let s = streak(&days, d("2026-03-07"));
        assert_eq!(s, StreakView { days: 0, today_done: false, longest: 4 });
        assert_eq!(streak(&BTreeSet::new(), d("2026-03-07")), StreakView::default());
    }

    #[test]
    fn the_coachs_entries_do_not_count() {
        let entry = |date: &str, source| JournalEntryView {
            id: format!("{date}T10:00:00Z"),
            date: date.into(),
            mood: None,
            feelings: vec![],
            text: "x".into(),
            tags: vec![],
            source,
            edited_at: None,
        };
        let days = person_days(&[
            entry("2026-03-01", JournalSource::Checkin),
            entry("2026-03-02", JournalSource::Coach),
            entry("2026-03-03", JournalSource::Person),
        ]);
        assert_eq!(days, set(&["2026-03-01", "2026-03-03"]));
    }
}
