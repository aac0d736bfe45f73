//! `vibe today` and `vibe insights` against a real data dir (issue 31): the day shown with
//! its check-ins, streak and question, the week's numbers and mood by day, in `--json` and
//! as text; a bad date or range is refused.

use crate::support::{ok_json_in, run};

fn text(d: &std::path::Path, args: &[&str]) -> String {
    let out = run(d, args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_fresh_today_invites_a_first_check_in() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let view = ok_json_in(d, &["today"]);
    assert_eq!(view["checkins"], serde_json::json!([]));
    assert_eq!(view["streak"]["days"], 0);
    let human = text(d, &["today"]);
    assert!(human.contains("check-ins: none yet today — `vibe checkin --mood 4`"), "{human}");
    assert!(human.contains("streak: none yet"), "{human}");
}

#[test]
fn today_and_insights_show_the_check_ins_of_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_json_in(d, &["checkin", "--mood", "3", "--date", "2026-11-27"]);
    ok_json_in(d, &["checkin", "--mood", "5", "--feelings", "平静", "--date", "2026-11-28"]);
    ok_json_in(d, &["journal", "add", "和朋友爬山", "--date", "2026-11-28"]);

    let view = ok_json_in(d, &["today", "--date", "2026-11-28"]);
    assert_eq!(view["date"], "2026-11-28");
    assert_eq!(view["checkins"].as_array().unwrap().len(), 1);
    assert_eq!(view["journal"][0]["text"], "和朋友爬山");
    assert_eq!(view["streak"], serde_json::json!({"days": 2, "today_done": true, "longest": 2}));
    assert_eq!(view["prompt"]["skill"], "lifecoach");
    let human = text(d, &["today", "--date", "2026-11-28", "--lang", "en"]);
    assert!(human.contains("streak: 2 day(s) in a row, today included · longest 2"), "{human}");
    assert!(human.contains("  mood 5/5 · 平静"), "{human}");
    assert!(human.contains("today's question (lifecoach): "), "{human}");
    let next = text(d, &["today", "--date", "2026-11-29"]);
    assert!(next.contains("check in today to keep it"), "{next}");

    let insights = ok_json_in(d, &["insights", "--range", "week", "--until", "2026-11-28"]);
    assert_eq!(insights["since"], "2026-11-22");
    assert_eq!(insights["days"].as_array().unwrap().len(), 7);
    assert_eq!(insights["mood_points"].as_array().unwrap().len(), 2);
    assert_eq!(insights["week"]["checkins"], 2);
    assert_eq!(insights["week"]["mood_mode"], 5, "3 and 5 once each: the higher");
    assert_eq!(insights["feelings"], serde_json::json!([{"feeling": "平静", "count": 1}]));
    let human = text(d, &["insights", "--range", "week", "--until", "2026-11-28"]);
    assert!(
        human.contains(
            "this week (2026-11-22 – 2026-11-28): 2 check-ins, 1 journal entry, 2 active days, mood mostly 5 (mean 4.0)"
        ),
        "{human}"
    );
    assert!(human.contains("  2026-11-28  5.0 █████"), "{human}");
    assert!(human.contains("active days: 2 of 7 (2 check-ins, 1 other entries)"), "{human}");
    let year = ok_json_in(d, &["insights", "--range", "year", "--until", "2026-11-28"]);
    assert_eq!(year["days"].as_array().unwrap().len(), 365);
}

#[test]
fn a_bad_date_or_range_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (args, says) in [
        (vec!["insights", "--until", "tomorrow"], "until \"tomorrow\" is not a date"),
        (vec!["today", "--date", "28.11.2026"], "write it as YYYY-MM-DD"),
        (vec!["insights", "--range", "decade"], "invalid value 'decade'"),
    ] {
        let out = run(d, &args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn the_week_in_the_coachs_words_is_made_from_its_figures_only() {
    use vibe_test_support::{FakeServer, Reply, ev_finish, ev_text, sse};
    let server = FakeServer::start();
    server.push(Reply::sse(sse(vec![
        ev_text("A steady week: five check-ins, "),
        ev_text("and your mood rose from 3.0 to 4.0."),
        ev_finish("stop"),
    ])));
    server.push(Reply::sse(sse(vec![ev_finish("stop")])));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok_json_in(d, &["checkin", "--mood", "3", "--date", "2026-11-20"]);
    ok_json_in(
        d,
        &["checkin", "--mood", "4", "--note", "SECRET-NOTE 爬山", "--date", "2026-11-27"],
    );
    ok_json_in(d, &["journal", "add", "PRIVATE-ENTRY 和朋友聊天", "--date", "2026-11-28"]);
    let words = |lang: &str| {
        crate::support::in_dir(d)
            .env("VIBE_LLM_BASE_URL", server.url())
            .env("VIBE_LLM_MODEL", "coach")
            .args(["--json", "insights", "--words", "--until", "2026-11-28", "--lang", lang])
            .output()
            .unwrap()
    };
    let out = words("en");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["text"], "A steady week: five check-ins, and your mood rose from 3.0 to 4.0.");
    assert_eq!(v["week"]["checkins"], 1);
    assert_eq!(v["week"]["previous_mood_mean"], 3.0);
    // What reached the model: the figures, asked for in English; no entry's words.
    let request = server.requests()[0].json().to_string();
    assert!(request.contains("打卡：1 次") && request.contains("English"), "{request}");
    assert!(request.contains("上一周平均心情：3.0"), "{request}");
    for private in ["SECRET-NOTE", "爬山", "PRIVATE-ENTRY", "和朋友聊天"] {
        assert!(!request.contains(private), "{private} was sent: {request}");
    }
    // An empty answer is an error that says the card's own summary stands.
    let out = words("zh-CN");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the model answered nothing"), "{err}");
}
