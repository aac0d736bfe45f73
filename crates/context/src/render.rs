//! Rendering data for a prompt: compact JSON with long lists shortened to their newest items
//! and long texts cut, a rule's opening paragraph, and a long text shortened to its first and
//! last lines. What goes into which section is decided by the prompt builders.

use serde_json::{Map, Value};

use super::sections::cut_chars;
use super::tokenizer::Tokenizer;

/// How much of a JSON document to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shape {
    /// Items kept per list (the newest).
    pub list_items: usize,
    /// Characters kept per string.
    pub text_chars: usize,
}

/// Lists never shrink below this many items (small fixed arrays such as a chart's four
/// pillars stay whole).
const MIN_LIST_ITEMS: usize = 5;

/// Keep the newest `keep` items of a list. Lists written by `append_to_list` are newest
/// first; when the items carry `_created_at`, that decides instead.
fn newest(items: &[Value], keep: usize) -> Vec<Value> {
    let stamp = |v: &Value| v.get("_created_at").and_then(Value::as_str).map(str::to_string);
    let stamps: Option<Vec<String>> = items.iter().map(stamp).collect();
    match stamps {
        Some(stamps) => {
            let mut order: Vec<usize> = (0..items.len()).collect();
            order.sort_by(|&a, &b| stamps[b].cmp(&stamps[a]));
            let mut kept: Vec<usize> = order.into_iter().take(keep).collect();
            kept.sort_unstable();
            kept.into_iter().map(|i| items[i].clone()).collect()
        }
        None => items.iter().take(keep).cloned().collect(),
    }
}

/// `value` shaped for a prompt: `_meta` dropped, lists longer than the shape shortened to
/// their newest items with a note of how many there are, strings cut.
pub(crate) fn shape_json(value: &Value, shape: Shape) -> Value {
    let keep = shape.list_items.max(MIN_LIST_ITEMS);
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| k.as_str() != "_meta")
                .map(|(k, v)| (k.clone(), shape_json(v, shape)))
                .collect::<Map<String, Value>>(),
        ),
        Value::Array(items) if items.len() > keep => {
            let mut out: Vec<Value> =
                newest(items, keep).iter().map(|v| shape_json(v, shape)).collect();
            out.push(Value::String(format!(
                "…（共 {} 条，这里只列出最新的 {keep} 条）",
                items.len()
            )));
            Value::Array(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|v| shape_json(v, shape)).collect()),
        Value::String(s) => Value::String(cut_chars(s, shape.text_chars)),
        other => other.clone(),
    }
}

/// Whether `value` holds nothing worth showing (null, or empty after dropping `_meta`).
pub(crate) fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Object(map) => map.iter().all(|(k, v)| k == "_meta" || is_blank(v)),
        Value::Array(items) => items.is_empty(),
        Value::String(s) => s.trim().is_empty(),
        _ => false,
    }
}

/// Compact JSON text (non-ASCII kept as is).
pub(crate) fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The value at a dotted `path` of `doc`.
pub(crate) fn at_path<'v>(doc: &'v Value, path: &str) -> Option<&'v Value> {
    path.split('.').try_fold(doc, |v, key| v.get(key))
}

/// The opening of a Markdown part: its heading lines and first paragraph, at most
/// `max_chars` characters.
pub(crate) fn opening(text: &str, max_chars: usize) -> String {
    let mut out: Vec<&str> = Vec::new();
    let mut body_started = false;
    for line in text.trim().lines() {
        let blank = line.trim().is_empty();
        if blank && body_started {
            break;
        }
        if blank {
            continue;
        }
        if !line.trim_start().starts_with('#') {
            body_started = true;
        }
        out.push(line);
    }
    cut_chars(&out.join("\n"), max_chars)
}

