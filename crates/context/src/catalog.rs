//! The phase-1 `use_skill` tool definition, whose description carries the skill catalog
//! (docs/design.md#phase-1): every skill the model may activate (not `core`, not those with
//! `disable-model-invocation`), with its description and trigger words, and the `skill`
//! parameter as an enum of the listed names. When the catalog does not fit the room it is
//! given, entries are shortened level by level and, last, the least relevant ones are left
//! out — always with a notice. Running the tool belongs to the tools module.

use serde_json::{Map, Value, json};
use vibe_llm::ToolDef;
use vibe_skills::SkillEntry;

use super::sections::{cut_chars, first_sentence, one_line, sentences_within};
use super::texts;
use super::tokenizer::Tokenizer;

/// The name of the tool.
pub const USE_SKILL: &str = "use_skill";

/// How much of an entry is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Detail {
    /// The description's leading sentences up to 90 characters and 6 trigger words.
    Full,
    /// The description's first sentence up to 48 characters and 4 trigger words.
    Short,
    /// The name and display name only.
    Minimal,
}

/// One skill of the catalog, ranked against the user message.
#[derive(Clone)]
pub(crate) struct Entry<'a> {
    name: &'a str,
    display: Option<&'a str>,
    description: String,
    /// Matched trigger words first.
    triggers: Vec<&'a str>,
    /// Trigger words in file order.
    file_triggers: Vec<&'a str>,
    score: usize,
}

/// The skills the model may activate, most relevant first (trigger words and the name found
/// in the user message), then by name.
pub(crate) fn entries<'a>(skills: &'a [SkillEntry], user_message: &str) -> Vec<Entry<'a>> {
    let message = user_message.to_lowercase();
    let mut out: Vec<Entry<'a>> = skills
        .iter()
        .filter(|s| s.name != "core" && !s.meta.disable_model_invocation)
        .map(|s| {
            let meta = &s.meta;
            let file_triggers: Vec<&str> = meta.triggers.iter().map(String::as_str).collect();
            let (mut matched, rest): (Vec<&str>, Vec<&str>) = file_triggers
                .iter()
                .copied()
                .partition(|t| !t.is_empty() && message.contains(&t.to_lowercase()));
            let score = matched.len() + usize::from(message.contains(s.name.as_str()));
            matched.extend(rest);
            Entry {
                name: &s.name,
                display: meta.metadata.get("display_name_zh").map(String::as_str),
                description: one_line(&meta.description),
                triggers: matched,
                file_triggers,
                score,
            }
        })
        .collect();
    out.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.name.cmp(b.name)));
    out
}

fn render(entry: &Entry<'_>, detail: Detail) -> String {
    let label = match entry.display {
        Some(d) => format!("{}（{d}）", entry.name),
        None => entry.name.to_string(),
    };
    let (description, triggers) = match detail {
        Detail::Full => (sentences_within(&entry.description, 90), 6),
        Detail::Short => (cut_chars(first_sentence(&entry.description), 48), 4),
        Detail::Minimal => return format!("- {label}"),
    };
    let words: Vec<&str> = entry.triggers.iter().take(triggers).copied().collect();
    if words.is_empty() {
        format!("- {label}：{description}")
    } else {
        format!("- {label}：{description}｜{}", words.join("、"))
    }
}

