//! `prompts.yaml`: what a skill offers a person before any conversation — `daily:` journaling
//! questions (the Today screen shows one a day) and `starters:` (what a new conversation
//! offers to say first, at most [`MAX_STARTERS`]). Each item is `{zh: …, en: …}`: Chinese
//! required, English optional. Choosing the day's prompt and the language is the app's job.

use std::path::Path;

use serde::Serialize;

use super::Parsed;
use crate::problem::has_errors;
use crate::yaml::Node;
use crate::yaml_read::Reader;

/// Starters shown per skill; more are a warning and left out.
pub const MAX_STARTERS: usize = 3;
/// The longest prompt or starter, in characters (each language).
pub const MAX_PROMPT_CHARS: usize = 200;

const TOP_KEYS: &[&str] = &["daily", "starters"];
const ITEM_KEYS: &[&str] = &["zh", "en"];

/// The parsed `prompts.yaml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PromptsSpec {
    /// Journaling questions, one shown per day, in file order.
    pub daily: Vec<LocalText>,
    /// Conversation starters, in file order (at most [`MAX_STARTERS`]).
    pub starters: Vec<LocalText>,
}

/// A text in Chinese, with its English version when the author wrote one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LocalText {
    pub zh: String,
    pub en: Option<String>,
}

impl LocalText {
    /// The text for a UI language: English for `en…` when written, else the Chinese.
    pub fn in_lang(&self, lang: &str) -> &str {
        match &self.en {
            Some(en) if lang.starts_with("en") => en,
            _ => &self.zh,
        }
    }
}

pub(crate) fn parse_prompts(path: &Path, text: &str) -> Parsed<PromptsSpec> {
    let mut r = Reader::new(path);
    let Some(node) = r.document(text, 1, "") else {
        return (None, r.problems);
    };
    let Some(entries) = node.as_map() else {
        r.error(
            node.pos,
            format!(
                "prompts.yaml must be a mapping with `daily:` and/or `starters:` lists, found {}",
                node.kind_name()
            ),
        );
        return (None, r.problems);
    };
    r.unknown_keys(entries, TOP_KEYS, "key");
    let daily = node.get("daily").map(|n| items(&mut r, n, "daily")).unwrap_or_default();
    let mut starters =
        node.get("starters").map(|n| items(&mut r, n, "starters")).unwrap_or_default();
    if starters.len() > MAX_STARTERS {
        let pos = node.get("starters").map_or(node.pos, |n| n.pos);
        r.warn(
            pos,
            format!(
                "{} starters: only the first {MAX_STARTERS} are offered; keep the best {MAX_STARTERS}",
                starters.len()
            ),
        );
        starters.truncate(MAX_STARTERS);
    }
    let ok = !has_errors(&r.problems);
    (ok.then_some(PromptsSpec { daily, starters }), r.problems)
}

/// The items of `daily` or `starters`, each `{zh, en}`.
fn items(r: &mut Reader<'_>, list: &Node, field: &str) -> Vec<LocalText> {
    let items: &[Node] = match &list.value {
        crate::yaml::Value::Seq(items) => items,
        _ if list.is_null() => &[],
        _ => {
            r.error(
                list.pos,
                format!(
                    "`{field}` must be a list of `{{zh: …, en: …}}` items, found {}",
                    list.kind_name()
                ),
            );
            return Vec::new();
        }
    };
    let mut out: Vec<LocalText> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let n = i + 1;
        let Some(entries) = item.as_map() else {
            r.error(
                item.pos,
                format!(
                    "item {n} of `{field}` must be a mapping `{{zh: …, en: …}}`, found {}",
                    item.kind_name()
                ),
            );
            continue;
        };
        r.unknown_keys(entries, ITEM_KEYS, &format!("key of `{field}` item {n}"));
        let zh = match item.get("zh") {
            Some(z) => r.text(z, &format!("{field}[{n}].zh")).map(|t| t.trim().to_string()),
            None => None,
        };
        let Some(zh) = zh.filter(|t| !t.is_empty()) else {
            let pos = item.get("zh").map_or(item.pos, |z| z.pos);
            r.error(pos, format!("item {n} of `{field}` needs its Chinese text in `zh`"));
            continue;
        };
        let en = item
            .get("en")
            .and_then(|e| r.optional_text(e, &format!("{field}[{n}].en")))
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty());
        for text in std::iter::once(&zh).chain(en.as_ref()) {
            let chars = text.chars().count();
            if chars > MAX_PROMPT_CHARS {
                r.error(
                    item.pos,
                    format!(
                        "item {n} of `{field}` has {chars} characters: at most {MAX_PROMPT_CHARS} (one question or sentence)"
                    ),
                );
            }
        }
        if out.iter().any(|o| o.zh == zh) {
            r.warn(item.pos, format!("item {n} of `{field}` repeats an earlier one; left out"));
            continue;
        }
        out.push(LocalText { zh, en });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Option<PromptsSpec>, Vec<String>) {
        let (spec, problems) = parse_prompts(Path::new("prompts.yaml"), text);
        (spec, problems.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn daily_prompts_and_starters_are_read_in_file_order() {
        let (spec, problems) = parse(
            "daily:\n  - zh: 今天最感激的是什么？\n    en: What are you most grateful for today?\n  - zh: 今天学到了什么？\nstarters:\n  - zh: 帮我定一个目标\n    en: Help me set a goal\n",
        );
        assert!(problems.is_empty(), "{problems:?}");
        let spec = spec.unwrap();
        assert_eq!(spec.daily.len(), 2);
        assert_eq!(spec.daily[0].in_lang("en"), "What are you most grateful for today?");
        assert_eq!(spec.daily[0].in_lang("zh-CN"), "今天最感激的是什么？");
        assert_eq!(spec.daily[1].in_lang("en"), "今天学到了什么？", "no English: the Chinese");
        assert_eq!(spec.starters[0].zh, "帮我定一个目标");
    }

    #[test]
    fn an_item_without_chinese_is_an_error_naming_the_file_and_item() {
        let (spec, problems) = parse("daily:\n  - zh: 一\n  - en: Only English\n");
        assert!(spec.is_none());
        assert_eq!(
            problems,
            vec!["prompts.yaml:3:5: item 2 of `daily` needs its Chinese text in `zh`"]
        );
    }

    #[test]
    fn wrong_shapes_are_errors() {
        let (spec, problems) = parse("daily: 今天怎么样\n");
        assert!(spec.is_none());
        assert!(problems[0].contains("`daily` must be a list"), "{problems:?}");
        let (spec, problems) = parse("starters:\n  - 只是一句话\n");
        assert!(spec.is_none());
        assert!(problems[0].contains("item 1 of `starters` must be a mapping"), "{problems:?}");
        let (spec, _) = parse("- zh: x\n");
        assert!(spec.is_none());
    }

    #[test]
    fn too_long_text_is_an_error() {
        let long = "长".repeat(MAX_PROMPT_CHARS + 1);
        let (spec, problems) = parse(&format!("daily:\n  - zh: {long}\n"));
        assert!(spec.is_none());
        assert!(problems[0].contains("at most 200"), "{problems:?}");
    }

    #[test]
    fn extra_starters_and_unknown_keys_are_warnings() {
        let (spec, problems) = parse(
            "starters:\n  - zh: 一\n  - zh: 二\n  - zh: 三\n  - zh: 四\nweekly:\n  - zh: x\n",
        );
        let spec = spec.unwrap();
        assert_eq!(spec.starters.len(), MAX_STARTERS);
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("unknown key `weekly`")));
        assert!(problems.iter().any(|p| p.contains("only the first 3 are offered")));
    }
}
