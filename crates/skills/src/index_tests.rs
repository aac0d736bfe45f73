//! Precedence, shadowing, duplicates and change notices, on synthetic scans.

use std::path::Path;

use super::*;
use crate::meta::{Ethics, HistoryLimits};
use crate::problem::Pos;

fn meta(name: &str, description: &str) -> Arc<SkillMeta> {
    Arc::new(SkillMeta {
        name: name.into(),
        description: description.into(),
        license: None,
        compatibility: None,
        metadata: BTreeMap::new(),
        allowed_tools: vec![],
        disable_model_invocation: false,
        user_invocable: true,
        profile_fields: vec![],
        requires_birth_info: false,
        requires_compute: false,
        compute_type: None,
        expert_persona: None,
        personas: vec![],
        voice_modes: vec![],
        triggers: vec![],
        ethics: Ethics::default(),
        default_scenario: None,
        history: HistoryLimits::default(),
        lists: Default::default(),
    })
}

fn scanned(dir: &str, meta: Option<Arc<SkillMeta>>, last_good: Option<Arc<SkillMeta>>) -> Scanned {
    let dir = PathBuf::from(dir);
    let problems = if meta.is_some() {
        vec![]
    } else {
        vec![Problem::error(&dir.join("SKILL.md"), Pos::new(2, 7), "broken")]
    };
    Scanned {
        folder: dir.file_name().unwrap().to_str().unwrap().into(),
        dir,
        fingerprint: None,
        meta,
        last_good,
        problems,
        name_pos: Pos::new(2, 7),
        positions: vec![],
    }
}

fn root(kind: RootKind, path: &str, skills: Vec<Scanned>) -> RootScan {
    RootScan {
        root: Root { kind, path: path.into() },
        skills: skills.into_iter().map(|s| (s.dir.clone(), s)).collect(),
        problems: vec![],
    }
}

#[test]
fn higher_root_wins_and_records_what_it_shadows() {
    let index = build(&[
        root(
            RootKind::Project,
            "/p",
            vec![scanned("/p/bazi", Some(meta("bazi", "project")), None)],
        ),
        root(RootKind::User, "/u", vec![scanned("/u/bazi", Some(meta("bazi", "user")), None)]),
        root(
            RootKind::Builtin,
            "/b",
            vec![
                scanned("/b/bazi", Some(meta("bazi", "builtin")), None),
                scanned("/b/tarot", Some(meta("tarot", "t")), None),
            ],
        ),
    ]);
    let bazi = &index.entries["bazi"];
    assert_eq!((bazi.root, bazi.meta.description.as_str()), (RootKind::Project, "project"));
    assert_eq!(
        bazi.shadows,
        vec![
            Shadowed { root: RootKind::User, dir: "/u/bazi".into() },
            Shadowed { root: RootKind::Builtin, dir: "/b/bazi".into() }
        ]
    );
    assert!(index.entries["tarot"].shadows.is_empty());
}

#[test]
fn a_broken_skill_is_left_out_and_a_lower_root_takes_its_place() {
    let index = build(&[
        root(RootKind::User, "/u", vec![scanned("/u/bazi", None, None)]),
        root(
            RootKind::Builtin,
            "/b",
            vec![scanned("/b/bazi", Some(meta("bazi", "builtin")), None)],
        ),
    ]);
    assert_eq!(index.entries["bazi"].root, RootKind::Builtin);
    assert_eq!(index.broken.len(), 1);
    assert_eq!(index.broken[0].dir, Path::new("/u/bazi"));
}

#[test]
fn a_stale_good_version_stays_in_place_marked_invalid() {
    let index = build(&[root(
        RootKind::User,
        "/u",
        vec![scanned("/u/bazi", None, Some(meta("bazi", "old")))],
    )]);
    let e = &index.entries["bazi"];
    assert!(!e.valid);
    assert_eq!(e.meta.description, "old");
}

#[test]
fn duplicate_names_within_one_root_are_both_left_out() {
    let index = build(&[root(
        RootKind::User,
        "/u",
        vec![
            scanned("/u/a/bazi", Some(meta("bazi", "1")), None),
            scanned("/u/b/bazi", Some(meta("bazi", "2")), None),
        ],
    )]);
    assert!(index.entries.is_empty());
    assert_eq!(index.broken.len(), 2);
    let msg = index.broken[0].problems[0].to_string();
    assert_eq!(
        msg,
        "/u/a/bazi/SKILL.md:2:7: duplicate skill name `bazi` in this root (also in /u/b/bazi); rename one"
    );
}

#[test]
fn diff_reports_added_changed_removed_and_invalid() {
    let before = build(&[root(
        RootKind::User,
        "/u",
        vec![
            scanned("/u/a", Some(meta("a", "1")), None),
            scanned("/u/b", Some(meta("b", "1")), None),
            scanned("/u/c", Some(meta("c", "1")), None),
        ],
    )]);
    let after = build(&[root(
        RootKind::User,
        "/u",
        vec![
            scanned("/u/a", Some(meta("a", "2")), None),
            scanned("/u/c", None, Some(meta("c", "1"))),
            scanned("/u/d", Some(meta("d", "1")), None),
            scanned("/u/e", None, None),
        ],
    )]);
    let changes: Vec<_> =
        diff(&before, &after, &BTreeSet::new()).into_iter().map(|c| (c.name, c.change)).collect();
    assert_eq!(
        changes,
        vec![
            ("a".into(), SkillsChangeKind::Changed),
            ("b".into(), SkillsChangeKind::Removed),
            ("c".into(), SkillsChangeKind::Invalid),
            ("d".into(), SkillsChangeKind::Added),
            ("e".into(), SkillsChangeKind::Invalid),
        ]
    );
    assert!(diff(&after, &after, &BTreeSet::new()).is_empty(), "no change, no notice");
    let touched = BTreeSet::from(["d".to_string()]);
    assert_eq!(diff(&after, &after, &touched)[0].change, SkillsChangeKind::Changed);
}
