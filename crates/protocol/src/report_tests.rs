//! Reports of a completed dankoe run: every step's data in Markdown, HTML and JSON (insta
//! snapshots), the metadata each report records, and HTML that loads nothing from the network.

use super::*;
use crate::Advance;
use crate::engine::tests::{Fx, dankoe_step};

pub(crate) fn completed_run() -> (Fx, ProtocolRun) {
    let fx = Fx::new();
    let (mut run, _) = fx.engine.start(None, "dankoe", None, Some("scripted-coach")).unwrap();
    // Fixed ids keep the snapshots stable.
    run.id = "run-1".into();
    for n in 1..=6 {
        match fx
            .engine
            .advance("lifecoach", &dankoe_step(n), Some(&format!("第 {n} 步小结")))
            .unwrap()
        {
            Advance::Completed { run: done, .. } => {
                run = ProtocolRun { id: "run-1".into(), ..done }
            }
            Advance::Advanced { .. } => {}
            other => panic!("{other:?}"),
        }
    }
    (fx, run)
}

fn render(format: ReportFormat) -> String {
    let (fx, run) = completed_run();
    let def = fx.engine.definition(&run).unwrap();
    String::from_utf8(render_report(&def.def, &run, "2026-01-20T22:00:00.000Z", format).unwrap())
        .unwrap()
}

#[test]
fn markdown_report_holds_every_step() {
    let md = render(ReportFormat::Markdown);
    for n in 1..=6 {
        assert!(md.contains(&format!("第 {n} 步小结")), "{md}");
    }
    insta::assert_snapshot!(md);
}

#[test]
fn html_report_is_self_contained_and_printable() {
    let html = render(ReportFormat::Html);
    assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("<link"));
    assert!(html.contains("Noto Sans CJK SC") && html.contains("@media print"));
    insta::assert_snapshot!(html);
}

#[test]
fn json_report_has_a_schema_version_and_every_field() {
    let json: serde_json::Value = serde_json::from_str(&render(ReportFormat::Json)).unwrap();
    assert_eq!(json["schema_version"], REPORT_SCHEMA_VERSION);
    assert_eq!(json["protocol"]["version"], 2);
    assert_eq!(json["run"]["model"], "scripted-coach");
    assert_eq!(json["steps"].as_array().unwrap().len(), 6);
    insta::assert_json_snapshot!(json);
}
