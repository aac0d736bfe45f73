//! The PDF report: lays the report document (`report::report_json`, the same content as the
//! Markdown and HTML reports) out as paragraphs on A4 pages with margins, page breaks and
//! page numbers, and draws them with `krilla` in an installed CJK font (subset into the file).
//! Finding and measuring the font is `pdf_font`'s; line breaking is `pdf_wrap`'s.

use krilla::Document;
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::text::{Font, TextDirection};
use serde_json::Value;

use super::pdf_font::{PdfError, ReportFont};
use super::pdf_wrap::wrap;
use super::report_doc::{meta_line, s, text_of};

/// A4 in points, and its margins.
const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
const MARGIN_X: f32 = 56.0;
const MARGIN_TOP: f32 = 56.0;
const MARGIN_BOTTOM: f32 = 64.0;
/// Line height as a multiple of the font size.
const LEADING: f32 = 1.55;

const INK: (u8, u8, u8) = (0x22, 0x22, 0x22);
const GREY: (u8, u8, u8) = (0x66, 0x66, 0x66);
const RULE: (u8, u8, u8) = (0xcc, 0xcc, 0xcc);

/// The kinds of paragraph, each with its size, colour, indent and space before.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Style {
    Title,
    Meta,
    Heading,
    Subheading,
    Body,
    Item,
    Quote,
}

impl Style {
    fn size(self) -> f32 {
        match self {
            Self::Title => 20.0,
            Self::Heading => 15.0,
            Self::Subheading => 12.5,
            Self::Meta => 9.0,
            Self::Body | Self::Item | Self::Quote => 10.5,
        }
    }
    fn color(self) -> (u8, u8, u8) {
        if matches!(self, Self::Meta | Self::Quote) { GREY } else { INK }
    }
    fn indent(self) -> f32 {
        match self {
            Self::Item => 22.0,
            Self::Quote => 12.0,
            _ => 0.0,
        }
    }
    fn space_before(self) -> f32 {
        match self {
            Self::Title => 0.0,
            Self::Heading => 18.0,
            Self::Subheading => 12.0,
            Self::Meta | Self::Quote => 4.0,
            Self::Body | Self::Item => 2.0,
        }
    }
    fn is_heading(self) -> bool {
        matches!(self, Self::Title | Self::Heading | Self::Subheading)
    }
}

/// The report's paragraphs in reading order (the Markdown report's structure).
fn paragraphs(doc: &Value) -> Vec<(Style, String)> {
    let mut out = vec![(Style::Title, s(doc, "title").to_string()), (Style::Meta, meta_line(doc))];
    for section in doc["sections"].as_array().into_iter().flatten() {
        out.push((Style::Heading, s(section, "title").to_string()));
        for item in section["items"].as_array().into_iter().flatten() {
            let label = item.get("label").and_then(Value::as_str).unwrap_or(s(item, "field"));
            let values = text_of(&item["value"]);
            if values.len() == 1 {
                out.push((Style::Body, format!("{label}：{}", values[0])));
            } else {
                out.push((Style::Body, format!("{label}：")));
                out.extend(values.into_iter().map(|v| (Style::Item, format!("• {v}"))));
            }
        }
    }
    out.push((Style::Heading, "全部步骤".to_string()));
    for step in doc["steps"].as_array().into_iter().flatten() {
        out.push((Style::Subheading, format!("{}. {}", step["step"], s(step, "title"))));
        if let Some(summary) = step.get("summary").and_then(Value::as_str) {
            out.push((Style::Quote, summary.to_string()));
        }
        for f in step["fields"].as_array().into_iter().flatten() {
            let text = text_of(&f["value"]).join("；");
            out.push((Style::Body, format!("{}（{}）：{text}", s(f, "label"), s(f, "key"))));
        }
        if let Some(Value::Object(answers)) = step.get("reminders") {
            for (at, a) in answers {
                let line = format!("提醒 {at}「{}」：{}", s(a, "question"), s(a, "answer"));
                out.push((Style::Body, line));
            }
        }
    }
    out
}

/// One thing drawn on a page: a line of text at its baseline, or a filled rectangle.
#[derive(Debug, Clone, PartialEq)]
enum Mark {
    Text { x: f32, baseline: f32, style: Style, text: String },
    Bar { rect: (f32, f32, f32, f32), color: (u8, u8, u8) },
}

