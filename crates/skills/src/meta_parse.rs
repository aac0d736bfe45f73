//! SKILL.md frontmatter YAML → [`SkillMeta`], with every finding as a positioned problem:
//! name rules, name ≠ folder, description missing or empty, unknown compute_type or voice mode,
//! malformed profile paths, wrong shapes. Unknown fields and over-long texts are warnings: a
//! public skill with a 1,068-character description still loads, its text shortened.

use std::collections::BTreeMap;
use std::path::Path;

use crate::meta::{ComputeType, Ethics, HistoryLimits, ListDecl, Persona, SkillMeta, VoiceMode};
use crate::name::check_name;
use crate::problem::ProblemCode;
use crate::problem::{Pos, Problem, has_errors};
use crate::yaml::Node;
use crate::yaml_read::Reader;

pub const MAX_DESCRIPTION: usize = 1024;
pub const MAX_COMPATIBILITY: usize = 500;

/// Top-level profile fields a skill may ask for (docs/design.md#profile-document).
pub const PROFILE_ROOTS: [&str; 6] =
    ["account", "birth_info", "preferences", "state", "skills", "extracted"];

const FIELDS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
    "disable-model-invocation",
    "user-invocable",
    "profile_fields",
    "requires_birth_info",
    "requires_compute",
    "compute_type",
    "expert_persona",
    "personas",
    "voice_modes",
    "triggers",
    "ethics",
    "default_scenario",
    "history",
    "lists",
];

/// The result of reading a frontmatter.
#[derive(Debug)]
pub(crate) struct MetaParse {
    /// The metadata, when there is no error.
    pub meta: Option<SkillMeta>,
    /// All findings, sorted by position.
    pub problems: Vec<Problem>,
    /// Where the `name` value is (line 1 when absent), for findings about the name.
    pub name_pos: Pos,
    /// Where each top-level field's value is, for later findings (e.g. `default_scenario`).
    pub positions: Vec<(String, Pos)>,
}

/// Parse frontmatter YAML starting on file line `yaml_line` of `path`. `folder` is the skill
/// folder's name.
pub(crate) fn parse_meta(yaml: &str, yaml_line: usize, path: &Path, folder: &str) -> MetaParse {
    let fail =
        |problems| MetaParse { meta: None, problems, name_pos: Pos::START, positions: Vec::new() };
    let mut r = Reader::new(path);
    let Some(node) = r.document(yaml, yaml_line, " in frontmatter") else {
        return fail(r.problems);
    };
    let Some(entries) = node.as_map() else {
        r.error(
            node.pos,
            format!(
                "frontmatter must be a mapping of fields (name: ..., description: ...), found {}",
                node.kind_name()
            ),
        );
        return fail(r.problems);
    };
    r.unknown_keys(entries, FIELDS, "field");
    let fence = Pos::START;
    let name = required_text(&mut r, &node, "name", fence)
        .filter(|n| check_skill_name(&mut r, &node, n, folder));
    let description = required_text(&mut r, &node, "description", fence)
        .and_then(|d| within_len(&mut r, &node, "description", d, MAX_DESCRIPTION));
    let compatibility = node
        .get("compatibility")
        .and_then(|n| r.optional_text(n, "compatibility"))
        .and_then(|c| within_len(&mut r, &node, "compatibility", c, MAX_COMPATIBILITY));
    let mut meta = SkillMeta {
        name: name.unwrap_or_default(),
        description: description.unwrap_or_default(),
        license: node.get("license").and_then(|n| r.optional_text(n, "license")),
        compatibility,
        metadata: node
            .get("metadata")
            .map(|n| r.text_map(n, "metadata").into_iter().collect())
            .unwrap_or_default(),
        allowed_tools: node
            .get("allowed-tools")
            .map(|n| allowed_tools(&mut r, n))
            .unwrap_or_default(),
        disable_model_invocation: flag(&mut r, &node, "disable-model-invocation").unwrap_or(false),
        user_invocable: flag(&mut r, &node, "user-invocable").unwrap_or(true),
        profile_fields: node
            .get("profile_fields")
            .map(|n| profile_fields(&mut r, n))
            .unwrap_or_default(),
        requires_birth_info: flag(&mut r, &node, "requires_birth_info").unwrap_or(false),
        requires_compute: flag(&mut r, &node, "requires_compute").unwrap_or(false),
        compute_type: node.get("compute_type").and_then(|n| compute_type(&mut r, n)),
        expert_persona: node
            .get("expert_persona")
            .and_then(|n| r.optional_text(n, "expert_persona")),
        personas: node.get("personas").map(|n| personas(&mut r, n)).unwrap_or_default(),
        voice_modes: node.get("voice_modes").map(|n| voice_modes(&mut r, n)).unwrap_or_default(),
        triggers: node
            .get("triggers")
            .map(|n| r.text_list(n, "triggers").into_iter().map(|(t, _)| t).collect())
            .unwrap_or_default(),
        ethics: node.get("ethics").map(|n| ethics(&mut r, n)).unwrap_or_default(),
        default_scenario: node
            .get("default_scenario")
            .and_then(|n| r.optional_text(n, "default_scenario")),
        history: node.get("history").map(|n| history(&mut r, n)).unwrap_or_default(),
        lists: node.get("lists").map(|n| lists(&mut r, n)).unwrap_or_default(),
    };
    if meta.requires_compute && meta.compute_type.is_none() && node.get("compute_type").is_none() {
        let pos = node.get("requires_compute").map_or(fence, |n| n.pos);
        r.error(
            pos,
            format!(
                "`requires_compute` is true but `compute_type` is missing (known: {})",
                known_compute()
            ),
        );
    }
    meta.triggers.retain(|t| !t.trim().is_empty());
    r.problems.sort_by_key(|p| (p.line, p.col));
    let ok = !has_errors(&r.problems);
    let name_pos = node.get("name").map_or(Pos::START, |n| n.pos);
    let positions = entries.iter().map(|(k, v)| (k.text.clone(), v.pos)).collect();
    MetaParse { meta: ok.then_some(meta), problems: r.problems, name_pos, positions }
}

