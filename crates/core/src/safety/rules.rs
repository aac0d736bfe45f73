//! The rules file (`data/safety/rules.yaml`): its serde shape, validation and compilation
//! into a [`RuleSet`]. The matching itself is in `screen.rs`.

use std::collections::HashMap;

use regex::Regex;
use serde::Deserialize;

use super::error::SafetyError;
use super::types::{Category, Risk};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesFile {
    #[serde(default)]
    fold: String,
    #[serde(default)]
    negation: Vec<String>,
    #[serde(default)]
    fiction: Vec<String>,
    #[serde(default)]
    reported: Vec<String>,
    #[serde(default)]
    joking: Vec<String>,
    #[serde(default)]
    guards: Vec<GuardEntry>,
    rules: Vec<RuleEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GuardEntry {
    id: String,
    pattern: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RuleEntry {
    id: String,
    category: String,
    risk: String,
    patterns: Vec<String>,
    #[serde(default)]
    keep_when_reported: bool,
    #[serde(default)]
    unsure: bool,
    #[serde(default)]
    unless: Vec<String>,
}

/// One compiled rule: any of its patterns firing is a hit.
#[derive(Debug)]
pub(super) struct Rule {
    pub id: String,
    pub category: Category,
    pub risk: Risk,
    pub pattern: Regex,
    pub keep_when_reported: bool,
    pub unsure: bool,
    /// Lookalike contexts: a hit whose sentence matches this is no hit at all (a nurse's
    /// shift, a marathon's breathlessness), so broad term lists stay usable.
    pub unless: Option<Regex>,
}

/// A compiled, validated rules file. Build with [`RuleSet::parse`]; screen with
/// [`RuleSet::screen`].
#[derive(Debug)]
pub struct RuleSet {
    pub(super) fold: HashMap<char, char>,
    pub(super) negation: Regex,
    pub(super) negation_adjacent: Regex,
    pub(super) fiction: Option<Regex>,
    pub(super) reported: Option<Regex>,
    pub(super) joking: Option<Regex>,
    pub(super) guards: Option<Regex>,
    pub(super) rules: Vec<Rule>,
}

impl RuleSet {
    /// Parse and compile a rules file. `file` names it in error messages.
    pub fn parse(yaml: &str, file: &str) -> Result<RuleSet, SafetyError> {
        let format = |message: String| SafetyError::Format { file: file.to_string(), message };
        let raw: RulesFile = serde_yaml_ng::from_str(yaml).map_err(|e| format(e.to_string()))?;
        let fold = parse_fold(&raw.fold).map_err(format)?;
        let compile = |rule: &str, patterns: &[String]| compile(file, rule, patterns);
        // `不$`-style cues only count right before the hit; the rest anywhere before it.
        let (adjacent, anywhere): (Vec<String>, Vec<String>) =
            raw.negation.into_iter().partition(|p| p.ends_with('$'));
        let guards: Vec<String> = raw.guards.iter().map(|g| g.pattern.clone()).collect();
        for guard in &raw.guards {
            compile(&guard.id, std::slice::from_ref(&guard.pattern))?;
        }
        let mut rules = Vec::with_capacity(raw.rules.len());
        let mut seen = std::collections::HashSet::new();
        for entry in raw.rules {
            if !seen.insert(entry.id.clone()) {
                return Err(format(format!(
                    "rule id \"{}\" is used twice; ids must be unique",
                    entry.id
                )));
            }
            let category = Category::parse(&entry.category).ok_or_else(|| {
                format(format!(
                    "rule \"{}\": unknown category \"{}\" (use suicide, self_harm, harm_others, abuse or medical)",
                    entry.id, entry.category
                ))
            })?;
            let risk = match Risk::parse(&entry.risk) {
                Some(Risk::None) | None => {
                    return Err(format(format!(
                        "rule \"{}\": risk \"{}\" is not concern or acute",
                        entry.id, entry.risk
                    )));
                }
                Some(risk) => risk,
            };
            if entry.patterns.is_empty() {
                return Err(format(format!("rule \"{}\" has no patterns", entry.id)));
            }
            let pattern = compile(&entry.id, &entry.patterns)?
                .ok_or_else(|| format(format!("rule \"{}\" has no patterns", entry.id)))?;
            let unless = compile(&entry.id, &entry.unless)?;
            rules.push(Rule {
                unless,
                id: entry.id,
                category,
                risk,
                pattern,
                keep_when_reported: entry.keep_when_reported,
                unsure: entry.unsure,
            });
        }
        let never = || Regex::new(r"[^\s\S]").map_err(|e| format(e.to_string()));
        Ok(RuleSet {
            fold,
            negation: compile("negation", &anywhere)?.map_or_else(never, Ok)?,
            negation_adjacent: compile("negation", &adjacent)?.map_or_else(never, Ok)?,
            fiction: compile("fiction", &raw.fiction)?,
            reported: compile("reported", &raw.reported)?,
            joking: compile("joking", &raw.joking)?,
            guards: compile("guards", &guards)?,
            rules,
        })
    }

    /// How many rules the set holds.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether the set holds no rule.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }
}

/// One regex matching any of `patterns` (None when empty). The joined regex is compiled once;
/// only when it fails is each pattern compiled alone, so the error names the broken one.
fn compile(file: &str, rule: &str, patterns: &[String]) -> Result<Option<Regex>, SafetyError> {
    let error = |pattern: &str, e: regex::Error| SafetyError::Pattern {
        file: file.to_string(),
        rule: rule.to_string(),
        pattern: pattern.to_string(),
        message: e.to_string(),
    };
    if let Some(empty) = patterns.iter().find(|p| p.is_empty()) {
        return Err(error(empty, regex::Error::Syntax("empty pattern matches everything".into())));
    }
    if patterns.is_empty() {
        return Ok(None);
    }
    let joined =
        patterns.iter().map(|p| format!("(?:{})", ascii_boundaries(p))).collect::<Vec<_>>();
    match Regex::new(&joined.join("|")) {
        Ok(regex) => Ok(Some(regex)),
        Err(joined_error) => {
            for pattern in patterns {
                Regex::new(&ascii_boundaries(pattern)).map_err(|e| error(pattern, e))?;
            }
            Err(error(&joined.join("|"), joined_error))
        }
    }
}

/// `pattern` with each word boundary (`\b`, `\B`) made an ASCII one (`(?-u:\b)`). The rules'
/// word boundaries delimit English words; a Unicode boundary would also make the regex engine
/// give up its fast automaton on any message holding a non-ASCII character (every Chinese
/// message) and fall back to a backtracking search, for every rule.
fn ascii_boundaries(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(b @ ('b' | 'B')) => {
                out.push_str("(?-u:\\");
                out.push(b);
                out.push(')');
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The `fold` table: pairs of characters, Traditional first, whitespace ignored.
fn parse_fold(text: &str) -> Result<HashMap<char, char>, String> {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if !chars.len().is_multiple_of(2) {
        return Err(format!(
            "fold: odd number of characters ({}); write pairs like 殺杀 (Traditional first)",
            chars.len()
        ));
    }
    let mut map = HashMap::new();
    for pair in chars.chunks(2) {
        let (from, to) = (pair[0], pair[1]);
        if from == to {
            return Err(format!("fold: pair {from}{to} maps a character to itself; remove it"));
        }
        if let Some(old) = map.insert(from, to)
            && old != to
        {
            return Err(format!("fold: {from} is mapped twice ({from}{old} and {from}{to})"));
        }
    }
    Ok(map)
}
