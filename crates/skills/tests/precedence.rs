//! Roots in precedence order: project > user > built-in; shadowing is recorded.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use vibe_skills::{RootKind, SkillsError};

use crate::support::{add_skill, open, write};

#[test]
fn the_highest_root_wins_and_the_index_records_what_it_shadows() {
    let (p, u, b) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    add_skill(p.path(), "bazi", "project bazi");
    add_skill(u.path(), "bazi", "user bazi");
    add_skill(b.path(), "bazi", "builtin bazi");
    add_skill(u.path(), "journal", "user journal");
    add_skill(b.path(), "journal", "builtin journal");
    add_skill(b.path(), "tarot", "builtin tarot");
    let reg = open(Some(p.path()), Some(u.path()), Some(b.path()));

    let bazi = reg.skill("bazi").unwrap();
    assert_eq!((bazi.root, bazi.meta.description.as_str()), (RootKind::Project, "project bazi"));
    let shadowed: Vec<_> = bazi.shadows.iter().map(|s| s.root).collect();
    assert_eq!(shadowed, vec![RootKind::User, RootKind::Builtin]);
    assert_eq!(reg.skill("journal").unwrap().root, RootKind::User);
    assert_eq!(reg.skill("tarot").unwrap().root, RootKind::Builtin);
    let names: Vec<_> = reg.skills().into_iter().map(|e| e.name).collect();
    assert_eq!(names, vec!["bazi", "journal", "tarot"]);

    std::fs::remove_dir_all(p.path().join("bazi")).unwrap();
    reg.refresh();
    let bazi = reg.skill("bazi").unwrap();
    assert_eq!((bazi.root, bazi.shadows.len()), (RootKind::User, 1));
}

#[test]
fn a_broken_higher_skill_does_not_hide_a_good_lower_one_and_others_still_load() {
    let (u, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write(u.path(), "bazi/SKILL.md", "---\nname: bazi\ndescription: [oops\n---\n");
    add_skill(u.path(), "journal", "fine");
    add_skill(b.path(), "bazi", "builtin bazi");
    let reg = open(None, Some(u.path()), Some(b.path()));
    assert_eq!(reg.skill("bazi").unwrap().root, RootKind::Builtin);
    assert!(reg.skill("journal").is_ok());
    let broken = reg.broken();
    assert_eq!(broken.len(), 1);
    assert_eq!((broken[0].name.as_str(), broken[0].root), ("bazi", RootKind::User));
    assert!(reg.problems().iter().any(|p| p.is_error() && p.line == 4), "{:?}", reg.problems());
}

#[test]
fn unknown_skills_are_a_clear_error() {
    let reg = open(None, None, None);
    let err = reg.skill("nope").unwrap_err();
    assert!(matches!(err, SkillsError::UnknownSkill { .. }));
    assert_eq!(err.to_string(), "no skill named `nope`");
}

#[test]
fn the_registry_can_be_shared_across_threads() {
    fn shared<T: Send + Sync + Clone + 'static>() {}
    shared::<vibe_skills::Registry>();
}
