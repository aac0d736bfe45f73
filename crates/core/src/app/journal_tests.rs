//! How stored journal entries read: the five-point mood (and the coach's earlier ten-point
//! one), who wrote it, the text of a coach's structured entry.

use serde_json::json;
use vibe_wire::command::JournalSource;

use super::{five_point_mood, view};

#[test]
fn moods_read_on_the_five_point_scale_whatever_scale_wrote_them() {
    assert_eq!(five_point_mood(&json!({"mood": 4, "mood_scale": 5})), Some(4));
    // The coach's ten-point entries (rules/journaling.md before the check-ins).
    let ten = |m: u8| five_point_mood(&json!({ "mood": m }));
    assert_eq!((1..=10).map(ten).collect::<Vec<_>>(), [1, 1, 2, 2, 3, 3, 4, 4, 5, 5].map(Some));
    assert_eq!(five_point_mood(&json!({"mood": 0})), None, "out of any scale: no mood");
    assert_eq!(five_point_mood(&json!({"mood": "good"})), None);
    assert_eq!(five_point_mood(&json!({})), None);
}

#[test]
fn a_coach_entry_shows_its_parts_as_text_and_says_the_coach_wrote_it() {
    let stored = json!({
        "date": "2026-01-20", "mood": 6,
        "highlights": ["完成了第一版作品集"], "lessons": ["早上先做最难的事"], "tomorrow": "投出 3 份申请",
        "_created_at": "2026-01-20T21:00:00.000Z"
    });
    let v = view(&stored).unwrap();
    assert_eq!(v.id, "2026-01-20T21:00:00.000Z");
    assert_eq!(v.date, "2026-01-20");
    assert_eq!(v.mood, Some(3));
    assert_eq!(v.source, JournalSource::Coach);
    assert_eq!(v.text, "完成了第一版作品集\n早上先做最难的事\n投出 3 份申请");
}

#[test]
fn a_check_in_reads_back_as_written() {
    let stored = json!({
        "date": "2026-11-28", "mood": 4, "mood_scale": 5, "feelings": ["平静", "专注"],
        "text": "早起跑了步", "source": "checkin", "_created_at": "2026-11-28T08:00:00.000Z",
        "_edited_at": "2026-11-28T09:00:00.000Z"
    });
    let v = view(&stored).unwrap();
    assert_eq!((v.mood, v.source), (Some(4), JournalSource::Checkin));
    assert_eq!(v.feelings, ["平静", "专注"]);
    assert_eq!(v.edited_at.as_deref(), Some("2026-11-28T09:00:00.000Z"));
    assert!(view(&json!({"text": "no stamp"})).is_none(), "not an entry without its stamp");
}
