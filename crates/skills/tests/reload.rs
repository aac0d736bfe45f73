//! Hot reload through the file watcher: add, edit, break, fix, delete; notices are sent.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::mpsc::Receiver;
use std::time::Duration;

use vibe_skills::{Event, SkillsChange, SkillsChangeKind};

use crate::support::{add_skill, eventually, open, write};

/// Drain notices until one about `name` of `kind` arrives (generous deadline).
fn expect_notice(rx: &Receiver<Event>, name: &str, kind: SkillsChangeKind) -> SkillsChange {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut seen = Vec::new();
    while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
        let Ok(Event::SkillsChanged { changes }) = rx.recv_timeout(left) else { break };
        if let Some(c) = changes.iter().find(|c| c.name == name && c.change == kind) {
            return c.clone();
        }
        seen.extend(changes);
    }
    panic!("no {kind:?} notice for {name}; saw {seen:?}");
}

#[test]
fn add_edit_break_fix_and_delete_are_picked_up_without_restart() {
    let user = tempfile::tempdir().unwrap();
    add_skill(user.path(), "core", "always here");
    let reg = open(None, Some(user.path()), None);
    let rx = reg.subscribe();
    reg.watch().unwrap();

    add_skill(user.path(), "journal", "写日记");
    expect_notice(&rx, "journal", SkillsChangeKind::Added);
    assert_eq!(reg.skill("journal").unwrap().meta.description, "写日记");

    add_skill(user.path(), "journal", "写日记，也回顾一周");
    expect_notice(&rx, "journal", SkillsChangeKind::Changed);
    eventually("edited description", || {
        reg.skill("journal").unwrap().meta.description == "写日记，也回顾一周"
    });

    // A half-saved file: the frontmatter is not closed yet.
    write(user.path(), "journal/SKILL.md", "---\nname: journal\ndescription: 写");
    let notice = expect_notice(&rx, "journal", SkillsChangeKind::Invalid);
    assert!(notice.problems[0].contains("journal/SKILL.md:1:1: "), "{notice:?}");
    eventually("the unclosed frontmatter is reported", || {
        let problems = reg.skill("journal").unwrap().problems;
        problems.iter().any(|p| {
            p.to_string().contains("SKILL.md:1:1: the frontmatter opened on line 1 is never closed")
        })
    });
    let kept = reg.skill("journal").unwrap();
    assert!(!kept.valid, "marked invalid");
    assert_eq!(kept.meta.description, "写日记，也回顾一周", "the last good version stays");
    assert!(reg.skill("core").is_ok());

    add_skill(user.path(), "journal", "修好了");
    expect_notice(&rx, "journal", SkillsChangeKind::Changed);
    let fixed = reg.skill("journal").unwrap();
    assert!(fixed.valid);
    assert_eq!(fixed.meta.description, "修好了");

    std::fs::remove_dir_all(user.path().join("journal")).unwrap();
    expect_notice(&rx, "journal", SkillsChangeKind::Removed);
    assert!(reg.skill("journal").is_err());
    assert!(reg.skill("core").is_ok());
}

#[test]
fn a_broken_part_is_reported_invalid_and_its_last_good_version_is_served() {
    let user = tempfile::tempdir().unwrap();
    add_skill(user.path(), "coach", "教练");
    write(user.path(), "coach/tools.yaml", "tools:\n  - read_state\n");
    let reg = open(None, Some(user.path()), None);
    assert_eq!(reg.tools("coach").unwrap().unwrap().tools.len(), 1);
    let rx = reg.subscribe();
    reg.watch().unwrap();

    write(user.path(), "coach/tools.yaml", "tools:\n  - read_state\n  - read_mind\n");
    let notice = expect_notice(&rx, "coach", SkillsChangeKind::Invalid);
    assert!(
        notice.problems[0].contains("tools.yaml:3:5: unknown built-in tool `read_mind`"),
        "{notice:?}"
    );
    assert_eq!(reg.tools("coach").unwrap().unwrap().tools.len(), 1, "previous good tools stay");

    write(user.path(), "coach/tools.yaml", "tools:\n  - read_state\n  - write_state\n");
    expect_notice(&rx, "coach", SkillsChangeKind::Changed);
    assert_eq!(reg.tools("coach").unwrap().unwrap().tools.len(), 2);
}

