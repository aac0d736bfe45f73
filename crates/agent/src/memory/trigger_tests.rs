//! The trigger decision.

use chrono::{Duration, Utc};
use vibe_store::{Backlog, MemoryBackoff};

use super::{MemorySettings, Trigger, backoff_wait, extraction_due};

fn backlog(turns: u32, minutes_ago: i64) -> Backlog {
    Backlog {
        conversation_id: "c".into(),
        user_turns: turns,
        last_message_at: (Utc::now() - Duration::minutes(minutes_ago)).to_rfc3339(),
    }
}

#[test]
fn quiet_conversations_and_long_ones_are_due_and_live_short_ones_are_not() {
    let s = MemorySettings::default();
    let now = Utc::now();
    assert_eq!(extraction_due(now, &backlog(1, 11), None, &s), Some(Trigger::Quiet));
    assert_eq!(extraction_due(now, &backlog(3, 2), None, &s), None);
    assert_eq!(extraction_due(now, &backlog(10, 0), None, &s), Some(Trigger::Turns));
    assert_eq!(
        extraction_due(now, &backlog(0, 60), None, &s),
        None,
        "nothing of the person to read"
    );
}

#[test]
fn zero_turns_a_trigger_off_and_a_bad_timestamp_counts_as_quiet() {
    let now = Utc::now();
    let no_quiet = MemorySettings { quiet_minutes: 0, every_turns: 2 };
    assert_eq!(extraction_due(now, &backlog(1, 600), None, &no_quiet), None);
    assert_eq!(extraction_due(now, &backlog(2, 0), None, &no_quiet), Some(Trigger::Turns));
    let no_turns = MemorySettings { quiet_minutes: 10, every_turns: 0 };
    assert_eq!(extraction_due(now, &backlog(500, 0), None, &no_turns), None);
    let mut odd = backlog(1, 0);
    odd.last_message_at = "yesterday".into();
    assert_eq!(extraction_due(now, &odd, None, &no_turns), Some(Trigger::Quiet));
}

fn failed(times: u32, retry_in_minutes: i64) -> MemoryBackoff {
    MemoryBackoff {
        conversation_id: "c".into(),
        failures: times,
        last_error: "the model call failed".into(),
        failed_at: Utc::now().to_rfc3339(),
        next_try_at: (Utc::now() + Duration::minutes(retry_in_minutes)).to_rfc3339(),
    }
}

#[test]
fn a_failed_pass_waits_before_the_next_try_and_the_wait_doubles_up_to_a_cap() {
    let s = MemorySettings::default();
    let now = Utc::now();
    let due = backlog(10, 30);
    assert_eq!(extraction_due(now, &due, Some(&failed(1, 5)), &s), None, "still waiting");
    assert_eq!(
        extraction_due(now, &due, Some(&failed(1, -1)), &s),
        Some(Trigger::Turns),
        "the wait is over"
    );
    let waits: Vec<i64> = (1..=9).map(|n| backoff_wait(n, &s).num_minutes()).collect();
    assert_eq!(waits, [10, 20, 40, 80, 160, 320, 640, 1280, 1440]);
    assert_eq!(backoff_wait(400, &s).num_minutes(), 1440, "capped, no overflow");
    let no_quiet = MemorySettings { quiet_minutes: 0, every_turns: 2 };
    assert_eq!(backoff_wait(1, &no_quiet).num_minutes(), 10);
}