/// The paragraphs wrapped and split into pages.
fn layout(paras: &[(Style, String)], font: &ReportFont) -> Result<Vec<Vec<Mark>>, PdfError> {
    let width = PAGE_W - 2.0 * MARGIN_X;
    let bottom = PAGE_H - MARGIN_BOTTOM;
    let body_line = Style::Body.size() * LEADING;
    let mut pages = vec![Vec::new()];
    let mut y = MARGIN_TOP;
    for (style, text) in paras {
        let advance = font.advances(style.size())?;
        let lines = wrap(text, width - style.indent(), &advance);
        let line_h = style.size() * LEADING;
        // A heading keeps its first line and the next paragraph's first line on its page.
        let needed = style.space_before()
            + line_h * if style.is_heading() { lines.len() as f32 } else { 1.0 }
            + if style.is_heading() { body_line * 2.0 } else { 0.0 };
        if y > MARGIN_TOP && y + needed > bottom {
            pages.push(Vec::new());
            y = MARGIN_TOP;
        }
        if y > MARGIN_TOP {
            y += style.space_before();
        }
        for line in lines {
            if y + line_h > bottom {
                pages.push(Vec::new());
                y = MARGIN_TOP;
            }
            let page = pages.last_mut().ok_or_else(|| PdfError::Render("no page".into()))?;
            if *style == Style::Quote {
                page.push(Mark::Bar { rect: (MARGIN_X, y + 2.0, 2.0, line_h - 2.0), color: RULE });
            }
            // The baseline sits about 1.1 em below the top of a line box 1.55 em high.
            let baseline = y + (line_h - style.size()) / 2.0 + style.size() * 0.88;
            page.push(Mark::Text {
                x: MARGIN_X + style.indent(),
                baseline,
                style: *style,
                text: line,
            });
            y += line_h;
        }
        if *style == Style::Heading {
            let page = pages.last_mut().ok_or_else(|| PdfError::Render("no page".into()))?;
            page.push(Mark::Bar { rect: (MARGIN_X, y, width, 0.6), color: RULE });
            y += 4.0;
        }
    }
    Ok(pages)
}

fn fill(color: (u8, u8, u8)) -> Option<Fill> {
    Some(Fill { paint: rgb::Color::new(color.0, color.1, color.2).into(), ..Default::default() })
}

/// The PDF report of `doc` (a `report_json` document) in `font`.
pub fn render_pdf(doc: &Value, font: &ReportFont) -> Result<Vec<u8>, PdfError> {
    let pages = layout(&paragraphs(doc), font)?;
    let pdf_font =
        Font::new(font.data.clone().into(), font.index).ok_or_else(|| PdfError::BadFont {
            path: font.path.clone(),
            index: font.index,
            reason: "the PDF library cannot read it".into(),
        })?;
    let mut document = Document::new();
    document.set_metadata(
        Metadata::new()
            .title(s(doc, "title").to_string())
            .creator("VibeLife".to_string())
            .language("zh-CN".to_string()),
    );
    let settings = PageSettings::from_wh(PAGE_W, PAGE_H)
        .ok_or_else(|| PdfError::Render("invalid page size".into()))?;
    let total = pages.len();
    for (n, marks) in pages.into_iter().enumerate() {
        let mut page = document.start_page_with(settings.clone());
        let mut surface = page.surface();
        for mark in marks {
            match mark {
                Mark::Text { x, baseline, style, text } => {
                    surface.set_fill(fill(style.color()));
                    let at = Point::from_xy(x, baseline);
                    let size = style.size();
                    surface.draw_text(
                        at,
                        pdf_font.clone(),
                        size,
                        &text,
                        false,
                        TextDirection::Auto,
                    );
                }
                Mark::Bar { rect: (x, y, w, h), color } => {
                    let mut path = PathBuilder::new();
                    if let Some(rect) = Rect::from_xywh(x, y, w, h) {
                        path.push_rect(rect);
                    }
                    if let Some(path) = path.finish() {
                        surface.set_fill(fill(color));
                        surface.draw_path(&path);
                    }
                }
            }
        }
        let footer = format!("{} / {total}", n + 1);
        surface.set_fill(fill(GREY));
        let at = Point::from_xy(PAGE_W / 2.0 - 10.0, PAGE_H - MARGIN_BOTTOM / 2.0);
        surface.draw_text(at, pdf_font.clone(), 8.0, &footer, false, TextDirection::Auto);
        surface.finish();
        page.finish();
    }
    document.finish().map_err(|e| PdfError::Render(format!("{e:?}")))
}

#[cfg(test)]
#[path = "pdf_tests.rs"]
mod tests;
