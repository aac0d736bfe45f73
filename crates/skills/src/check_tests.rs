//! Deep checks of skill folders and roots, each finding at its file, line and column.

use super::*;

fn write(root: &Path, rel: &str, text: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn lines(report: &CheckReport, root: &Path) -> Vec<String> {
    report
        .problems
        .iter()
        .map(|p| p.to_string().replace(&format!("{}/", root.display()), ""))
        .collect()
}

#[test]
fn a_clean_skill_has_no_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(
        r,
        "good/SKILL.md",
        "---\nname: good\ndescription: d\ndefault_scenario: first\n---\nbody\n",
    );
    write(r, "good/scenarios/first.md", "---\ndescription: d\n---\nsteps\n");
    write(r, "good/tools.yaml", "tools: [read_state]\n");
    let report = check_path(&r.join("good"));
    assert!(report.problems.is_empty(), "{:?}", report.problems);
    assert_eq!(report.skills.len(), 1);
    assert!(report.skills[0].valid);
    assert!(
        check_path(&r.join("good/SKILL.md")).problems.is_empty(),
        "SKILL.md path means its folder"
    );
}

#[test]
fn every_part_is_checked_with_positions() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(r, "s/SKILL.md", "---\nname: s\ndescription: d\ndefault_scenario: missing\n---\nbody\n");
    write(r, "s/tools.yaml", "tools:\n  - read_mind\n");
    write(r, "s/protocols/reset.yaml", "steps: [a\n");
    write(r, "s/cases/a.md", "---\ntitle: t\n---\ntext\n");
    write(r, "s/rules/bin.md", [0xffu8, 0xfe]);
    write(r, "s/cases/notes.txt", "x");
    let report = check_path(r);
    assert!(report.has_errors());
    assert!(!report.skills[0].valid);
    let got = lines(&report, r);
    assert_eq!(got.len(), 6, "{got:#?}");
    assert!(
        got[0].starts_with(
            "s/SKILL.md:4:19: default_scenario `missing` has no file scenarios/missing.md"
        ),
        "{got:#?}"
    );
    assert_eq!(
        got[1],
        "s/cases/a.md:1:1: missing required field `keywords` (a list of words this case is about)"
    );
    assert_eq!(got[2], "s/cases/notes.txt:1:1: warning: not read: files in cases/ must end in .md");
    assert!(
        got[3].starts_with("s/protocols/reset.yaml:2:1: invalid YAML in protocol:"),
        "{got:#?}"
    );
    assert!(
        got[4].starts_with("s/rules/bin.md:1:1: cannot read: ")
            && got[4].contains("is not UTF-8 text"),
        "{got:#?}"
    );
    assert!(got[5].starts_with("s/tools.yaml:2:5: unknown built-in tool `read_mind`"), "{got:#?}");
}

#[test]
fn duplicate_names_within_a_root_are_errors_on_both() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(r, "a/bazi/SKILL.md", "---\nname: bazi\ndescription: d\n---\nbody\n");
    write(r, "b/bazi/SKILL.md", "---\ndescription: d\nname: bazi\n---\nbody\n");
    let got = lines(&check_path(r), r);
    assert_eq!(got.len(), 2);
    assert!(
        got[0].starts_with("a/bazi/SKILL.md:2:7: duplicate skill name `bazi` in this root"),
        "{got:?}"
    );
    assert!(
        got[1].starts_with("b/bazi/SKILL.md:3:7: duplicate skill name `bazi` in this root"),
        "{got:?}"
    );
}

#[test]
fn a_missing_folder_is_an_error() {
    let report = check_path(Path::new("/no/such/skills"));
    assert!(report.has_errors());
    assert!(report.problems[0].to_string().contains("no such folder"));
}