#[test]
fn the_user_root_is_created_and_watched_when_missing() {
    let data = tempfile::tempdir().unwrap();
    let user = data.path().join("skills");
    let reg = open(None, Some(&user), None);
    assert!(reg.skills().is_empty());
    reg.watch().unwrap();
    assert!(user.is_dir());
    add_skill(&user, "fresh", "新技能");
    eventually("the new skill appears", || reg.skill("fresh").is_ok());
}

#[test]
fn while_watching_parts_and_case_matches_follow_edits_made_on_disk() {
    let user = tempfile::tempdir().unwrap();
    add_skill(user.path(), "coach", "教练");
    write(user.path(), "coach/rules/01-listen.md", "先倾听。\n");
    write(
        user.path(),
        "coach/cases/overtime.md",
        "---\ntitle: 加班后的焦虑\nkeywords: [焦虑, 加班]\n---\n连续加班三个月。\n",
    );
    let reg = open(None, Some(user.path()), None);
    reg.watch().unwrap();
    // Served from memory while nothing changes.
    assert_eq!(reg.rules("coach").unwrap()[0].text, "先倾听。\n");
    assert!(reg.match_cases("coach", "今天天气", 3).unwrap().is_empty());
    let reads = reg.stats().files_read;
    assert_eq!(reg.rules("coach").unwrap()[0].text, "先倾听。\n");
    assert!(reg.match_cases("coach", "今天天气", 3).unwrap().is_empty());
    assert_eq!(reg.stats().files_read, reads, "nothing is read again while nothing changed");

    write(user.path(), "coach/rules/01-listen.md", "先倾听，再复述对方的话。\n");
    eventually("the edited rule is served", || {
        reg.rules("coach").unwrap()[0].text == "先倾听，再复述对方的话。\n"
    });
    write(
        user.path(),
        "coach/cases/weather.md",
        "---\ntitle: 天气与心情\nkeywords: [天气]\n---\n阴天让人低落。\n",
    );
    eventually("a new case file is matched", || {
        reg.match_cases("coach", "今天天气", 3).unwrap().first().map(|m| m.case.id.clone())
            == Some("weather".to_string())
    });
    write(user.path(), "coach/rules/02-steps.md", "每次一小步。\n");
    eventually("a new rule file is listed", || reg.rules("coach").unwrap().len() == 2);
    std::fs::remove_file(user.path().join("coach/cases/weather.md")).unwrap();
    eventually("a removed case file is no longer matched", || {
        reg.match_cases("coach", "今天天气", 3).unwrap().is_empty()
    });
}

#[test]
fn reading_skill_files_does_not_wake_the_watcher() {
    let user = tempfile::tempdir().unwrap();
    add_skill(user.path(), "coach", "教练");
    write(user.path(), "coach/rules/01-listen.md", "先倾听。\n");
    let reg = open(None, Some(user.path()), None);
    reg.watch().unwrap();
    let rescans = reg.stats().rescans;
    // Reads by this process and by others (an editor opening a file) are not changes.
    for _ in 0..5 {
        std::fs::read_to_string(user.path().join("coach/SKILL.md")).unwrap();
        std::fs::read_dir(user.path().join("coach/rules")).unwrap().for_each(drop);
        assert_eq!(reg.rules("coach").unwrap().len(), 1);
        std::thread::sleep(watch_quiet());
    }
    assert_eq!(reg.stats().rescans, rescans, "no rescan without a change");
    write(user.path(), "coach/rules/02-steps.md", "每次一小步。\n");
    eventually("a change still rescans", || reg.stats().rescans > rescans);
}

/// Longer than the watcher's quiet time, so a rescan would have happened.
fn watch_quiet() -> Duration {
    vibe_skills::DEBOUNCE * 2
}
