//! Text rendering of computed charts for `vibe skills compute` (the `--json` output is the
//! chart itself). Only presentation: which fields exist is `vibe-charts`' business.

use serde_json::Value;

const SLOTS: [(&str, &str); 4] = [("year", "年"), ("month", "月"), ("day", "日"), ("hour", "时")];

/// A few readable lines for a chart of any known type.
pub fn render(skill: &str, chart: &Value, recomputed: bool) -> String {
    let kind = text(&chart["compute_type"]);
    let state = if recomputed { "computed now" } else { "stored, birth_info unchanged" };
    let mut out = vec![format!("{kind} chart of skill {skill} ({state})")];
    match kind.as_str() {
        "bazi" => bazi(chart, &mut out),
        "zodiac" => zodiac(chart, &mut out),
        _ => out.push(crate::output::pretty(chart)),
    }
    if let Some(list) = chart["uncertain"].as_array().filter(|l| !l.is_empty()) {
        let names: Vec<String> = list.iter().map(text).collect();
        out.push(format!(
            "  uncertain  {} (birth time unknown or at a boundary)",
            names.join(", ")
        ));
    }
    out.join("\n")
}

fn bazi(chart: &Value, out: &mut Vec<String>) {
    let pillars: Vec<String> = SLOTS
        .iter()
        .map(|(slot, zh)| format!("{zh}柱 {}", or_dash(&chart["pillars"][slot])))
        .collect();
    out.push(format!("  pillars    {}", pillars.join("  ")));
    let dm = &chart["day_master"];
    out.push(format!(
        "  day master {} ({} {}, {})",
        text(&dm["stem"]),
        text(&dm["element"]),
        text(&dm["element_zh"]),
        text(&dm["yin_yang"])
    ));
    out.push(format!("  elements   {}", counts(&chart["elements"])));
    out.push(format!("  hidden     {}", counts(&chart["elements_hidden"])));
    let gods: Vec<String> = SLOTS
        .iter()
        .filter(|(slot, _)| *slot != "day")
        .map(|(slot, zh)| format!("{zh} {}", or_dash(&chart["ten_gods"][slot])))
        .collect();
    out.push(format!("  ten gods   {}", gods.join("  ")));
    let r = &chart["reckoning"];
    out.push(format!(
        "  clock      {} for day/hour pillars ({})",
        text(&r["basis"]).replace('_', " "),
        text(&r["pillar_time"])
    ));
}

fn zodiac(chart: &Value, out: &mut Vec<String>) {
    for body in ["sun", "moon"] {
        let sign = &chart[format!("{body}_sign")];
        let line = if sign.is_null() {
            let candidates = chart["candidates"][format!("{body}_sign")]
                .as_array()
                .map(|c| c.iter().map(text).collect::<Vec<_>>().join(" or "))
                .unwrap_or_default();
            format!("unknown without a birth time ({candidates})")
        } else {
            let display = &chart[format!("{body}_sign_display")];
            format!(
                "{} ({} / {}) at {}°",
                text(sign),
                text(&display["zh"]),
                text(&display["en"]),
                text(&chart[format!("{body}_longitude")])
            )
        };
        out.push(format!("  {body:<5}{line}"));
    }
}

fn counts(map: &Value) -> String {
    map.as_object()
        .map(|m| m.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(" · "))
        .unwrap_or_default()
}

fn or_dash(v: &Value) -> String {
    if v.is_null() { "--".into() } else { text(v) }
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn bazi_text_shows_pillars_and_unknown_hour() {
        let chart = vibe_charts::compute(
            "bazi",
            &json!({"date": "1893-12-26", "timezone": "Asia/Shanghai"}),
        )
        .unwrap();
        let text = render("bazi", &chart, true);
        assert!(text.contains("年柱 癸巳  月柱 甲子  日柱 丁酉  时柱 --"), "{text}");
        assert!(text.contains("uncertain  hour"), "{text}");
    }

    #[test]
    fn zodiac_text_shows_both_signs() {
        let chart = vibe_charts::compute(
            "zodiac",
            &json!({"date": "1926-04-21", "time": "02:40", "timezone": "Europe/London"}),
        )
        .unwrap();
        let text = render("zodiac", &chart, false);
        assert!(text.contains("sun  taurus (金牛座 / Taurus)"), "{text}");
        assert!(text.contains("moon leo (狮子座 / Leo)"), "{text}");
        assert!(text.contains("stored, birth_info unchanged"), "{text}");
    }
}
