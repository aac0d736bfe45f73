//! The rules file (`data/safety/rules.yaml`): its serde shape, validation and compilation
//! into a [`RuleSet`]. The matching itself is in `screen.rs`. Regexes compile on first use and
//! the rules, guards and fiction cues are gated by literals (`gate.rs`), so a message compiles
//! only what its words can match.

use std::collections::{BTreeMap, HashMap};
use std::sync::{LazyLock, OnceLock};

use aho_corasick::AhoCorasick;
use regex::Regex;
use serde::Deserialize;

use super::error::SafetyError;
use super::gate::{GateTable, required_literals};
use super::learned::LearnedSource;
use super::types::{Category, Risk};

/// The gates of the built-in rules, worked out ahead of time (`gate.rs`).
pub(super) const BUILTIN_GATES: &str = include_str!("../../data/safety/gates.json");
static GATES: LazyLock<GateTable> = LazyLock::new(|| GateTable::parse(BUILTIN_GATES));

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
    /// Named contexts rules share: dropping ones (`unless_contexts` on a rule) and deferring
    /// ones (`defer_contexts`).
    #[serde(default)]
    contexts: BTreeMap<String, Vec<String>>,
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
    #[serde(default)]
    unless_contexts: Vec<String>,
    #[serde(default)]
    defer_contexts: Vec<String>,
}

impl RuleEntry {
    /// The rule's own `unless` patterns, then those of each named context it lists.
    fn unless_with(&self, contexts: &BTreeMap<String, Vec<String>>) -> Result<Vec<String>, String> {
        let mut all = self.unless.clone();
        all.extend(self.named(&self.unless_contexts, "unless_contexts", contexts)?);
        Ok(all)
    }

    /// The patterns of the contexts in `defer_contexts`.
    fn defer_with(&self, contexts: &BTreeMap<String, Vec<String>>) -> Result<Vec<String>, String> {
        self.named(&self.defer_contexts, "defer_contexts", contexts)
    }

    /// The patterns of the contexts `names` (the rule's `field`), in order.
    fn named(
        &self,
        names: &[String],
        field: &str,
        contexts: &BTreeMap<String, Vec<String>>,
    ) -> Result<Vec<String>, String> {
        let mut all = Vec::new();
        for name in names {
            let Some(patterns) = contexts.get(name) else {
                let known: Vec<&str> = contexts.keys().map(String::as_str).collect();
                return Err(format!(
                    "rule \"{}\": unknown context \"{name}\" in {field} (the file's \
                     `contexts:` defines {})",
                    self.id,
                    if known.is_empty() { "none".to_string() } else { known.join(", ") }
                ));
            };
            all.extend(patterns.iter().cloned());
        }
        Ok(all)
    }
}

/// Every context is named by at least one rule and has a pattern: a context nobody uses, or one
/// that drops nothing, is a mistake to report, not to carry. (A name no context defines is
/// refused where the rule's lists are read, [`RuleEntry::named`].)
fn check_contexts(
    contexts: &BTreeMap<String, Vec<String>>,
    rules: &[RuleEntry],
) -> Result<(), String> {
    for (name, patterns) in contexts {
        if patterns.is_empty() {
            return Err(format!("context \"{name}\" has no patterns"));
        }
        let listed =
            |r: &RuleEntry| r.unless_contexts.contains(name) || r.defer_contexts.contains(name);
        if !rules.iter().any(listed) {
            return Err(format!(
                "context \"{name}\" is listed in no rule's unless_contexts or defer_contexts: \
                 use it or remove it"
            ));
        }
    }
    Ok(())
}

/// One compiled rule: any of its patterns firing is a hit.
#[derive(Debug)]
pub(super) struct Rule {
    pub id: String,
    pub category: Category,
    pub risk: Risk,
    pub pattern: LazyRegex,
    pub keep_when_reported: bool,
    pub unsure: bool,
    /// Lookalike contexts: a hit whose sentence matches this is no hit at all (a marathon's
    /// breathlessness, cooking), so broad term lists stay usable.
    pub unless: Option<LazyRegex>,
    /// Lookalike settings of the whole message (a clinician telling a shift, an emergency told
    /// as over): a hit in such a message is left to the model check (risk none, unsure).
    pub defer: Option<LazyRegex>,
}

