//! `vibe skills compute NAME` against a real data dir and the built-in skills: the chart is
//! computed from `birth_info`, stored at `skills.<NAME>.chart`, reused until `birth_info`
//! changes, and bad or missing birth info fails with one line naming the field (bad birth
//! info already when it is set).

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

use std::path::Path;

use serde_json::{Value, json};

use crate::support::{ok_json_in, run, write};

/// The one `error: ...` line of a failed command.
fn error_line(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(!out.status.success(), "{args:?} should fail");
    let stderr = String::from_utf8_lossy(&out.stderr).trim().to_string();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

fn set_birth(dir: &Path, birth: Value) {
    ok_json_in(dir, &["profile", "set", "birth_info", &birth.to_string()]);
}

fn mao() -> Value {
    json!({"date": "1893-12-26", "time": "08:00", "place": "韶山", "timezone": "Asia/Shanghai"})
}

#[test]
fn bazi_chart_is_computed_stored_and_reused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(d, mao());

    let first = ok_json_in(d, &["skills", "compute", "bazi"]);
    assert_eq!(first["recomputed"], true);
    assert_eq!(first["compute_type"], "bazi");
    assert_eq!(
        first["chart"]["pillars"],
        json!({"year": "癸巳", "month": "甲子", "day": "丁酉", "hour": "甲辰"})
    );
    let profile = ok_json_in(d, &["profile", "show"]);
    assert_eq!(profile["skills"]["bazi"]["chart"], first["chart"]);

    let again = ok_json_in(d, &["skills", "compute", "bazi"]);
    assert_eq!(again["recomputed"], false);
    assert_eq!(again["chart"], first["chart"]);

    ok_json_in(d, &["profile", "set", "birth_info.time", "\"10:00\""]);
    let changed = ok_json_in(d, &["skills", "compute", "bazi"]);
    assert_eq!(changed["recomputed"], true);
    assert_eq!(changed["chart"]["pillars"]["hour"], "乙巳");

    let forced = ok_json_in(d, &["skills", "compute", "bazi", "--force"]);
    assert_eq!(forced["recomputed"], true);
}

#[test]
fn zodiac_chart_has_lowercase_signs_with_display_names() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(
        d,
        json!({"date": "1926-04-21", "time": "02:40", "place": "London", "timezone": "Europe/London"}),
    );
    let out = ok_json_in(d, &["skills", "compute", "zodiac"]);
    assert_eq!(out["chart"]["sun_sign"], "taurus");
    assert_eq!(out["chart"]["moon_sign"], "leo");
    assert_eq!(out["chart"]["sun_sign_display"], json!({"zh": "金牛座", "en": "Taurus"}));
    assert_eq!(out["path"], "skills.zodiac.chart");
}

#[test]
fn text_output_shows_the_pillars() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(d, mao());
    let out = run(d, &["skills", "compute", "bazi"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("年柱 癸巳  月柱 甲子  日柱 丁酉  时柱 甲辰"), "{text}");
    assert!(text.contains("computed now"), "{text}");
}

#[test]
fn missing_birth_info_says_how_to_set_it() {
    let dir = tempfile::tempdir().unwrap();
    let line = error_line(dir.path(), &["skills", "compute", "bazi"]);
    assert!(line.starts_with("error: birth_info is missing:"), "{line}");
    assert!(line.contains("vibe profile set birth_info '{\"date\""), "{line}");
}

#[test]
fn malformed_birth_info_is_refused_when_set_and_the_chart_stays() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(d, mao());
    let chart = ok_json_in(d, &["skills", "compute", "bazi"])["chart"].clone();
    let before = ok_json_in(d, &["profile", "show"]);
    let bad = json!({"date": "1990-05-17", "time": "08:30", "timezone": "Mars/Base"});
    let line = error_line(d, &["profile", "set", "birth_info", &bad.to_string()]);
    assert_eq!(
        line,
        "error: birth_info.timezone: \"Mars/Base\" is not an IANA time zone name (e.g. \"Asia/Shanghai\")"
    );
    let line = error_line(d, &["profile", "set", "birth_info.date", "\"1990-02-30\""]);
    assert!(
        line.starts_with("error: birth_info.date: \"1990-02-30\" is not a valid date"),
        "{line}"
    );
    let line = error_line(d, &["profile", "set", "birth_info.time", "\"8:75\""]);
    assert!(line.starts_with("error: birth_info.time: \"8:75\" is not a valid time"), "{line}");
    assert_eq!(ok_json_in(d, &["profile", "show"]), before, "nothing changed");
    let again = ok_json_in(d, &["skills", "compute", "bazi"]);
    assert_eq!((again["recomputed"].as_bool(), &again["chart"]), (Some(false), &chart));
}

#[test]
fn skills_without_a_chart_and_unknown_skills_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    set_birth(d, mao());
    let line = error_line(d, &["skills", "compute", "tarot"]);
    assert!(line.contains("skill tarot has no chart to compute"), "{line}");
    let line = error_line(d, &["skills", "compute", "no-such-skill"]);
    assert!(line.contains("no skill named `no-such-skill`"), "{line}");
}

#[test]
fn a_user_skill_uses_its_own_compute_type_and_slot() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "skills/moon-notes/SKILL.md",
        "---\nname: moon-notes\ndescription: 月亮星座笔记\nrequires_compute: true\ncompute_type: zodiac\n---\n\n# 月亮笔记\n",
    );
    set_birth(d, mao());
    let out = ok_json_in(d, &["skills", "compute", "moon-notes"]);
    assert_eq!(out["compute_type"], "zodiac");
    assert_eq!(out["chart"]["sun_sign"], "capricorn");
    let profile = ok_json_in(d, &["profile", "show"]);
    assert_eq!(profile["skills"]["moon-notes"]["chart"]["compute_type"], "zodiac");
}
