//! Which reminders are notified: the latest due per run, once, not while off, not during quiet
//! hours (also across midnight), with the person's own times. The dankoe run's step 4 has
//! reminders at 11:00, 13:30, 15:15, 17:00, 19:30 and 21:00; the clock starts at 09:00 UTC.

use serde_json::json;

use crate::engine::tests::{Fx, dankoe_step};
use crate::{QuietHours, ReminderSettings, TimeOfDay};

fn at_step_4() -> Fx {
    let fx = Fx::new();
    fx.engine.start(None, "dankoe", Some(fx.c.as_str()), None).unwrap();
    for n in 1..=3 {
        fx.engine.advance("lifecoach", &dankoe_step(n), None).unwrap();
    }
    fx
}

fn on() -> ReminderSettings {
    ReminderSettings::default()
}

fn quiet(start: &str, end: &str) -> ReminderSettings {
    let t = |s| TimeOfDay::parse(s).unwrap();
    ReminderSettings {
        notify: true,
        quiet_hours: Some(QuietHours { start: t(start), end: t(end) }),
    }
}

fn notified(fx: &Fx, settings: &ReminderSettings) -> Vec<String> {
    fx.engine.reminders_to_notify(settings).unwrap().into_iter().map(|r| r.time).collect()
}

#[test]
fn only_the_latest_due_reminder_of_a_run_is_notified_and_only_once() {
    let fx = at_step_4();
    assert!(notified(&fx, &on()).is_empty(), "09:00: nothing due");
    fx.wait(6 * 60 + 20); // 15:20: 11:00, 13:30 and 15:15 are due
    let first = fx.engine.reminders_to_notify(&on()).unwrap();
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0].time, "15:15");
    assert_eq!(first[0].conversation_id.as_deref(), Some(fx.c.as_str()));
    assert!(first[0].question.contains("愿景"), "{}", first[0].question);
    assert!(notified(&fx, &on()).is_empty(), "a second tick notifies nothing again");
    let card: Vec<String> =
        fx.engine.reminder_notices().unwrap().into_iter().map(|r| r.time).collect();
    assert_eq!(card, ["15:15"], "the card shows the notified reminder");
    fx.wait(2 * 60); // 17:20
    assert_eq!(notified(&fx, &on()), ["17:00"]);
    // Answered in chat: the card closes, and nothing is notified for it.
    fx.engine.before_turn(Some("lifecoach"), &fx.c, "在刷手机", "m").unwrap();
    assert!(fx.engine.reminder_notices().unwrap().is_empty());
    assert!(notified(&fx, &on()).is_empty());
}

#[test]
fn a_reminder_stays_notified_across_engines_over_the_same_store() {
    let fx = at_step_4();
    fx.wait(2 * 60 + 5); // 11:05
    assert_eq!(notified(&fx, &on()), ["11:00"]);
    let again = fx.engine.clone().with_user("local");
    assert!(again.reminders_to_notify(&on()).unwrap().is_empty());
}

#[test]
fn the_off_switch_notifies_nothing() {
    let fx = at_step_4();
    fx.wait(2 * 60 + 5); // 11:05
    let off = ReminderSettings { notify: false, quiet_hours: None };
    assert!(notified(&fx, &off).is_empty());
    assert!(fx.engine.reminder_notices().unwrap().is_empty(), "nothing was notified");
    assert_eq!(notified(&fx, &on()), ["11:00"], "turned back on, the reminder comes");
}

#[test]
fn a_reminder_due_in_quiet_hours_waits_until_they_end() {
    let fx = at_step_4();
    let lunch = quiet("13:00", "14:00");
    fx.wait(4 * 60 + 40); // 13:40: 11:00 and 13:30 due, quiet
    assert!(notified(&fx, &lunch).is_empty());
    fx.wait(20); // 14:00: quiet hours over
    assert_eq!(notified(&fx, &lunch), ["13:30"], "the latest due one, once quiet ends");
}

#[test]
fn quiet_hours_across_midnight_hold_the_late_reminder_until_morning_ends_them() {
    let fx = at_step_4();
    let night = quiet("20:00", "09:30");
    fx.wait(12 * 60 + 5); // 21:05: 21:00 is due, but quiet
    assert!(notified(&fx, &night).is_empty());
    fx.wait(3 * 60); // 00:05 the next day: still quiet; no reminder is due any more
    assert!(notified(&fx, &night).is_empty());
    fx.wait(9 * 60 + 25); // 09:30: quiet is over, nothing due yet today
    assert!(notified(&fx, &night).is_empty());
    fx.wait(90); // 11:00
    assert_eq!(notified(&fx, &night), ["11:00"]);
}

#[test]
fn the_persons_own_times_replace_the_protocols_in_order() {
    let fx = at_step_4();
    fx.store.set_path("local", "preferences.reminder_times", json!(["09:30", "10:00"])).unwrap();
    let times: Vec<(String, String)> =
        fx.engine.reminders().unwrap().into_iter().map(|r| (r.at, r.time)).collect();
    assert_eq!(times[0], ("11:00".into(), "09:30".into()));
    assert_eq!(times[1], ("13:30".into(), "10:00".into()));
    assert_eq!(times[2], ("15:15".into(), "15:15".into()), "beyond the list: the protocol's time");
    fx.wait(65); // 10:05
    let due = fx.engine.reminders_to_notify(&on()).unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!((due[0].at.as_str(), due[0].time.as_str()), ("13:30", "10:00"));
}