fn required_text(r: &mut Reader<'_>, node: &Node, field: &str, fence: Pos) -> Option<String> {
    match node.get(field) {
        None => {
            let code = ProblemCode::MissingField { field: field.to_string() };
            r.error_of(fence, code, format!("missing required field `{field}` in the frontmatter"));
            None
        }
        Some(n) if n.is_null() => {
            let code = ProblemCode::EmptyField { field: field.to_string() };
            r.error_of(n.pos, code, format!("`{field}` is empty; it is required"));
            None
        }
        Some(n) => r.text(n, field),
    }
}

fn check_skill_name(r: &mut Reader<'_>, node: &Node, name: &str, folder: &str) -> bool {
    let pos = node.get("name").map_or(Pos::START, |n| n.pos);
    if let Err(reason) = check_name(name) {
        r.error(pos, format!("invalid name `{name}`: {reason}"));
        return false;
    }
    if name != folder {
        let code =
            ProblemCode::NameNotFolder { name: name.to_string(), folder: folder.to_string() };
        r.error_of(
            pos,
            code,
            format!("name `{name}` must equal its folder name `{folder}` (rename one of them)"),
        );
        return false;
    }
    true
}

/// An empty text is an error (`None`); a text over `max` characters is a warning and comes back
/// shortened to `max` characters, cut at a character boundary and ended with `…`.
fn within_len(
    r: &mut Reader<'_>,
    node: &Node,
    field: &str,
    text: String,
    max: usize,
) -> Option<String> {
    let pos = node.get(field).map_or(Pos::START, |n| n.pos);
    let len = text.chars().count();
    if text.trim().is_empty() {
        let code = ProblemCode::EmptyField { field: field.to_string() };
        r.error_of(pos, code, format!("`{field}` is empty; write at least one character"));
        None
    } else if len > max {
        r.warn(
            pos,
            format!(
                "`{field}` has {len} characters, over the limit of {max}; loaded with the first \
                 {max} kept (shorten it so nothing is cut)"
            ),
        );
        Some(shorten(&text, max))
    } else {
        Some(text)
    }
}

/// The first `max` characters of `text` (never splitting a character), the last one replaced
/// by `…` when anything was cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

fn flag(r: &mut Reader<'_>, node: &Node, field: &str) -> Option<bool> {
    node.get(field).filter(|n| !n.is_null()).and_then(|n| r.bool(n, field))
}

fn allowed_tools(r: &mut Reader<'_>, node: &Node) -> Vec<String> {
    match node.scalar_text() {
        Some(text) => text.split_whitespace().map(str::to_string).collect(),
        None => r.text_list(node, "allowed-tools").into_iter().map(|(t, _)| t).collect(),
    }
}

fn known_compute() -> String {
    ComputeType::ALL.map(ComputeType::as_str).join(", ")
}

fn compute_type(r: &mut Reader<'_>, node: &Node) -> Option<ComputeType> {
    let text = r.optional_text(node, "compute_type")?;
    let parsed = ComputeType::parse(&text);
    if parsed.is_none() {
        let known = known_compute();
        let code = ProblemCode::UnknownValue {
            field: "compute_type".into(),
            value: text.to_string(),
            known: known.to_string(),
        };
        r.error_of(node.pos, code, format!("unknown compute_type `{text}` (known: {known})"));
    }
    parsed
}