/// The `use_skill` definition listing `shown` entries, the first `detailed` of them at
/// `detail` and the rest by name; `left_out` more exist.
fn definition(
    shown: &[Entry<'_>],
    detail: Detail,
    detailed: usize,
    left_out: usize,
    extra: &Map<String, Value>,
) -> ToolDef {
    let mut description = String::from(texts::USE_SKILL_INTRO);
    for (i, entry) in shown.iter().enumerate() {
        description.push('\n');
        description.push_str(&render(entry, if i < detailed { detail } else { Detail::Minimal }));
    }
    if shown.is_empty() {
        description.push_str("\n（目前没有可以激活的技能。）");
    }
    if left_out > 0 {
        description.push_str(&format!("\n（另有 {left_out} 个技能因篇幅未列出。）"));
    }
    let names: Vec<&str> = shown.iter().map(|e| e.name).collect();
    let mut properties = Map::new();
    properties.insert(
        "skill".into(),
        json!({"type": "string", "enum": names, "description": texts::USE_SKILL_PARAM}),
    );
    properties.insert(
        "scenario".into(),
        json!({"type": "string", "description": texts::USE_SKILL_SCENARIO}),
    );
    for (key, schema) in extra {
        properties.entry(key.clone()).or_insert_with(|| schema.clone());
    }
    ToolDef {
        name: USE_SKILL.to_string(),
        description,
        parameters: json!({"type": "object", "properties": properties, "required": ["skill"]})
            .into(),
    }
}

/// The fitted `use_skill` definition and notices about what was shortened.
pub(crate) struct Fitted {
    pub tool: ToolDef,
    pub notices: Vec<String>,
}

/// Parameters of the tools registry's `use_skill` beyond `skill` and `scenario` (such as
/// `birth_info`), so the catalog version accepts everything the handler does.
fn extra_properties(base: Option<&ToolDef>) -> Map<String, Value> {
    base.and_then(|t| t.parameters.get("properties"))
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter(|(k, _)| !matches!(k.as_str(), "skill" | "scenario"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// The largest `n` in `lo..=hi` for which `fits(n)` holds, given that it holds for smaller
/// values whenever it holds for larger ones (`fits(lo)` is assumed).
fn largest(lo: usize, hi: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

/// The richest catalog of `entries` (most relevant first) whose definition fits `room`
/// tokens, in this order of preference:
/// 1. every entry in full, listed by name with triggers in file order (so the prompt does not
///    change with the message and its count stays cached);
/// 2. every entry shortened to its first sentence, in the same stable order;
/// 3. the entries whose triggers matched (and as many more as fit) shortened, the rest by
///    name only;
/// 4. the matched entries shortened, as many of the others as fit by name, the rest left
///    out and counted in the tool's description.
pub(crate) fn fit(
    tk: &Tokenizer,
    entries: &[Entry<'_>],
    room: u32,
    budget: u32,
    base: Option<&ToolDef>,
) -> Fitted {
    let total = entries.len();
    let extra = extra_properties(base);
    let definition = |shown: &[Entry<'_>], detail, detailed, left_out| {
        definition(shown, detail, detailed, left_out, &extra)
    };
    let tokens = |shown: &[Entry<'_>], detailed, left_out| {
        tk.count_tool(&definition(shown, Detail::Short, detailed, left_out))
    };
    let mut stable: Vec<Entry<'_>> = entries.to_vec();
    stable.sort_by(|a, b| a.name.cmp(b.name));
    for e in &mut stable {
        e.triggers.clone_from(&e.file_triggers);
    }
    let full = definition(&stable, Detail::Full, total, 0);
    if tk.count_tool(&full) <= room {
        return Fitted { tool: full, notices: Vec::new() };
    }
    let fit = format!("to fit {budget} tokens");
    if tokens(&stable, total, 0) <= room {
        let notice = format!("catalog: skill descriptions shortened to their first sentence {fit}");
        return Fitted {
            tool: definition(&stable, Detail::Short, total, 0),
            notices: vec![notice],
        };
    }
    let matched = entries.iter().take_while(|e| e.score > 0).count();
    if tokens(entries, matched, 0) <= room {
        let described = largest(matched, total, |d| tokens(entries, d, 0) <= room);
        let notice = format!(
            "catalog: {described} of {total} skills described, {} listed by name only {fit}",
            total - described
        );
        return Fitted {
            tool: definition(entries, Detail::Short, described, 0),
            notices: vec![notice],
        };
    }
    let described = largest(0, matched, |d| tokens(&entries[..d], d, total - d) <= room);
    let listed = largest(described, total, |n| tokens(&entries[..n], described, total - n) <= room);
    let notice =
        format!("catalog: {listed} of {total} skills listed; {} left out {fit}", total - listed);
    Fitted {
        tool: definition(&entries[..listed], Detail::Short, described, total - listed),
        notices: vec![notice],
    }
}