#[test]
fn protocol_definitions_are_checked_against_the_format() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(r, "s/SKILL.md", "---\nname: s\ndescription: d\n---\nbody\n");
    write(
        r,
        "s/protocols/reset.yaml",
        "id: reset\nversion: 1\ntitle: t\ndescription: d\nsteps:\n  - id: a\n    title: t\n    goal: g\n    opening: o\n    done_when: d\n    fields:\n      - {key: k, type: txt, description: d}\n",
    );
    let report = check_path(r);
    let got = lines(&report, r);
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(
        got[0],
        "s/protocols/reset.yaml:12:24: steps[0].fields[0].type must be one of text, list, number, boolean, found \"txt\""
    );
    assert!(!report.skills[0].valid);
}

#[test]
fn every_file_that_cannot_be_read_is_reported_with_its_path() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    let mut skill = b"---\nname: odd\ndescription: d\n---\nbody \xff\xfe not text\n".to_vec();
    write(r, "odd/SKILL.md", &skill);
    write(r, "odd/rules/huge.md", "x".repeat(MAX_PART_BYTES as usize + 1));
    write(r, "odd/rules/fine.md", "---\ndescription: d\n---\nrule\n");
    write(r, "odd/scripts/ok.sh", "echo ok\n");
    std::fs::create_dir_all(r.join("odd/references")).unwrap();
    std::os::unix::fs::symlink(r.join("odd/scripts/gone.sh"), r.join("odd/scripts/run.sh"))
        .unwrap();
    std::os::unix::fs::symlink("/etc/hostname", r.join("odd/references/host.txt")).unwrap();
    let fifo = r.join("odd/references/pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let report = check_path(&r.join("odd"));
    let found = lines(&report, r);
    let has = |needle: &str| found.iter().any(|l| l.contains(needle));
    assert!(
        found.iter().any(|l| l.starts_with("odd/SKILL.md") && l.contains("not UTF-8 text")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|l| l.starts_with("odd/rules/huge.md") && l.contains("larger than")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|l| l.starts_with("odd/scripts/run.sh") && l.contains("missing")),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|l| l.starts_with("odd/references/host.txt") && l.contains("leaves")),
        "{found:#?}"
    );
    assert!(
        found
            .iter()
            .any(|l| l.starts_with("odd/references/pipe") && l.contains("not a regular file")),
        "{found:#?}"
    );
    assert!(!has("ok.sh") && !has("fine.md"), "{found:#?}");
    assert!(!report.skills[0].valid);

    // A SKILL.md over the cap is reported too, not skipped.
    skill = b"---\nname: odd\ndescription: d\n---\n".to_vec();
    skill.extend(std::iter::repeat_n(b'y', MAX_PART_BYTES as usize));
    write(r, "odd/SKILL.md", &skill);
    let found = lines(&check_path(&r.join("odd")), r);
    assert!(
        found.iter().any(|l| l.starts_with("odd/SKILL.md") && l.contains("larger than")),
        "{found:#?}"
    );
}

#[test]
fn a_yaml_alias_in_skill_md_is_an_error_at_the_alias() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(r, "s/SKILL.md", "---\nname: s\nx: &d 人生教练\ndescription: *d\n---\nbody\n");
    let report = check_path(&r.join("s"));
    assert!(report.has_errors() && !report.skills[0].valid, "{:?}", report.problems);
    let got = lines(&report, r);
    assert!(
        got.iter().any(|l| l.starts_with("s/SKILL.md:4:14: ") && l.contains("aliases")),
        "{got:#?}"
    );
}

#[test]
fn a_bad_prompts_file_is_a_problem_naming_file_and_item() {
    let tmp = tempfile::tempdir().unwrap();
    let r = tmp.path();
    write(r, "p/SKILL.md", "---\nname: p\ndescription: d\n---\nbody\n");
    write(r, "p/prompts.yaml", "daily:\n  - zh: 今天怎么样？\n  - en: No Chinese\n");
    let report = check_path(&r.join("p"));
    assert_eq!(
        lines(&report, r),
        vec!["p/prompts.yaml:3:5: item 2 of `daily` needs its Chinese text in `zh`"]
    );
    assert!(!report.skills[0].valid, "an error in prompts.yaml makes the skill invalid");
}
