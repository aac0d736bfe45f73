//! The parts of a phase-2 prompt that depend only on a skill's files — the expert persona
//! (SKILL.md's body under its title) and the guide (its rules, or the chosen scenario) —
//! rendered and counted. Built once per run (a run's later calls reuse them through
//! `run_parts.rs`); a process-wide cache of them was removed earlier because it did not pay
//! (docs/performance.md, "Caches measured"), and the token counts of the rendered texts stay
//! cached by the tokenizer.

use std::sync::Arc;

use vibe_skills::{Rule, Scenario, SkillsError};

use super::sections::demote_headings;
use super::texts;
use super::tokenizer::Tokenizer;
use crate::ContextError;

/// The files a prompt's static parts come from.
struct Sources {
    body: Arc<String>,
    rules: Vec<Arc<Rule>>,
    scenario: Option<Arc<Scenario>>,
}

/// Rules or a scenario: a heading and the files' texts.
pub(crate) struct Guide {
    pub kind: &'static str,
    pub heading: String,
    pub items: Vec<String>,
}

/// A skill's static parts, rendered and counted.
pub(crate) struct Statics {
    /// The expert persona section and its tokens.
    pub persona: String,
    pub persona_tokens: u32,
    /// Rules or the scenario; `None` when the skill has neither.
    pub guide: Option<Guide>,
    /// The guide section as rendered untrimmed, and its tokens.
    pub guide_text: Option<(String, u32)>,
    /// What differed from the request (an unknown scenario), for the prompt's notices.
    pub notices: Vec<String>,
}

/// `body` with a `# title` line unless it starts with a heading of its own.
pub(crate) fn titled(body: &str, title: &str) -> String {
    if body.starts_with('#') { body.to_string() } else { format!("# {title}\n\n{body}") }
}

/// The static parts of skill `name` (persona titled `title`), with `scenario` replacing its
/// rules when the skill has it.
pub(crate) fn build(
    skills: &vibe_skills::Registry,
    tk: &Tokenizer,
    name: &str,
    title: &str,
    scenario: Option<&str>,
) -> Result<Arc<Statics>, ContextError> {
    let mut notices = Vec::new();
    let chosen = match scenario {
        None => None,
        Some(id) => match skills.scenario(name, id) {
            Ok(s) => Some(s),
            Err(e @ SkillsError::UnknownPart { .. }) => {
                notices.push(format!("scenario: {e}; using the skill's rules"));
                None
            }
            Err(e) => return Err(e.into()),
        },
    };
    let sources = Sources {
        body: skills.body(name)?,
        rules: if chosen.is_some() { Vec::new() } else { skills.rules(name)? },
        scenario: chosen,
    };
    let persona = titled(sources.body.trim(), title);
    let guide = guide(&sources);
    let guide_text = guide.as_ref().map(|g| {
        let text = format!("{}\n\n{}", g.heading, g.items.join("\n\n"));
        let tokens = tk.count(&text);
        (text, tokens)
    });
    let statics = Arc::new(Statics {
        persona_tokens: tk.count(&persona),
        persona,
        guide,
        guide_text,
        notices,
    });
    Ok(statics)
}

/// The chosen scenario, else the non-empty rules.
fn guide(sources: &Sources) -> Option<Guide> {
    if let Some(s) = &sources.scenario {
        let mut heading = format!("## 当前场景：{}", s.name);
        if !s.description.trim().is_empty() {
            heading.push_str(&format!("\n{}", s.description.trim()));
        }
        return Some(Guide { kind: "scenario", heading, items: vec![demote_headings(&s.body, 2)] });
    }
    let items: Vec<String> = sources
        .rules
        .iter()
        .filter(|r| !r.text.trim().is_empty())
        .map(|r| demote_headings(&r.text, 2))
        .collect();
    (!items.is_empty()).then(|| Guide {
        kind: "rules",
        heading: texts::RULES_HEADING.to_string(),
        items,
    })
}
