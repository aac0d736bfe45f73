//! Every Insights series over fixed data ending on a fixed day.

use serde_json::json;

use super::*;

fn d(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

fn entry(
    date: &str,
    hour: u32,
    source: JournalSource,
    mood: Option<u8>,
    feelings: &[&str],
) -> JournalEntryView {
    JournalEntryView {
        id: format!("{date}T{hour:02}:00:00.000000Z"),
        date: date.into(),
        mood,
        feelings: feelings.iter().map(|f| f.to_string()).collect(),
        text: "x".into(),
        tags: vec![],
        source,
        edited_at: None,
    }
}

fn checkin(date: &str, hour: u32, mood: u8, feelings: &[&str]) -> JournalEntryView {
    entry(date, hour, JournalSource::Checkin, Some(mood), feelings)
}

fn completed(day: &str, id: &str, title: &str) -> Completed {
    Completed {
        day: d(day),
        view: CompletedProtocol {
            run_id: id.into(),
            skill: "lifecoach".into(),
            protocol_id: "weekly_review".into(),
            title: title.into(),
            completed_at: format!("{day}T20:00:00Z"),
            steps: 4,
        },
    }
}

/// Two weeks and a bit ending 2026-03-14 (a Saturday), newest first as the journal gives them.
fn fixture() -> Vec<JournalEntryView> {
    vec![
        checkin("2026-03-14", 21, 4, &["平静"]),
        checkin("2026-03-14", 8, 2, &["疲惫", "焦虑"]),
        entry("2026-03-13", 22, JournalSource::Person, None, &["焦虑"]),
        entry("2026-03-12", 9, JournalSource::Coach, Some(4), &[]),
        checkin("2026-03-10", 9, 4, &["平静", "专注"]),
        checkin("2026-03-08", 9, 5, &["开心"]),
        // The week before (03-01 … 03-07).
        checkin("2026-03-07", 9, 2, &[]),
        checkin("2026-03-03", 9, 3, &[]),
        // Outside a week's range and the previous week.
        checkin("2026-02-20", 9, 1, &["焦虑"]),
        entry("not a date", 9, JournalSource::Checkin, Some(5), &[]),
    ]
}

#[test]
fn a_week_has_seven_days_mood_points_oldest_first_and_daily_means() {
    let v = compute(&fixture(), InsightsRange::Week, d("2026-03-14"), &[], vec![]);
    assert_eq!((v.since.as_str(), v.until.as_str()), ("2026-03-08", "2026-03-14"));
    let points: Vec<(&str, u8)> = v.mood_points.iter().map(|p| (p.date.as_str(), p.mood)).collect();
    assert_eq!(
        points,
        [
            ("2026-03-08", 5),
            ("2026-03-10", 4),
            ("2026-03-12", 4),
            ("2026-03-14", 2),
            ("2026-03-14", 4)
        ],
        "oldest first, within a day by creation; entries without a mood have no point"
    );
    assert_eq!(v.mood_points[3].entry_id, "2026-03-14T08:00:00.000000Z");
    let days: Vec<(&str, f64, u32)> =
        v.mood_days.iter().map(|m| (m.date.as_str(), m.mean, m.count)).collect();
    assert_eq!(
        days,
        [
            ("2026-03-08", 5.0, 1),
            ("2026-03-10", 4.0, 1),
            ("2026-03-12", 4.0, 1),
            ("2026-03-14", 3.0, 2)
        ]
    );
}

#[test]
fn the_calendar_has_every_day_with_checkins_and_other_entries_apart() {
    let v = compute(&fixture(), InsightsRange::Week, d("2026-03-14"), &[], vec![]);
    assert_eq!(v.days.len(), 7);
    let cells: Vec<(&str, u32, u32)> =
        v.days.iter().map(|c| (c.date.as_str(), c.checkins, c.journal)).collect();
    assert_eq!(
        cells,
        [
            ("2026-03-08", 1, 0),
            ("2026-03-09", 0, 0),
            ("2026-03-10", 1, 0),
            ("2026-03-11", 0, 0),
            ("2026-03-12", 0, 1),
            ("2026-03-13", 0, 1),
            ("2026-03-14", 2, 0),
        ]
    );
}

#[test]
fn ranges_cover_30_90_and_365_days_ending_until() {
    for (range, days, since) in [
        (InsightsRange::Month, 30, "2026-02-13"),
        (InsightsRange::Quarter, 90, "2025-12-15"),
        (InsightsRange::Year, 365, "2025-03-15"),
    ] {
        let v = compute(&fixture(), range, d("2026-03-14"), &[], vec![]);
        assert_eq!(v.days.len(), days, "{range:?}");
        assert_eq!(v.since, since, "{range:?}");
        assert_eq!(v.days.first().unwrap().date, since);
        assert_eq!(v.days.last().unwrap().date, "2026-03-14");
    }
    let month = compute(&fixture(), InsightsRange::Month, d("2026-03-14"), &[], vec![]);
    assert_eq!(month.mood_points.len(), 8, "the entry dated 02-20 is in a month");
    assert_eq!(month.mood_points[0].date, "2026-02-20");
}

#[test]
fn feelings_most_frequent_first_ties_by_name() {
    let v = compute(&fixture(), InsightsRange::Week, d("2026-03-14"), &[], vec![]);
    let f: Vec<(&str, u32)> = v.feelings.iter().map(|f| (f.feeling.as_str(), f.count)).collect();
    // 焦虑 2, 平静 2, then 专注 / 开心 / 疲惫 once each; ties in code-point order.
    assert_eq!(f, [("平静", 2), ("焦虑", 2), ("专注", 1), ("开心", 1), ("疲惫", 1)]);
    let month = compute(&fixture(), InsightsRange::Month, d("2026-03-14"), &[], vec![]);
    assert_eq!((month.feelings[0].feeling.as_str(), month.feelings[0].count), ("焦虑", 3));
}

#[test]
fn the_week_summary_and_the_previous_weeks_mean() {
    let protocols =
        [completed("2026-03-01", "old", "每周回顾"), completed("2026-03-13", "r2", "每周回顾")];
    let v = compute(&fixture(), InsightsRange::Month, d("2026-03-14"), &protocols, vec![]);
    let w = &v.week;
    assert_eq!((w.since.as_str(), w.until.as_str()), ("2026-03-08", "2026-03-14"));
    assert_eq!(w.checkins, 4);
    assert_eq!(w.journal_entries, 2, "the person's entry and the coach's");
    assert_eq!(w.active_days, 5);
    assert_eq!(w.mood_mode, Some(4), "4 given twice");
    assert_eq!(w.mood_mean, Some(19.0 / 5.0));
    assert_eq!(w.previous_mood_mean, Some(2.5), "03-01 … 03-07: moods 2 and 3");
    assert_eq!(w.protocols_completed, ["每周回顾"]);
    let ids: Vec<&str> = v.protocols.iter().map(|p| p.run_id.as_str()).collect();
    assert_eq!(ids, ["old", "r2"], "the month's runs, oldest first");
}

#[test]
fn a_tied_mode_is_the_higher_mood() {
    let entries = [
        checkin("2026-03-14", 8, 2, &[]),
        checkin("2026-03-13", 8, 5, &[]),
        checkin("2026-03-12", 8, 2, &[]),
        checkin("2026-03-11", 8, 5, &[]),
        checkin("2026-03-10", 8, 3, &[]),
    ];
    let v = compute(&entries, InsightsRange::Week, d("2026-03-14"), &[], vec![]);
    assert_eq!(v.week.mood_mode, Some(5));
    assert_eq!(v.week.previous_mood_mean, None, "no moods the week before");
}

#[test]
fn empty_data_gives_empty_series_and_a_quiet_week() {
    let v = compute(&[], InsightsRange::Week, d("2026-03-14"), &[], vec![]);
    assert!(v.mood_points.is_empty() && v.mood_days.is_empty() && v.feelings.is_empty());
    assert!(v.protocols.is_empty() && v.goals.is_empty());
    assert_eq!(v.days.len(), 7);
    assert!(v.days.iter().all(|c| c.checkins == 0 && c.journal == 0));
    let w = &v.week;
    assert_eq!((w.checkins, w.journal_entries, w.active_days), (0, 0, 0));
    assert_eq!((w.mood_mode, w.mood_mean, w.previous_mood_mean), (None, None, None));
    assert!(w.protocols_completed.is_empty());
}

#[test]
fn goals_active_first_with_their_milestones() {
    let goals_value = json!({
        "read": {"title": "每月读两本书", "status": "done", "deadline": "2026-06-30"},
        "portfolio": {"title": "完成作品集", "status": "active", "deadline": "2026-03-31"},
        "run_5k": {"title": "跑完 5 公里", "status": "paused", "deadline": "someday"},
        "bad": "not a goal",
        "untitled": {}
    });
    let milestones = json!([
        {"date": "2026-03-02", "goal": "portfolio", "note": "案例一"},
        {"date": "2026-03-09", "goal": "portfolio", "note": "案例二"},
        {"goal": "read", "note": "读完一本", "_created_at": "2026-02-10T10:00:00Z"},
        {"date": "2026-03-05", "goal": "elsewhere"}
    ]);
    let g = goals(Some(&goals_value), Some(&milestones));
    let rows: Vec<(&str, &str, u32)> =
        g.iter().map(|g| (g.id.as_str(), g.status.as_str(), g.milestones)).collect();
    assert_eq!(
        rows,
        [
            ("portfolio", "active", 2),
            ("untitled", "active", 0),
            ("run_5k", "paused", 0),
            ("read", "done", 1)
        ]
    );
    assert_eq!(g[0].title, "完成作品集");
    assert_eq!(g[0].deadline.as_deref(), Some("2026-03-31"));
    assert_eq!(g[0].last_milestone.as_deref(), Some("2026-03-09"));
    assert_eq!(g[1].title, "untitled", "no title: its id");
    assert_eq!(g[2].deadline, None, "not a date");
    assert!(g[3].last_milestone.is_some(), "dated by its creation stamp");
    assert!(goals(None, None).is_empty());
    assert!(goals(Some(&json!([])), None).is_empty());
}