/// A regex compiled on first use. Its text was parsed when the set was built (or when the
/// gate table was generated from it), so compiling it later only fails on a size limit, which
/// the built-in rules' tests rule out; such a regex then matches nothing and says so in the log.
#[derive(Debug)]
pub(super) struct LazyRegex {
    source: String,
    /// Literals one of which every match holds; `None`: no gate, always run.
    pub gate: Option<Vec<String>>,
    compiled: OnceLock<Regex>,
}

impl LazyRegex {
    /// The compiled regex (compiled now on first use).
    pub fn get(&self) -> &Regex {
        self.compiled.get_or_init(|| {
            Regex::new(&self.source).unwrap_or_else(|e| {
                tracing::error!(error = %e, "a safety rule does not compile; it matches nothing");
                never()
            })
        })
    }

    /// Whether it is compiled yet (tests).
    #[cfg(test)]
    pub fn is_compiled(&self) -> bool {
        self.compiled.get().is_some()
    }
}

/// A regex that matches nothing.
#[allow(clippy::expect_used)] // a constant pattern the tests compile
fn never() -> Regex {
    Regex::new(r"[^\s\S]").expect("a constant pattern")
}

/// Which gated regexes a message's words can open: one automaton over every gate's literals.
#[derive(Debug)]
pub(super) struct Prefilter {
    automaton: Option<AhoCorasick>,
    /// For each literal of the automaton, the gated regexes it opens.
    owners: Vec<Vec<usize>>,
    /// Gated regexes without a gate: always open.
    always: Vec<bool>,
}

impl Prefilter {
    fn new(gates: &[Option<&Vec<String>>]) -> Prefilter {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut literals: Vec<&str> = Vec::new();
        let mut owners: Vec<Vec<usize>> = Vec::new();
        let mut always = vec![false; gates.len()];
        for (owner, gate) in gates.iter().enumerate() {
            let Some(gate) = gate else {
                always[owner] = true;
                continue;
            };
            for literal in gate.iter() {
                let at = *index.entry(literal.as_str()).or_insert_with(|| {
                    literals.push(literal.as_str());
                    owners.push(Vec::new());
                    literals.len() - 1
                });
                owners[at].push(owner);
            }
        }
        let automaton = match AhoCorasick::new(&literals) {
            Ok(automaton) => Some(automaton),
            Err(e) => {
                // Too large an automaton: no prefilter, every regex runs (slower, same result).
                tracing::warn!(error = %e, "the safety rules' literal prefilter does not build");
                always.iter_mut().for_each(|open| *open = true);
                None
            }
        };
        Prefilter { automaton, owners, always }
    }

    /// For each gated regex, whether `text` can match it.
    pub fn open(&self, text: &str) -> Vec<bool> {
        let mut open = self.always.clone();
        if let Some(automaton) = &self.automaton {
            for found in automaton.find_overlapping_iter(text) {
                for &owner in &self.owners[found.pattern().as_usize()] {
                    open[owner] = true;
                }
            }
        }
        open
    }
}

