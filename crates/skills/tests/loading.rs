//! On-demand loading: parts, cases, resources; only changed files are re-read.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use vibe_skills::{Registry, RegistryConfig, SkillsError};

use crate::support::{add_skill, open, write};

fn coach_root() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let r = root.path();
    write(
        r,
        "coach/SKILL.md",
        "---\nname: coach\ndescription: 生活教练\ndefault_scenario: first-chat\n---\n你是教练。\n",
    );
    write(r, "coach/rules/01-listen.md", "先倾听，再提问。\n");
    write(r, "coach/rules/02-small-steps.md", "每次只定一个小目标。\n");
    write(
        r,
        "coach/scenarios/first-chat.md",
        "---\nname: first-chat\ndescription: 第一次见面\n---\n先问候。\n",
    );
    write(
        r,
        "coach/cases/overtime.md",
        "---\ntitle: 加班后的焦虑\nkeywords: [焦虑, 加班, 失眠]\n---\n连续加班三个月，晚上睡不着。\n",
    );
    write(
        r,
        "coach/cases/breakup.md",
        "---\ntitle: 分手之后\nkeywords: [分手, 失恋, 孤独]\n---\n刚结束一段五年的感情。\n",
    );
    write(
        r,
        "coach/cases/career.md",
        "---\ntitle: Changing careers\nkeywords: [career, job]\n---\nHe felt stuck in his job.\n",
    );
    write(r, "coach/cases/broken.md", "---\ntitle: no keywords field\n---\ntext\n");
    write(r, "coach/tools.yaml", "tools:\n  - read_state\n  - append_to_list\n");
    write(
        r,
        "coach/protocols/reset.yaml",
        "id: reset\nversion: 1\ntitle: 重置\ndescription: 一步。\nsteps:\n  - id: wake\n    title: 醒来\n    goal: g\n    opening: o\n    done_when: d\n    fields:\n      - {key: why, type: text, description: 为什么}\n",
    );
    write(
        r,
        "coach/protocols/broken.yaml",
        "id: broken\nversion: 1\ntitle: t\ndescription: d\nsteps: []\n",
    );
    write(r, "coach/references/guide.md", &"长".repeat(100));
    root
}

#[test]
fn parts_load_on_demand_and_broken_part_files_are_skipped() {
    let root = coach_root();
    let reg = open(None, Some(root.path()), None);
    let before = reg.stats().files_read;
    assert_eq!(before, 1, "the index reads SKILL.md frontmatter only");
    assert_eq!(reg.body("coach").unwrap().as_str(), "你是教练。\n");
    let rules: Vec<_> = reg.rules("coach").unwrap().iter().map(|r| r.id.clone()).collect();
    assert_eq!(rules, vec!["01-listen", "02-small-steps"]);
    assert_eq!(reg.scenario("coach", "first-chat").unwrap().body, "先问候。\n");
    let err = reg.scenario("coach", "nope").unwrap_err();
    assert_eq!(err.to_string(), "skill `coach` has no scenario named `nope` (known: first-chat)");
    let cases: Vec<_> = reg.cases("coach").unwrap().iter().map(|c| c.id.clone()).collect();
    assert_eq!(cases, vec!["breakup", "career", "overtime"], "the broken case is skipped");
    assert_eq!(
        reg.tools("coach").unwrap().unwrap().names().collect::<Vec<_>>(),
        vec!["read_state", "append_to_list"]
    );
    assert_eq!(reg.protocol("coach", "reset").unwrap().def.steps[0].id, "wake");
    let protocols: Vec<_> = reg.protocols("coach").unwrap().iter().map(|p| p.id.clone()).collect();
    assert_eq!(protocols, vec!["reset"], "the broken protocol is disabled, the other kept");
    let parts = reg.parts("coach").unwrap();
    assert_eq!(parts.cases.len(), 4);
    assert!(parts.tools);
}

#[test]
fn cases_match_chinese_and_english_messages() {
    let root = coach_root();
    let reg = open(None, Some(root.path()), None);
    let top = reg.match_cases("coach", "最近老是加班，特别焦虑，睡不好", 2).unwrap();
    assert_eq!(top[0].case.id, "overtime");
    let top = reg.match_cases("coach", "我失恋了", 1).unwrap();
    assert_eq!(top[0].case.id, "breakup");
    let top = reg.match_cases("coach", "I hate my job", 3).unwrap();
    assert_eq!(top[0].case.id, "career");
    assert!(reg.match_cases("coach", "今天天气", 3).unwrap().is_empty());

    write(
        root.path(),
        "coach/cases/weather.md",
        "---\ntitle: 天气与心情\nkeywords: [天气]\n---\n阴天让人低落。\n",
    );
    let top = reg.match_cases("coach", "今天天气", 3).unwrap();
    assert_eq!(top[0].case.id, "weather", "a new case file is indexed on the next match");
}

#[test]
fn only_changed_files_are_read_again() {
    let root = tempfile::tempdir().unwrap();
    for name in ["a", "b", "c"] {
        add_skill(root.path(), name, "first");
    }
    let reg = open(None, Some(root.path()), None);
    assert_eq!(reg.stats().files_read, 3);
    reg.body("a").unwrap();
    reg.body("a").unwrap();
    assert_eq!(reg.stats().files_read, 4, "a cached body is not read again");
    assert!(reg.refresh().is_empty());
    assert_eq!(reg.stats().files_read, 4, "a rescan of unchanged skills reads nothing");

    add_skill(root.path(), "b", "second version");
    let changes = reg.refresh();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0].name, "b");
    assert_eq!(reg.stats().files_read, 5, "only b's SKILL.md was read");
    assert_eq!(reg.skill("b").unwrap().meta.description, "second version");
    reg.body("a").unwrap();
    assert_eq!(reg.stats().files_read, 5);
}

#[test]
fn resources_are_scoped_to_the_skill_and_capped() {
    let root = coach_root();
    std::fs::write(root.path().join("secret.txt"), "outside").unwrap();
    let reg = Registry::open(RegistryConfig {
        user: Some(root.path().to_path_buf()),
        max_resource_bytes: 30,
        ..RegistryConfig::default()
    });
    for bad in ["../secret.txt", "/etc/passwd", "references/../../secret.txt"] {
        let err = reg.load_resource("coach", bad).unwrap_err();
        assert!(matches!(err, SkillsError::PathEscape { .. }), "{bad}: {err}");
    }
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            root.path().join("secret.txt"),
            root.path().join("coach/references/leak.md"),
        )
        .unwrap();
        let err = reg.load_resource("coach", "references/leak.md").unwrap_err();
        assert!(err.to_string().contains("a link pointing outside the skill folder"), "{err}");
    }
    let guide = reg.load_resource("coach", "references/guide.md").unwrap();
    assert!(guide.truncated);
    assert!(guide.text.starts_with(&"长".repeat(10)));
    assert!(
        guide
            .text
            .ends_with("[truncated: showing the first 30 of 300 bytes of references/guide.md]\n"),
        "{}",
        guide.text
    );
}
