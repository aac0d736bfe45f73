//! Literal gates for the safety rules: for one regex, a short list of literals one of which
//! every match must contain (read off its syntax tree), so a message holding none of them
//! cannot match and the regex need not be compiled or run for it. Compiling all the rules
//! costs about 0.2 s of CPU and 45 MB at every start; with gates a message compiles only the
//! few rules whose words it holds (docs/performance.md#start-up).
//!
//! A gate may be weaker than the regex (a message passes the gate and the regex still does not
//! match) but never stronger: a pattern whose required literals cannot be told gets no gate
//! and is always run. The built-in rules' gates are worked out ahead of time into
//! `data/safety/gates.json`, keyed by the exact pattern text, so a process does not parse the
//! rules to find them; a pattern missing from that file (an edited rule before the file is
//! regenerated) has its gate worked out at parse time instead. This module does not compile
//! or run regexes.

use std::collections::HashMap;

use regex_syntax::hir::{Class, Hir, HirKind};

/// A class with more characters than this is not spelled out as literals.
const MAX_CLASS: usize = 8;
/// Spelled-out alternatives (a product of small sets) larger than this are not kept.
const MAX_LITERALS: usize = 256;
/// A gate with more literals than this is not kept (a rule of many patterns joins theirs).
const MAX_GATE: usize = 8192;

/// The literals one of which every match of `pattern` contains, or `None` when no such
/// finite list can be told from its syntax. Parses the pattern (a syntax error is returned).
pub fn required_literals(pattern: &str) -> Result<Option<Vec<String>>, Box<regex_syntax::Error>> {
    let hir = regex_syntax::Parser::new().parse(pattern).map_err(Box::new)?;
    Ok(required(&hir).map(|mut set| {
        set.sort();
        set.dedup();
        // "ab" is implied by "a": a message holding "ab" holds "a".
        let mut kept: Vec<String> = Vec::with_capacity(set.len());
        for literal in set.iter() {
            if !set.iter().any(|other| other != literal && literal.contains(other.as_str())) {
                kept.push(literal.clone());
            }
        }
        kept
    }))
}

/// Every string `hir` matches, when that set is finite and small (its parts are literals,
/// small classes, alternations and optional pieces of those).
fn exact(hir: &Hir) -> Option<Vec<String>> {
    match hir.kind() {
        HirKind::Empty => Some(vec![String::new()]),
        HirKind::Literal(literal) => std::str::from_utf8(&literal.0).ok().map(|s| vec![s.into()]),
        HirKind::Class(class) => class_chars(class),
        HirKind::Capture(capture) => exact(&capture.sub),
        HirKind::Alternation(alternatives) => union(alternatives, exact, MAX_LITERALS),
        HirKind::Concat(parts) => product(parts.iter().map(exact)),
        HirKind::Repetition(repetition) if repetition.min == 0 && repetition.max == Some(1) => {
            let mut out = exact(&repetition.sub)?;
            out.push(String::new());
            Some(out)
        }
        HirKind::Repetition(_) | HirKind::Look(_) => None,
    }
}

/// The sets of every alternative together, when each is known and there are at most `cap`.
fn union(
    alternatives: &[Hir],
    set: fn(&Hir) -> Option<Vec<String>>,
    cap: usize,
) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for alternative in alternatives {
        out.extend(set(alternative)?);
        if out.len() > cap {
            return None;
        }
    }
    Some(out)
}

/// The concatenations of one choice from each set, when every set is known and the result
/// stays small.
fn product(sets: impl Iterator<Item = Option<Vec<String>>>) -> Option<Vec<String>> {
    let mut out = vec![String::new()];
    for set in sets {
        let set = set?;
        if out.len() * set.len() > MAX_LITERALS {
            return None;
        }
        out = out
            .iter()
            .flat_map(|head| set.iter().map(move |tail| format!("{head}{tail}")))
            .collect();
    }
    Some(out)
}

