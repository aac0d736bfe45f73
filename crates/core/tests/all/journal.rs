//! The journal the person writes and the coach reads (issue 31): check-ins and entries land in
//! the life coach's `journal` beside the coach's own entries, are edited and removed by id,
//! removals are undoable, and bad input is refused with nothing written.

use vibe_core::app::AppError;
use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    CheckinRequest, HistoryTargetView, JournalAddRequest, JournalEditRequest, JournalListRequest,
    JournalRemoveRequest, JournalSource, UndoStateRequest,
};

use crate::harness::{Harness, say};

/// The coach writes a journal entry the way rules/journaling.md told it before check-ins
/// existed (mood on ten points, no text field).
const COACH_WRITES: &str = r#"
mode: matched
responses:
  - when: {tool_result: "已添加"}
    text: "记下了。"
  - tool_calls: [{name: append_to_list, arguments: {path: journal, entry: {date: "2026-11-27", mood: 8, highlights: ["完成了作品集"]}}}]
"#;

fn stored_journal(h: &Harness) -> serde_json::Value {
    h.store.read_state(LOCAL_USER, "lifecoach", None).unwrap().data["journal"].clone()
}

#[tokio::test]
async fn check_ins_and_entries_sit_beside_the_coachs_and_read_back_the_same() {
    let h = Harness::scripted(COACH_WRITES);
    let mut request = say("帮我记一下今天");
    request.skill = Some("lifecoach".into());
    assert_eq!(h.turn(request).await.reply(), "记下了。");

    let checkin = h
        .app
        .checkin(&CheckinRequest {
            mood: 4,
            feelings: vec!["平静".into(), " 专注 ".into(), "平静".into()],
            note: Some("早起跑了步".into()),
            date: Some("2026-11-28".into()),
        })
        .unwrap()
        .entry;
    assert_eq!((checkin.mood, checkin.source), (Some(4), JournalSource::Checkin));
    assert_eq!(checkin.feelings, ["平静", "专注"], "trimmed, each once");
    let added = h
        .app
        .journal_add(&JournalAddRequest {
            date: None,
            mood: None,
            feelings: vec![],
            text: "## 周末\n和朋友爬山".into(),
            tags: vec!["户外".into()],
        })
        .unwrap()
        .entry;
    assert_eq!(added.source, JournalSource::Person);

    let list = h.app.journal_list(&JournalListRequest::default()).unwrap().entries;
    assert_eq!(list.len(), 3);
    assert_eq!(list[0], added, "newest first, as added");
    assert_eq!(list[1], checkin);
    let coach = &list[2];
    assert_eq!(coach.source, JournalSource::Coach);
    assert_eq!((coach.date.as_str(), coach.mood), ("2026-11-27", Some(4)), "8 of 10 is 4 of 5");
    assert_eq!(coach.text, "完成了作品集");

    // The coach reads the check-in where it reads its own entries, on the same scale it is told.
    let stored = stored_journal(&h);
    assert_eq!(stored[1]["mood"], 4);
    assert_eq!(stored[1]["mood_scale"], 5);
    assert_eq!(stored[1]["text"], "早起跑了步");

    let search = |q: &str| {
        let request = JournalListRequest { query: Some(q.into()), ..Default::default() };
        h.app.journal_list(&request).unwrap().entries.len()
    };
    assert_eq!((search("爬山"), search("专注"), search("户外"), search("作品集")), (1, 1, 1, 1));
    let dated = JournalListRequest {
        since: Some("2026-11-28".into()),
        until: Some("2026-11-28".into()),
        ..Default::default()
    };
    assert_eq!(h.app.journal_list(&dated).unwrap().entries, vec![checkin]);
}