/// A compiled, validated rules file. Build with [`RuleSet::parse`]; screen with
/// [`RuleSet::screen`].
#[derive(Debug)]
pub struct RuleSet {
    pub(super) fold: HashMap<char, char>,
    pub(super) negation: Option<LazyRegex>,
    pub(super) negation_adjacent: Option<LazyRegex>,
    pub(super) fiction: Option<LazyRegex>,
    pub(super) reported: Option<LazyRegex>,
    pub(super) joking: Option<LazyRegex>,
    pub(super) guards: Option<LazyRegex>,
    pub(super) rules: Vec<Rule>,
    /// Gates of the rules (by index), then of the guards, then of the fiction cues.
    pub(super) prefilter: Prefilter,
    /// The learned detectors asked when no rule fires (none unless added).
    pub(super) learned: Vec<LearnedSource>,
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
        for entry in &raw.rules {
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
            let unless = compile(&entry.id, &entry.unless_with(&raw.contexts).map_err(format)?)?;
            let defer = compile(&entry.id, &entry.defer_with(&raw.contexts).map_err(format)?)?;
            rules.push(Rule {
                unless,
                defer,
                id: entry.id.clone(),
                category,
                risk,
                pattern,
                keep_when_reported: entry.keep_when_reported,
                unsure: entry.unsure,
            });
        }
        check_contexts(&raw.contexts, &raw.rules).map_err(format)?;
        let guards = compile("guards", &guards)?;
        let fiction = compile("fiction", &raw.fiction)?;
        let mut gates: Vec<Option<&Vec<String>>> =
            rules.iter().map(|rule| rule.pattern.gate.as_ref()).collect();
        gates.push(guards.as_ref().and_then(|g| g.gate.as_ref()));
        gates.push(fiction.as_ref().and_then(|f| f.gate.as_ref()));
        let prefilter = Prefilter::new(&gates);
        Ok(RuleSet {
            fold,
            negation: compile("negation", &anywhere)?,
            negation_adjacent: compile("negation", &adjacent)?,
            fiction,
            reported: compile("reported", &raw.reported)?,
            joking: compile("joking", &raw.joking)?,
            guards,
            rules,
            prefilter,
            learned: Vec::new(),
        })
    }

    /// The same rules with learned detectors beside them (one per language), asked only when
    /// no rule fires (`screen.rs`).
    pub fn with_learned(mut self, models: Vec<LearnedSource>) -> RuleSet {
        self.learned = models;
        self
    }

    /// Load every learned detector now (long-lived hosts, from [`super::warm_up`]).
    pub fn load_learned(&self) {
        for source in &self.learned {
            source.get();
        }
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

/// Every joined pattern a rules file compiles (each rule's patterns and `unless`, the guards and
/// the cues), in file order: the keys of the gate table (`gate.rs`).
#[cfg(test)]
pub(super) fn joined_patterns(yaml: &str) -> Result<Vec<String>, serde_yaml_ng::Error> {
    let raw: RulesFile = serde_yaml_ng::from_str(yaml)?;
    let (adjacent, anywhere): (Vec<String>, Vec<String>) =
        raw.negation.into_iter().partition(|p| p.ends_with('$'));
    let guards: Vec<String> = raw.guards.into_iter().map(|g| g.pattern).collect();
    let mut lists = vec![anywhere, adjacent, raw.fiction, raw.reported, raw.joking, guards];
    for rule in &raw.rules {
        lists.push(rule.patterns.clone());
        lists.push(rule.unless_with(&raw.contexts).unwrap_or_default());
        lists.push(rule.defer_with(&raw.contexts).unwrap_or_default());
    }
    Ok(lists.iter().filter(|list| !list.is_empty()).map(|list| joined_pattern(list)).collect())
}

#[cfg(test)]
impl RuleSet {
    /// The same set with every gate open (each regex runs on every message), to compare with.
    pub(super) fn without_gates(mut self) -> RuleSet {
        self.prefilter.always.iter_mut().for_each(|open| *open = true);
        self
    }
}

/// One regex matching any of `patterns` (None when empty), compiled on first use. A joined
/// pattern the gate table knows was checked when the table was generated; any other is
/// compiled now (its gate worked out too), and when it fails each pattern is compiled alone,
/// so the error names the broken one.
fn compile(file: &str, rule: &str, patterns: &[String]) -> Result<Option<LazyRegex>, SafetyError> {
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
    let source = joined_pattern(patterns);
    if let Some(gate) = GATES.get(&source) {
        return Ok(Some(LazyRegex { source, gate, compiled: OnceLock::new() }));
    }
    match Regex::new(&source) {
        Ok(regex) => {
            let gate = required_literals(&source).ok().flatten();
            Ok(Some(LazyRegex { source, gate, compiled: OnceLock::from(regex) }))
        }
        Err(joined_error) => {
            for pattern in patterns {
                Regex::new(&ascii_boundaries(pattern)).map_err(|e| error(pattern, e))?;
            }
            Err(error(&source, joined_error))
        }
    }
}

/// The one regex text of a list of patterns, as compiled and as keyed in the gate table.
pub(super) fn joined_pattern(patterns: &[String]) -> String {
    patterns.iter().map(|p| format!("(?:{})", ascii_boundaries(p))).collect::<Vec<_>>().join("|")
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
