//! Times of day, quiet hours (also across midnight) and the checks on the person's times.

use serde_json::json;

use super::*;

fn t(text: &str) -> TimeOfDay {
    TimeOfDay::parse(text).unwrap()
}

#[test]
fn times_of_day_are_two_digit_hours_and_minutes() {
    assert_eq!(t("00:00").minute(), 0);
    assert_eq!(t("23:59").minute(), 23 * 60 + 59);
    assert_eq!(t("07:05").to_string(), "07:05");
    for bad in ["24:00", "7:05", "07:60", "0705", "ab:cd", "", "07:05:00"] {
        assert_eq!(TimeOfDay::parse(bad), None, "{bad}");
    }
}

#[test]
fn quiet_hours_within_a_day_and_across_midnight() {
    let day = QuietHours { start: t("13:00"), end: t("14:00") };
    assert!(!day.contains(t("12:59").minute()));
    assert!(day.contains(t("13:00").minute()));
    assert!(!day.contains(t("14:00").minute()), "the end is no longer quiet");
    let night = QuietHours { start: t("22:00"), end: t("07:00") };
    for quiet in ["22:00", "23:30", "00:00", "06:59"] {
        assert!(night.contains(t(quiet).minute()), "{quiet}");
    }
    for awake in ["07:00", "12:00", "21:59"] {
        assert!(!night.contains(t(awake).minute()), "{awake}");
    }
}

#[test]
fn settings_read_from_json_refuse_bad_times_and_unknown_keys() {
    let s: ReminderSettings =
        serde_json::from_value(json!({"quiet_hours": {"start": "22:00", "end": "07:00"}})).unwrap();
    assert!(s.notify, "on by default");
    assert_eq!(s.quiet_hours, Some(QuietHours { start: t("22:00"), end: t("07:00") }));
    let e = serde_json::from_value::<ReminderSettings>(
        json!({"quiet_hours": {"start": "25:00", "end": "07:00"}}),
    )
    .unwrap_err();
    assert!(e.to_string().contains("\"25:00\" is not a time of day"), "{e}");
    assert!(serde_json::from_value::<ReminderSettings>(json!({"notfy": false})).is_err());
    let same = ReminderSettings {
        notify: true,
        quiet_hours: Some(QuietHours { start: t("08:00"), end: t("08:00") }),
    };
    assert!(same.problem().unwrap().contains("same time (08:00)"));
}

#[test]
fn personal_times_are_checked_in_order_of_the_day() {
    assert!(check_reminder_times(&json!(["09:00", "12:30", "18:00"])).is_ok());
    assert!(check_reminder_times(&json!(null)).is_ok());
    let e = check_reminder_times(&json!(["09:00", "08:00"])).unwrap_err();
    assert!(
        e.contains("reminder_times[1] (08:00) must be later than the time before it (09:00)"),
        "{e}"
    );
    let e = check_reminder_times(&json!(["9am"])).unwrap_err();
    assert!(e.contains("reminder_times[0] must be a time of day HH:MM"), "{e}");
    assert!(check_reminder_times(&json!("09:00")).is_err());
    let profile = json!({"preferences": {"reminder_times": ["10:00", "14:00"]}});
    assert_eq!(personal_times(&profile), vec![t("10:00"), t("14:00")]);
    assert!(personal_times(&json!({})).is_empty());
}
