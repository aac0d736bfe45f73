//! The PDF report of a completed dankoe run with Chinese and English data: its text (read
//! back with poppler's `pdftotext`) holds every step title and collected value, and the
//! layout keeps every line inside the page's margins, breaking onto new pages.

use std::process::Command;

use super::*;
use crate::report::tests::completed_run;
use crate::report::{render_report, report_json};
use crate::{ReportFormat, pdf_font::ReportFont};
use vibe_store::step_key;

const ENGLISH: &str = "I want a calm morning routine: write for one hour, then walk by the river \
                       before work starts, and keep weekends free for family.";
const LONG_CHINESE: &str = "我希望五年后的每个星期二都能在安静的早晨写作两个小时，\
                            然后去河边散步，再开始一天的工作，周末留给家人和朋友。";

/// A completed run whose data mixes Chinese with English and long paragraphs.
fn mixed_run() -> (crate::engine::tests::Fx, vibe_store::ProtocolRun) {
    let (fx, mut run) = completed_run();
    run.data[step_key(3)]["tuesday_in_3_years"] = LONG_CHINESE.into();
    run.data[step_key(3)]["this_week_action"] = "Write one essay 写一篇文章".into();
    run.data[step_key(5)]["vision_sentence"] = ENGLISH.into();
    (fx, run)
}

fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn the_pdf_holds_every_step_title_and_collected_value() {
    let (fx, run) = mixed_run();
    let source = fx.engine.definition(&run).unwrap();
    let def = &source.def;
    let pdf = render_report(def, &run, "2026-01-20T22:00:00.000Z", ReportFormat::Pdf).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("report.pdf");
    std::fs::write(&file, &pdf).unwrap();
    let Ok(out) = Command::new("pdftotext").arg("-enc").arg("UTF-8").arg(&file).arg("-").output()
    else {
        vibe_test_support::skip(
            "vibe-protocol pdf::tests::the_pdf_holds_every_step_title_and_collected_value",
            "pdftotext (poppler-utils) is not installed",
        );
        return;
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Wrapped lines come back with line breaks in between: compare without whitespace.
    let text = squeeze(&String::from_utf8(out.stdout).unwrap());
    let doc = report_json(def, &run, "2026-01-20T22:00:00.000Z");
    let mut expected = vec![
        s(&doc, "title").to_string(),
        "dankoe".to_string(),
        "scripted-coach".to_string(),
        "completed".to_string(),
        "2026-01-20T22:00:00.000Z".to_string(),
    ];
    for step in doc["steps"].as_array().unwrap() {
        expected.push(s(step, "title").to_string());
        expected.push(s(step, "summary").to_string());
        for f in step["fields"].as_array().unwrap() {
            expected.push(s(f, "label").to_string());
            expected.extend(text_of(&f["value"]));
        }
    }
    for section in doc["sections"].as_array().unwrap() {
        expected.push(s(section, "title").to_string());
        for item in section["items"].as_array().unwrap() {
            expected.extend(text_of(&item["value"]));
        }
    }
    assert!(expected.iter().any(|e| e == ENGLISH) && expected.iter().any(|e| e == LONG_CHINESE));
    for want in expected {
        assert!(text.contains(&squeeze(&want)), "missing {want:?} in the PDF text:\n{text}");
    }
}

#[test]
fn lines_stay_inside_the_margins_and_long_reports_break_onto_new_pages() {
    let font = ReportFont::system().unwrap();
    let mut paras = vec![(Style::Title, "很长的报告 A long report".to_string())];
    for n in 0..40 {
        paras.push((Style::Subheading, format!("{n}. 第 {n} 步")));
        paras.push((Style::Body, format!("{LONG_CHINESE} {ENGLISH}")));
    }
    let pages = layout(&paras, &font).unwrap();
    assert!(pages.len() > 3, "{} pages", pages.len());
    let mut lines = 0;
    for marks in &pages {
        for mark in marks {
            let Mark::Text { x, baseline, style, text } = mark else { continue };
            let advance = font.advances(style.size()).unwrap();
            let width: f32 = text.chars().map(&advance).sum();
            assert!(x + width <= PAGE_W - MARGIN_X + 0.01, "too wide: {text}");
            assert!(*baseline <= PAGE_H - MARGIN_BOTTOM && *baseline > MARGIN_TOP, "{text}");
            lines += 1;
        }
    }
    assert!(lines > 40 * 4, "the body paragraphs wrap onto several lines ({lines})");
    // A heading never ends a page.
    for marks in &pages {
        let last = marks.iter().rev().find_map(|m| match m {
            Mark::Text { style, .. } => Some(*style),
            Mark::Bar { .. } => None,
        });
        assert_eq!(last, Some(Style::Body));
    }
}
