//! The person's `birth_info` as the tools see it: which required fields are missing (and
//! what to ask for), and saving what the person told the model (`use_skill` and
//! `compute_chart` accept a `birth_info` argument) after checking it the way the charts read
//! it, with the birth place looked up as `vibe profile set` does. The field and place rules
//! themselves are `vibe-charts`' (docs/charts.md).

use serde_json::{Map, Value, json};
use vibe_store::Store;

use super::ToolOutput;

/// Fields a `birth_info` may hold.
pub(crate) const FIELDS: [&str; 7] =
    ["date", "time", "place", "place_id", "timezone", "longitude", "latitude"];

/// The JSON schema of a `birth_info` argument.
pub(crate) fn schema() -> Value {
    json!({
        "type": "object",
        "description": "用户说过并确认的出生信息（只传这些字段）",
        "properties": {
            "date": {"type": "string", "description": "公历 YYYY-MM-DD"},
            "time": {"type": "string", "description": "HH:MM（24 小时制）"},
            "place": {"type": "string", "description": "出生城市，同名时加省份（如 \"苏州, 江苏\"）；自动查出经纬度和时区"},
            "place_id": {"type": "string", "description": "地名有多个候选时，填错误信息列出的 place_id"},
            "timezone": {"type": "string", "description": "IANA 时区，如 Asia/Shanghai"},
            "longitude": {"type": "number", "description": "经度，东经为正（查不到地名时才填）"},
            "latitude": {"type": "number", "description": "纬度，北纬为正"}
        }
    })
}

fn has(info: &Value, field: &str) -> bool {
    match info.get(field) {
        Some(Value::String(s)) => !s.trim().is_empty(),
        Some(Value::Null) | None => false,
        Some(_) => true,
    }
}

/// Required fields absent from `info`, as dotted paths (`birth_info.date`, `birth_info.timezone`).
pub(crate) fn missing(info: &Value) -> Vec<String> {
    ["date", "timezone"]
        .into_iter()
        .filter(|f| !has(info, f))
        .map(|f| format!("birth_info.{f}"))
        .collect()
}

/// Whether the birth time is known (the bazi hour pillar needs it).
pub(crate) fn has_time(info: &Value) -> bool {
    has(info, "time")
}

/// What the model should ask the person for, in the product's language.
pub(crate) fn ask_user(missing: &[String], ask_time: bool) -> String {
    let mut wants = Vec::new();
    if missing.iter().any(|m| m == "birth_info.date") {
        wants.push("出生日期（公历，年-月-日）");
    }
    if missing.iter().any(|m| m == "birth_info.timezone") {
        wants.push("出生城市（用来确定时区）");
    }
    if ask_time {
        wants.push("出生时间（几点几分；不确定也没关系，但八字的时柱需要它）");
    }
    format!("请用户提供：{}。", wants.join("、"))
}

/// The `needs_input` observation: what is missing, what to ask, and which call to make next
/// (`tool` with `birth_info`).
pub(crate) fn needs_input(
    tool: &str,
    skill: &str,
    missing: Vec<String>,
    wants_time: bool,
) -> ToolOutput {
    let mut out = Map::new();
    out.insert("status".into(), json!("needs_input"));
    out.insert("skill".into(), json!(skill));
    out.insert("ask_user".into(), json!(ask_user(&missing, wants_time)));
    out.insert("missing".into(), json!(missing));
    if wants_time {
        out.insert("recommended".into(), json!(["birth_info.time"]));
    }
    let next = if tool == "use_skill" {
        format!("用户回答后，带上 birth_info 再调用 use_skill(skill=\"{skill}\")。")
    } else {
        format!("用户回答后，带上 birth_info 再调用 {tool}。")
    };
    out.insert("next".into(), json!(next));
    ToolOutput::ok(Value::Object(out))
}

/// Merges `patch` into the stored `birth_info`, checks the result as the `check_type` chart
/// reads it, and saves it at `birth_info`. Returns the saved value with the place it looked
/// up and any zone mismatch, or an error observation naming the field at fault (nothing is
/// saved then).
pub(crate) fn save(
    store: &Store,
    user: &str,
    patch: &Map<String, Value>,
    check_type: &str,
) -> Result<vibe_charts::PreparedBirthInfo, ToolOutput> {
    if let Some(key) = patch.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(ToolOutput::field_error(
            format!("birth_info.{key}"),
            format!("unknown birth_info field `{key}`; use only {}", FIELDS.join(", ")),
        ));
    }
    let stored = store
        .profile(user)
        .map_err(|e| ToolOutput::error(e.to_string()))?
        .get("birth_info")
        .cloned()
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let merged = crate::profile_set::merge_birth_info(&stored, patch);
    let ready = vibe_charts::prepare_birth(&merged).map_err(|e| {
        ToolOutput::field_error(e.field().unwrap_or("birth_info").to_string(), e.to_string())
    })?;
    let merged = ready.birth_info.clone();
    let fields = missing(&merged);
    if fields.is_empty() {
        // Any chart type reads birth_info the same way; computing one is the public check.
        if let Err(e) = vibe_charts::compute(check_type, &merged) {
            let field = e.field().unwrap_or("birth_info").to_string();
            return Err(ToolOutput::field_error(field, e.to_string()));
        }
    }
    store.set_path(user, "birth_info", merged).map_err(|e| ToolOutput::error(e.to_string()))?;
    Ok(ready)
}

