//! `vibe skills` against real folders: list/show with precedence and the Agent Skills fixture,
//! check (exit codes, `path:line:col` lines), new, cases, and the built-in skills.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers outside #[test] fns

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

use crate::support::{self, in_dir, write};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture_root() -> PathBuf {
    repo().join("crates/skills/tests/fixtures/agent-skills")
}

/// Run `vibe --data-dir DATA ...` with the built-in root set to `builtin`.
fn in_data_dir(data: &Path, builtin: &Path) -> Command {
    let mut cmd = in_dir(data);
    cmd.env("VIBE_BUILTIN_SKILLS_DIR", builtin);
    cmd
}

fn vibe(data: &Path, builtin: &Path, args: &[&str]) -> Output {
    in_data_dir(data, builtin).args(args).output().unwrap()
}

fn ok_json(data: &Path, builtin: &Path, args: &[&str]) -> Value {
    support::ok_json(&mut in_data_dir(data, builtin), args)
}

fn row<'a>(list: &'a Value, name: &str) -> &'a Value {
    list["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {list}"))
}

#[test]
fn list_shows_the_agent_skills_fixture_and_precedence() {
    let data = tempfile::tempdir().unwrap();
    let list = ok_json(data.path(), &fixture_root(), &["skills", "list"]);
    let pdf = row(&list, "pdf-processing");
    assert_eq!((pdf["root"].as_str(), pdf["valid"].as_bool()), (Some("builtin"), Some(true)));
    assert!(
        pdf["description"].as_str().unwrap().starts_with("Extract text and tables from PDF files")
    );
    assert_eq!(pdf["problems"], serde_json::json!([]), "the Agent Skills fixture loads unchanged");

    write(
        data.path(),
        "skills/pdf-processing/SKILL.md",
        "---\nname: pdf-processing\ndescription: my own pdf skill\n---\nbody\n",
    );
    let list = ok_json(data.path(), &fixture_root(), &["skills", "list"]);
    let pdf = row(&list, "pdf-processing");
    assert_eq!(pdf["root"], "user");
    assert_eq!(pdf["valid"], true);
    assert_eq!(pdf["shadows"][0]["root"], "builtin");

    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "pdf-processing/SKILL.md",
        "---\nname: pdf-processing\ndescription: project pdf\n---\nbody\n",
    );
    let dir = project.path().to_str().unwrap();
    let list = ok_json(data.path(), &fixture_root(), &["skills", "--skills-dir", dir, "list"]);
    let pdf = row(&list, "pdf-processing");
    assert_eq!(
        (pdf["root"].as_str(), pdf["description"].as_str()),
        (Some("project"), Some("project pdf"))
    );
    assert_eq!(pdf["shadows"].as_array().unwrap().len(), 2);

    std::fs::write(
        data.path().join("settings.json"),
        serde_json::json!({"skills": {"extra_dir": dir}}).to_string(),
    )
    .unwrap();
    let list = ok_json(data.path(), &fixture_root(), &["skills", "list"]);
    assert_eq!(
        row(&list, "pdf-processing")["root"],
        "project",
        "settings skills.extra_dir is the project root"
    );
    std::fs::write(data.path().join("settings.json"), r#"{"skills": {"extra_dir": 5}}"#).unwrap();
    let out = vibe(data.path(), &fixture_root(), &["skills", "list"]);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("settings.json: the \"skills\" section is invalid")
    );
    std::fs::remove_file(data.path().join("settings.json")).unwrap();

    let text = vibe(data.path(), &fixture_root(), &["skills", "list", "--skills-dir", dir]);
    let stdout = String::from_utf8_lossy(&text.stdout);
    assert!(
        stdout.contains("pdf-processing") && stdout.contains("shadows: user, builtin"),
        "{stdout}"
    );
}

#[test]
fn show_lists_a_skills_daily_prompts_and_starters() {
    let data = tempfile::tempdir().unwrap();
    let builtin = repo().join("skills");
    let shown = ok_json(data.path(), &builtin, &["skills", "show", "lifecoach"]);
    let daily = shown["parts"]["daily_prompts"].as_array().unwrap();
    assert!(daily.len() >= 5, "{daily:?}");
    assert_eq!(daily[0]["zh"], "今天有哪一刻，让你觉得“这就是我想要的生活”？");
    assert_eq!(daily[0]["en"], "Which moment today felt like the life you want?");
    assert!(!shown["parts"]["starters"].as_array().unwrap().is_empty());

    let out = vibe(data.path(), &builtin, &["skills", "show", "lifecoach"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(&format!("daily      prompts.yaml ({})", daily.len())), "{text}");
    assert!(text.contains("今天你为自己做了哪一件小事？ / What is one small thing"), "{text}");

    // A skill without prompts.yaml lists none.
    let shown = ok_json(data.path(), &fixture_root(), &["skills", "show", "pdf-processing"]);
    assert_eq!(shown["parts"]["daily_prompts"], serde_json::json!([]));
}

#[test]
fn show_lists_metadata_parts_and_resources() {
    let data = tempfile::tempdir().unwrap();
    let shown = ok_json(data.path(), &fixture_root(), &["skills", "show", "pdf-processing"]);
    assert_eq!(shown["meta"]["license"], "Apache-2.0");
    assert_eq!(shown["meta"]["allowed-tools"][0], "Bash(python:*)");
    let resources: Vec<&str> = shown["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        resources,
        vec!["assets/form-template.txt", "references/REFERENCE.md", "scripts/extract.py"]
    );
    assert_eq!(shown["parts"]["tools"], false);

    let out = vibe(data.path(), &fixture_root(), &["skills", "show", "nope"]);
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: no skill named `nope`; run `vibe skills list` to see the available skills"
    );
}

