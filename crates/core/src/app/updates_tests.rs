//! The update policy's decisions: allowed, due, newer.

use std::time::{Duration, SystemTime};

use super::*;

const HOUR: Duration = Duration::from_secs(60 * 60);

fn at(hours: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000) + HOUR * hours as u32
}

#[test]
fn nothing_is_checked_until_the_person_allowed_it_not_even_by_hand() {
    for choice in [UpdateChecks::Undecided, UpdateChecks::Off] {
        for manual in [false, true] {
            for last in [None, Some(at(0))] {
                assert_eq!(decide(choice, last, at(100), manual), CheckDecision::NotAllowed);
            }
        }
    }
}

#[test]
fn an_allowed_check_asks_at_most_once_a_day() {
    let ask = UpdateChecks::Ask;
    assert_eq!(decide(ask, None, at(0), false), CheckDecision::Check);
    assert_eq!(decide(ask, Some(at(0)), at(1), false), CheckDecision::NotDue);
    assert_eq!(decide(ask, Some(at(0)), at(23), false), CheckDecision::NotDue);
    assert_eq!(decide(ask, Some(at(0)), at(24), false), CheckDecision::Check);
    assert_eq!(decide(ask, Some(at(0)), at(24 * 9), false), CheckDecision::Check);
}

#[test]
fn check_now_skips_the_daily_rule_only() {
    assert_eq!(decide(UpdateChecks::Ask, Some(at(0)), at(1), true), CheckDecision::Check);
}

#[test]
fn a_last_check_a_little_in_the_future_is_not_due() {
    assert_eq!(decide(UpdateChecks::Ask, Some(at(5)), at(0), false), CheckDecision::NotDue);
    assert_eq!(decide(UpdateChecks::Ask, Some(at(24)), at(0), false), CheckDecision::NotDue);
}

#[test]
fn a_last_check_recorded_by_a_clock_far_ahead_does_not_stop_checks_until_that_date() {
    // Recorded while the clock said a year ahead: due now, once.
    assert_eq!(decide(UpdateChecks::Ask, Some(at(24 * 365)), at(0), false), CheckDecision::Check);
    assert_eq!(decide(UpdateChecks::Ask, Some(at(0)), at(1), false), CheckDecision::NotDue);
    // Never while not allowed.
    assert_eq!(
        decide(UpdateChecks::Off, Some(at(24 * 365)), at(0), false),
        CheckDecision::NotAllowed
    );
}

#[test]
fn only_a_higher_version_is_an_update() {
    assert!(is_newer("0.1.0", "0.1.1"));
    assert!(is_newer("0.1.0", "v0.2.0"));
    assert!(is_newer("0.1.0", "1.0.0"));
    assert!(is_newer("0.1.0-beta.1", "0.1.0"));
    assert!(!is_newer("0.1.0", "0.1.0"), "equal");
    assert!(!is_newer("0.2.0", "0.1.9"), "lower: no downgrade");
    assert!(!is_newer("0.1.0", "0.1.0-rc.1"), "a pre-release of the running version is lower");
    assert!(!is_newer("0.1.0", "latest"), "not a version");
    assert!(!is_newer("0.1.0", ""), "empty");
}

#[test]
fn the_last_check_is_kept_in_the_data_folder_and_makes_the_next_one_wait() {
    let dir = tempfile::tempdir().unwrap();
    let app = App::open_with_keys(
        crate::app::AppPaths::new(dir.path()),
        crate::app::Overrides::default(),
        std::sync::Arc::new(crate::app::EphemeralKeys::default()),
    )
    .unwrap();
    assert_eq!(app.last_update_check(), None);
    // Off by default (undecided): not allowed, whatever the file says.
    assert_eq!(app.update_check_decision(at(0), true), CheckDecision::NotAllowed);
    app.update_settings(vibe_wire::command::UpdateSettingsRequest {
        changes: vec![vibe_wire::command::SettingChange {
            key: "preferences.updates".into(),
            value: serde_json::json!("ask"),
        }],
    })
    .unwrap();
    assert_eq!(app.update_check_decision(at(0), false), CheckDecision::Check);
    app.record_update_check(at(0)).unwrap();
    assert_eq!(app.last_update_check(), Some(at(0)));
    assert_eq!(app.update_check_decision(at(5), false), CheckDecision::NotDue);
    assert_eq!(app.update_check_decision(at(25), false), CheckDecision::Check);
    assert!(dir.path().join(UPDATE_CHECK_FILE).is_file());
}

#[test]
fn a_settings_file_from_before_the_choice_reads_as_undecided_and_allows_no_check() {
    use crate::app::settings::{Settings, SettingsFile as _};
    // v0.1.0's, from the committed fixture folder, and a later one with preferences but no
    // `updates` key: the person never chose, so the window asks (ui/src/updates/UpdateQuestion.tsx).
    let v010 = include_str!("../../../../tests/fixtures/v0.1.0/data/settings.json");
    let before = r#"{ "preferences": { "language": "zh-CN", "on_close": "tray" } }"#;
    for text in [v010, before] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        std::fs::write(&file, text).unwrap();
        let (settings, _) = Settings::load(&file).unwrap();
        assert_eq!(settings.preferences.updates, UpdateChecks::Undecided, "{text}");
        assert_eq!(
            decide(settings.preferences.updates, None, at(0), true),
            CheckDecision::NotAllowed
        );
    }
}