/// `text` within `max` tokens, keeping whole lines from its start and its end (early facts
/// and the latest ones) with a marker where lines were left out.
/// Counted line by line ([`Tokenizer::count_lines`]), so only new lines are tokenised.
pub(crate) fn head_and_tail(tk: &Tokenizer, text: &str, max: u32) -> String {
    if tk.count_lines(text) <= max {
        return text.to_string();
    }
    let lines: Vec<&str> = text.lines().collect();
    let marker = "……（中间部分从略）";
    let mut budget = max.saturating_sub(tk.count(marker) + 2);
    let (mut head, mut tail) = (0usize, lines.len());
    let mut take_head = true;
    while head < tail {
        let (i, next) = if take_head { (head, lines[head]) } else { (tail - 1, lines[tail - 1]) };
        let cost = tk.count(next) + 1;
        if cost > budget {
            // The other end may still have a shorter line.
            if take_head && tail > head + 1 && tk.count(lines[tail - 1]) < cost {
                take_head = false;
                continue;
            }
            break;
        }
        budget -= cost;
        if take_head {
            head = i + 1;
        } else {
            tail = i;
        }
        take_head = !take_head;
    }
    if head == 0 && tail == lines.len() {
        return tk.truncate(text, max).to_string();
    }
    let mut out: Vec<&str> = lines[..head].to_vec();
    out.push(marker);
    out.extend(&lines[tail..]);
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_lists_keep_their_newest_items_and_say_so() {
        let items: Vec<Value> = (0..12).map(|i| json!({"n": i})).collect();
        let v = shape_json(
            &json!({"_meta": {"updated_at": "x"}, "insights": items}),
            Shape { list_items: 5, text_chars: 50 },
        );
        let list = v["insights"].as_array().unwrap();
        assert_eq!(list.len(), 6);
        assert_eq!(list[0], json!({"n": 0}));
        assert!(list[5].as_str().unwrap().contains("共 12 条"));
        assert!(v.get("_meta").is_none());
    }

    #[test]
    fn created_at_decides_which_items_are_newest() {
        let items: Vec<Value> =
            (0..8).map(|i| json!({"n": i, "_created_at": format!("2026-01-0{}", i + 1)})).collect();
        let v = shape_json(&Value::Array(items), Shape { list_items: 5, text_chars: 50 });
        let ns: Vec<i64> = v.as_array().unwrap().iter().filter_map(|x| x["n"].as_i64()).collect();
        assert_eq!(ns, vec![3, 4, 5, 6, 7]);
    }

    #[test]
    fn small_arrays_and_short_texts_are_untouched() {
        let chart = json!({"pillars": ["甲子", "乙丑", "丙寅", "丁卯"], "note": "短"});
        assert_eq!(shape_json(&chart, Shape { list_items: 1, text_chars: 10 }), chart);
    }

    #[test]
    fn blankness_and_paths() {
        assert!(is_blank(&json!({"_meta": {"a": 1}, "x": {}})));
        assert!(!is_blank(&json!({"x": 0})));
        let doc = json!({"preferences": {"voice_mode": "direct"}});
        assert_eq!(at_path(&doc, "preferences.voice_mode"), Some(&json!("direct")));
        assert_eq!(at_path(&doc, "preferences.x"), None);
    }

    #[test]
    fn opening_is_heading_and_first_paragraph() {
        let text = "# 表述与边界\n\n- 用倾向代替断言\n- 不做恐吓\n\n## 更多\n其余内容";
        assert_eq!(opening(text, 100), "# 表述与边界\n- 用倾向代替断言\n- 不做恐吓");
    }

    #[test]
    fn head_and_tail_keeps_both_ends() {
        let tk = Tokenizer::shared().unwrap();
        let lines: Vec<String> =
            (1..=40).map(|i| format!("第 {i} 条：用户提到了一件重要的事情。")).collect();
        let text = lines.join("\n");
        let out = head_and_tail(tk, &text, 120);
        assert!(tk.count(&out) <= 120, "{}", tk.count(&out));
        assert!(out.starts_with("第 1 条"));
        assert!(out.ends_with("第 40 条：用户提到了一件重要的事情。"));
        assert!(out.contains("从略"));
    }
}
