//! The parts of a phase-2 prompt that depend only on a skill's files — the expert persona
//! (SKILL.md's body under its title) and the guide (its rules, or the chosen scenario) —
//! rendered and counted once per version of those files. Both model calls of every turn ask
//! for them; without this they were rebuilt (headings demoted, sections joined) and hashed
//! again each time. An entry holds the parsed files it was made from and is used only while
//! the registry still hands out those very files (it hands out new ones when a file changes).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use vibe_skills::{Rule, Scenario, SkillsError};

use super::sections::demote_headings;
use super::texts;
use super::tokenizer::Tokenizer;
use super::trim::Guide;
use crate::CoreError;

/// Skills × scenarios kept at most; the cache is emptied beyond this.
const CAP: usize = 64;

/// The files a prompt's static parts come from.
#[derive(Clone)]
struct Sources {
    body: Arc<String>,
    rules: Vec<Arc<Rule>>,
    scenario: Option<Arc<Scenario>>,
}

impl Sources {
    fn same(&self, other: &Sources) -> bool {
        Arc::ptr_eq(&self.body, &other.body)
            && self.rules.len() == other.rules.len()
            && self.rules.iter().zip(&other.rules).all(|(a, b)| Arc::ptr_eq(a, b))
            && match (&self.scenario, &other.scenario) {
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
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

/// Skill name, persona title, scenario.
type Key = (String, String, Option<String>);

struct Entry {
    sources: Sources,
    statics: Arc<Statics>,
}

/// Static parts by skill, title and scenario.
#[derive(Default)]
pub(crate) struct StaticCache {
    entries: Mutex<HashMap<Key, Entry>>,
}

/// `body` with a `# title` line unless it starts with a heading of its own.
pub(crate) fn titled(body: &str, title: &str) -> String {
    if body.starts_with('#') { body.to_string() } else { format!("# {title}\n\n{body}") }
}

impl StaticCache {
    /// The static parts of skill `name` (persona titled `title`), with `scenario` replacing
    /// its rules when the skill has it.
    pub fn get(
        &self,
        skills: &vibe_skills::Registry,
        tk: &Tokenizer,
        name: &str,
        title: &str,
        scenario: Option<&str>,
    ) -> Result<Arc<Statics>, CoreError> {
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
        let key = (name.to_string(), title.to_string(), scenario.map(str::to_string));
        {
            let entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(e) = entries.get(&key).filter(|e| e.sources.same(&sources)) {
                return Ok(e.statics.clone());
            }
        }
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
        let mut entries = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if entries.len() >= CAP {
            entries.clear();
        }
        entries.insert(key, Entry { sources, statics: statics.clone() });
        Ok(statics)
    }
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