#[test]
fn an_entry_is_edited_and_removed_by_its_id_and_the_removal_is_undone() {
    let h = Harness::scripted(COACH_WRITES);
    let first =
        h.app.checkin(&CheckinRequest { mood: 2, feelings: vec![], note: None, date: None });
    let first = first.unwrap().entry;
    let second = h
        .app
        .journal_add(&JournalAddRequest {
            date: None,
            mood: Some(3),
            feelings: vec![],
            text: "写了一半".into(),
            tags: vec![],
        })
        .unwrap()
        .entry;
    assert_ne!(first.id, second.id, "each entry its own id, even in the same millisecond");

    let edited = h
        .app
        .journal_edit(&JournalEditRequest {
            id: second.id.clone(),
            text: Some("写完了".into()),
            mood: Some(5),
            ..Default::default()
        })
        .unwrap()
        .entry;
    assert_eq!((edited.text.as_str(), edited.mood, &edited.id), ("写完了", Some(5), &second.id));
    assert!(edited.edited_at.is_some());
    assert_eq!(edited.date, second.date, "what was not given stays");

    let before = stored_journal(&h);
    let removed = h.app.journal_remove(&JournalRemoveRequest { id: first.id.clone() }).unwrap();
    assert_eq!(removed.entry.id, first.id);
    let left = h.app.journal_list(&JournalListRequest::default()).unwrap().entries;
    assert_eq!(left, vec![edited]);
    let target = HistoryTargetView::Skill { skill: "lifecoach".into() };
    h.app.undo_state(&UndoStateRequest { target, to: None }).unwrap();
    assert_eq!(stored_journal(&h), before, "the removed check-in is back");
}

#[test]
fn bad_input_is_refused_with_what_to_do_and_nothing_is_written() {
    let h = Harness::scripted(COACH_WRITES);
    let kept = h.app.checkin(&CheckinRequest { mood: 3, feelings: vec![], note: None, date: None });
    let kept = kept.unwrap().entry;
    let before = stored_journal(&h);
    let refused = |e: AppError, says: &str| {
        assert!(e.to_string().contains(says), "{e}");
        assert_eq!(stored_journal(&h), before, "nothing written");
    };
    let checkin = |mood: u8, date: &str| CheckinRequest {
        mood,
        feelings: vec![],
        note: None,
        date: Some(date.into()),
    };
    refused(h.app.checkin(&checkin(6, "2026-11-28")).unwrap_err(), "use 1 (very low) to 5");
    refused(h.app.checkin(&checkin(0, "2026-11-28")).unwrap_err(), "mood 0 is out of range");
    refused(h.app.checkin(&checkin(3, "28/11/2026")).unwrap_err(), "write it as YYYY-MM-DD");
    refused(h.app.checkin(&checkin(3, "2999-01-01")).unwrap_err(), "is in the future");
    let long = CheckinRequest { note: Some("很".repeat(501)), ..checkin(3, "2026-11-28") };
    refused(h.app.checkin(&long).unwrap_err(), "at most 500");
    let many = CheckinRequest {
        feelings: (0..13).map(|i| format!("f{i}")).collect(),
        ..checkin(3, "2026-11-28")
    };
    refused(h.app.checkin(&many).unwrap_err(), "at most 12");
    let blank = JournalAddRequest {
        date: None,
        mood: None,
        feelings: vec![],
        text: "  ".into(),
        tags: vec![],
    };
    refused(h.app.journal_add(&blank).unwrap_err(), "needs some text");
    let unknown =
        JournalEditRequest { id: "2001-01-01T00:00:00.000Z".into(), ..Default::default() };
    refused(h.app.journal_edit(&unknown).unwrap_err(), "no journal entry with id");
    let bad_mood = JournalEditRequest { id: kept.id.clone(), mood: Some(9), ..Default::default() };
    refused(h.app.journal_edit(&bad_mood).unwrap_err(), "mood 9 is out of range");
    let gone = JournalRemoveRequest { id: "nope".into() };
    refused(h.app.journal_remove(&gone).unwrap_err(), "no journal entry with id nope");
}