/// Literals one of which every match of `hir` contains.
fn required(hir: &Hir) -> Option<Vec<String>> {
    if let Some(set) = exact(hir) {
        // An empty string in the set means a match may hold nothing at all.
        return (!set.iter().any(String::is_empty)).then_some(set);
    }
    match hir.kind() {
        HirKind::Capture(capture) => required(&capture.sub),
        HirKind::Repetition(repetition) if repetition.min >= 1 => required(&repetition.sub),
        HirKind::Alternation(alternatives) => union(alternatives, required, MAX_GATE),
        HirKind::Concat(parts) => {
            // Any run of parts with known exact sets spells out whole literals, any other part
            // its own required ones: every match holds one of each, so keep the most selective.
            let mut candidates: Vec<Vec<String>> = Vec::new();
            let mut run: Vec<Vec<String>> = Vec::new();
            let close_run = |run: &mut Vec<Vec<String>>, candidates: &mut Vec<Vec<String>>| {
                // From each part, the longest window of parts whose spelled-out product stays
                // small: a window's literals are whole substrings of every match.
                for start in 0..run.len() {
                    let mut window: Option<Vec<String>> = None;
                    for end in start + 1..=run.len() {
                        match product(run[start..end].iter().cloned().map(Some)) {
                            Some(set) => window = Some(set),
                            None => break,
                        }
                    }
                    if let Some(set) = window
                        && !set.iter().any(String::is_empty)
                    {
                        candidates.push(set);
                    }
                }
                run.clear();
            };
            for part in parts {
                match exact(part) {
                    Some(set) => run.push(set),
                    None => {
                        close_run(&mut run, &mut candidates);
                        candidates.extend(required(part));
                    }
                }
            }
            close_run(&mut run, &mut candidates);
            candidates.into_iter().max_by_key(|set| selectivity(set))
        }
        _ => None,
    }
}

/// Longer literals and fewer of them pass fewer messages.
fn selectivity(set: &[String]) -> (usize, std::cmp::Reverse<usize>) {
    let shortest = set.iter().map(|s| s.chars().count()).min().unwrap_or(0);
    (shortest, std::cmp::Reverse(set.len()))
}

/// The characters of a small class, one literal each.
fn class_chars(class: &Class) -> Option<Vec<String>> {
    match class {
        Class::Unicode(class) => {
            let count: usize = class.ranges().iter().map(|r| r.len()).sum();
            (count <= MAX_CLASS).then(|| {
                class
                    .ranges()
                    .iter()
                    .flat_map(|r| (r.start()..=r.end()).map(String::from))
                    .collect()
            })
        }
        // A byte class matches bytes, not characters: only ASCII ones are spelled out.
        Class::Bytes(class) => {
            let count: usize = class.ranges().iter().map(|r| r.len()).sum();
            (count <= MAX_CLASS && class.ranges().iter().all(|r| r.end().is_ascii())).then(|| {
                class
                    .ranges()
                    .iter()
                    .flat_map(|r| (r.start()..=r.end()).map(|b| char::from(b).to_string()))
                    .collect()
            })
        }
    }
}

/// The gates worked out ahead of time for the built-in rules, keyed by exact pattern text.
pub struct GateTable(HashMap<String, Option<Vec<String>>>);

impl GateTable {
    /// Read `data/safety/gates.json`. A table that does not read is an empty table (every
    /// gate is then worked out at parse time; slower, never wrong).
    pub fn parse(json: &str) -> GateTable {
        #[derive(serde::Deserialize)]
        struct File {
            gates: Vec<Entry>,
        }
        #[derive(serde::Deserialize)]
        struct Entry {
            pattern: String,
            literals: Option<Vec<String>>,
        }
        match serde_json::from_str::<File>(json) {
            Ok(file) => GateTable(
                file.gates.into_iter().map(|entry| (entry.pattern, entry.literals)).collect(),
            ),
            Err(e) => {
                tracing::warn!(error = %e, "the safety rules' gate table does not read; working the gates out at start");
                GateTable(HashMap::new())
            }
        }
    }

    /// The gate of `pattern` when the table has it.
    pub fn get(&self, pattern: &str) -> Option<Option<Vec<String>>> {
        self.0.get(pattern).cloned()
    }

    /// The table file for `patterns` (each gate worked out now), as written to
    /// `data/safety/gates.json`.
    #[cfg(test)]
    pub fn render(patterns: &[String]) -> Result<String, Box<regex_syntax::Error>> {
        let mut gates = Vec::with_capacity(patterns.len());
        for pattern in patterns {
            gates.push(serde_json::json!({
                "pattern": pattern,
                "literals": required_literals(pattern)?,
            }));
        }
        let file = serde_json::json!({
            "about": "Generated from rules.yaml by `VIBE_UPDATE_GATES=1 cargo test -p vibe-core safety::gate_tests`; do not edit (src/safety/gate.rs).",
            "gates": gates,
        });
        Ok(serde_json::to_string_pretty(&file).unwrap_or_default() + "\n")
    }
}