fn voice_modes(r: &mut Reader<'_>, node: &Node) -> Vec<VoiceMode> {
    let known = VoiceMode::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ");
    r.text_list(node, "voice_modes")
        .into_iter()
        .filter_map(|(t, pos)| {
            let v = VoiceMode::parse(&t);
            if v.is_none() {
                let code = ProblemCode::UnknownValue {
                    field: "voice_modes".into(),
                    value: t.to_string(),
                    known: known.to_string(),
                };
                r.error_of(pos, code, format!("unknown voice mode `{t}` (known: {known})"));
            }
            v
        })
        .collect()
}

fn is_ident(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars().all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_' | '-'))
}

fn profile_fields(r: &mut Reader<'_>, node: &Node) -> Vec<String> {
    let mut out = Vec::new();
    for (path, pos) in r.text_list(node, "profile_fields") {
        let mut segments: Vec<&str> = path.split('.').collect();
        if !segments.iter().all(|s| is_ident(s)) {
            r.error(pos, format!("profile field `{path}` must be dot-separated names of a-z, 0-9, `_`, `-` (e.g. `skills.bazi`)"));
            continue;
        }
        if segments[0] == "skill_data" {
            r.warn(
                pos,
                format!(
                    "`{path}` is the legacy name; read as `skills.{}`",
                    segments[1..].join(".")
                ),
            );
            segments[0] = "skills";
        } else if !PROFILE_ROOTS.contains(&segments[0]) {
            r.error(
                pos,
                format!(
                    "unknown profile field `{}` (known: {})",
                    segments[0],
                    PROFILE_ROOTS.join(", ")
                ),
            );
            continue;
        }
        out.push(segments.join("."));
    }
    out
}

fn personas(r: &mut Reader<'_>, node: &Node) -> Vec<Persona> {
    let Some(entries) = r.mapping(node, "personas") else { return Vec::new() };
    let mut out = Vec::new();
    for (k, v) in entries {
        if !is_ident(&k.text) {
            r.error(
                k.pos,
                format!(
                    "persona id `{}` must use a-z, 0-9, `_` or `-` (e.g. `future_self`)",
                    k.text
                ),
            );
            continue;
        }
        if let Some(description) = r.text(v, &format!("personas.{}", k.text)) {
            out.push(Persona { id: k.text.clone(), description });
        }
    }
    out
}

fn ethics(r: &mut Reader<'_>, node: &Node) -> Ethics {
    let Some(entries) = r.mapping(node, "ethics") else { return Ethics::default() };
    r.unknown_keys(entries, &["forbidden"], "ethics field");
    let forbidden =
        node.get("forbidden").map(|n| r.text_list(n, "ethics.forbidden")).unwrap_or_default();
    Ethics { forbidden: forbidden.into_iter().map(|(t, _)| t).collect() }
}

fn history(r: &mut Reader<'_>, node: &Node) -> HistoryLimits {
    let Some(entries) = r.mapping(node, "history") else { return HistoryLimits::default() };
    r.unknown_keys(entries, &["max_messages", "max_tokens"], "history field");
    HistoryLimits {
        max_messages: node
            .get("max_messages")
            .and_then(|n| r.positive_int(n, "history.max_messages")),
        max_tokens: node.get("max_tokens").and_then(|n| r.positive_int(n, "history.max_tokens")),
    }
}

/// `lists: {journal: {max_items: 365}}`: a dotted list path of the skill's state (segments
/// not starting with `_`) → its declaration.
fn lists(r: &mut Reader<'_>, node: &Node) -> BTreeMap<String, ListDecl> {
    let Some(entries) = r.mapping(node, "lists") else { return BTreeMap::new() };
    let mut out = BTreeMap::new();
    for (k, v) in entries {
        let bad = k.text.split('.').any(|s| s.is_empty() || s.starts_with('_'));
        if bad {
            let message = format!(
                "list path `{}` must be dotted names not starting with `_` (e.g. `journal` or `progress.milestones`)",
                k.text
            );
            r.error(k.pos, message);
            continue;
        }
        let field = format!("lists.{}", k.text);
        let Some(fields) = r.mapping(v, &field) else { continue };
        r.unknown_keys(fields, &["max_items"], "list field");
        let max_items =
            v.get("max_items").and_then(|n| r.positive_int(n, &format!("{field}.max_items")));
        out.insert(k.text.clone(), ListDecl { max_items });
    }
    out
}

#[cfg(test)]
#[path = "meta_parse_tests.rs"]
mod tests;