/// What the person should hear about a place just saved: `birth_place` (confirmed back with
/// its country, to say to them) and `timezone_warning` when the zone given is not the place's.
pub(crate) fn place_notes(ready: &vibe_charts::PreparedBirthInfo, out: &mut Value) {
    if let Some(place) = &ready.place {
        out["birth_place"] = json!(format!(
            "{}（{}）; tell the person which place this is so they can correct it",
            place.confirmation_zh(),
            place.confirmation_en()
        ));
    }
    if let Some(m) = &ready.zone_mismatch {
        out["timezone_warning"] = json!(m.message);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_and_timezone_are_required() {
        assert_eq!(missing(&json!({})), vec!["birth_info.date", "birth_info.timezone"]);
        assert_eq!(
            missing(&json!({"date": "1990-05-17", "timezone": " "})),
            vec!["birth_info.timezone"]
        );
        assert!(missing(&json!({"date": "1990-05-17", "timezone": "Asia/Shanghai"})).is_empty());
        assert!(missing(&Value::Null).len() == 2);
    }

    #[test]
    fn the_question_names_each_missing_thing() {
        let q = ask_user(&missing(&json!({})), true);
        assert!(q.contains("出生日期") && q.contains("出生城市") && q.contains("出生时间"), "{q}");
        let q = ask_user(&["birth_info.timezone".into()], false);
        assert!(q.contains("出生城市") && !q.contains("出生日期"), "{q}");
    }

    #[test]
    fn saving_checks_and_merges() {
        let store = Store::open_in_memory().unwrap();
        let user = vibe_store::LOCAL_USER;
        let patch = json!({"date": "1990-05-17", "timezone": "Asia/Shanghai"});
        save(&store, user, patch.as_object().unwrap(), "bazi").unwrap();
        let more = json!({"time": "08:30"});
        let saved = save(&store, user, more.as_object().unwrap(), "bazi").unwrap().birth_info;
        assert_eq!(saved["date"], "1990-05-17");
        assert_eq!(store.profile(user).unwrap()["birth_info"]["time"], "08:30");

        let bad = json!({"timezone": "Mars/Base"});
        let out = save(&store, user, bad.as_object().unwrap(), "bazi").unwrap_err();
        assert_eq!(out.result["field"], "birth_info.timezone");
        assert_eq!(store.profile(user).unwrap()["birth_info"]["timezone"], "Asia/Shanghai");

        let unknown = json!({"gender": "f"});
        let out = save(&store, user, unknown.as_object().unwrap(), "bazi").unwrap_err();
        assert_eq!(out.result["field"], "birth_info.gender");
    }

    #[test]
    fn a_place_the_person_names_gives_the_zone_and_longitude() {
        let store = Store::open_in_memory().unwrap();
        let user = vibe_store::LOCAL_USER;
        let patch = json!({"date": "1990-05-17", "place": "乌鲁木齐"});
        let ready = save(&store, user, patch.as_object().unwrap(), "bazi").unwrap();
        let mut notes = json!({});
        place_notes(&ready, &mut notes);
        assert!(
            notes["birth_place"]
                .as_str()
                .unwrap()
                .starts_with("乌鲁木齐市，新疆维吾尔自治区，中国（Ürümqi, Xinjiang, China）"),
            "{notes}"
        );
        let saved = ready.birth_info;
        assert_eq!(saved["timezone"], "Asia/Shanghai");
        assert!((saved["longitude"].as_f64().unwrap() - 87.6).abs() < 0.05, "{saved}");
        assert!(missing(&saved).is_empty());

        let out = save(&store, user, json!({"place": "苏州"}).as_object().unwrap(), "bazi");
        assert!(out.is_ok(), "苏州 is one place");
        let out = save(&store, user, json!({"place": "Suzhou"}).as_object().unwrap(), "bazi")
            .unwrap_err();
        assert_eq!(out.result["field"], "birth_info.place");
        let text = out.result.to_string();
        assert!(text.contains("cn320500") && text.contains("cn341300"), "{text}");
        assert_eq!(store.profile(user).unwrap()["birth_info"]["place"], "苏州");
    }
}