#[test]
fn check_passes_on_the_built_in_skills() {
    let data = tempfile::tempdir().unwrap();
    let builtin = repo().join("skills");
    let out = vibe(data.path(), &builtin, &["skills", "check", builtin.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("checked 6 skill(s): 0 error(s)"), "{stdout}");
}

#[test]
fn check_fails_with_positioned_findings() {
    let data = tempfile::tempdir().unwrap();
    let bad = tempfile::tempdir().unwrap();
    write(
        bad.path(),
        "bazi/SKILL.md",
        "---\nname: Bazi\ndescription: d\ncompute_type: astro\n---\nbody\n",
    );
    write(bad.path(), "good/SKILL.md", "---\nname: good\ndescription: fine\n---\nbody\n");
    let root = bad.path().to_str().unwrap();
    let out = vibe(data.path(), &fixture_root(), &["skills", "check", root]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let file = bad.path().join("bazi/SKILL.md");
    assert!(stdout.contains(&format!("{}:2:7: invalid name `Bazi`", file.display())), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "{}:4:15: unknown compute_type `astro` (known: bazi, zodiac)",
            file.display()
        )),
        "{stdout}"
    );
    assert!(stdout.contains("checked 2 skill(s): 2 error(s)"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: 2 error(s) in skill files"));

    let out = vibe(data.path(), &fixture_root(), &["--json", "skills", "check", root]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((report["ok"].as_bool(), report["errors"].as_u64()), (Some(false), Some(2)));
    assert_eq!(report["problems"][0]["line"], 2);

    let good = bad.path().join("good");
    assert!(
        vibe(data.path(), &fixture_root(), &["skills", "check", good.to_str().unwrap()])
            .status
            .success()
    );
}

#[test]
fn check_names_the_file_and_item_of_a_bad_prompts_file() {
    let data = tempfile::tempdir().unwrap();
    let bad = tempfile::tempdir().unwrap();
    write(bad.path(), "coach/SKILL.md", "---\nname: coach\ndescription: d\n---\nbody\n");
    write(bad.path(), "coach/prompts.yaml", "starters:\n  - zh: 聊聊今天\n  - en: Only English\n");
    let dir = bad.path().join("coach");
    let out = vibe(data.path(), &fixture_root(), &["skills", "check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let file = dir.join("prompts.yaml");
    assert!(
        stdout.contains(&format!(
            "{}:3:5: item 2 of `starters` needs its Chinese text in `zh`",
            file.display()
        )),
        "{stdout}"
    );
}

#[test]
fn new_scaffolds_a_valid_skill_in_the_user_root() {
    let data = tempfile::tempdir().unwrap();
    let created = ok_json(data.path(), &fixture_root(), &["skills", "new", "journal"]);
    let dir = data.path().join("skills/journal");
    assert_eq!(Path::new(created["dir"].as_str().unwrap()), dir);
    assert!(
        vibe(data.path(), &fixture_root(), &["skills", "check", dir.to_str().unwrap()])
            .status
            .success()
    );
    let list = ok_json(data.path(), &fixture_root(), &["skills", "list"]);
    assert_eq!(row(&list, "journal")["root"], "user");

    let again = vibe(data.path(), &fixture_root(), &["skills", "new", "journal"]);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let bad = vibe(data.path(), &fixture_root(), &["skills", "new", "My_Skill"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("invalid skill name `My_Skill`"));
}

#[test]
fn cases_shows_matches_for_chinese_and_english_messages() {
    let data = tempfile::tempdir().unwrap();
    write(data.path(), "skills/coach/SKILL.md", "---\nname: coach\ndescription: 教练\n---\nbody\n");
    write(
        data.path(),
        "skills/coach/cases/overtime.md",
        "---\ntitle: 加班后的焦虑\nkeywords: [焦虑, 加班]\n---\n连续加班。\n",
    );
    write(
        data.path(),
        "skills/coach/cases/career.md",
        "---\ntitle: Changing careers\nkeywords: [career, job]\n---\nStuck in a job.\n",
    );
    let found =
        ok_json(data.path(), &fixture_root(), &["skills", "cases", "coach", "最近加班好焦虑"]);
    assert_eq!(found["matches"][0]["id"], "overtime");
    let out = vibe(
        data.path(),
        &fixture_root(),
        &["skills", "cases", "coach", "I want a new job", "-k", "1"],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("1. career  Changing careers"), "{stdout}");
    let none = vibe(data.path(), &fixture_root(), &["skills", "cases", "coach", "天气"]);
    assert_eq!(
        String::from_utf8_lossy(&none.stdout).trim(),
        "no case of `coach` matches this message"
    );
}
