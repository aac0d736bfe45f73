//! The labelled test sets (`tests/safety/*.tsv`): parsing them and measuring a rule set on
//! them per group — recall on risky messages, false alarms on safe ones. `vibe safety eval`
//! and the tests print and assert these figures.

use serde::Serialize;

use super::error::SafetyError;
use super::rules::RuleSet;
use super::types::{Category, Risk, Screening};

/// The groups of a labelled set, in report order.
pub const GROUPS: [&str; 6] =
    ["explicit", "indirect", "borderline", "lookalike", "safe", "everyday"];

/// One labelled line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LabelledMessage {
    pub line: usize,
    pub group: String,
    pub risk: Risk,
    pub category: Option<Category>,
    pub text: String,
}

/// How one labelled message fared.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub message: LabelledMessage,
    pub got: Screening,
    /// Expected risky and flagged, or expected safe and not flagged.
    pub correct: bool,
}

/// Figures of one group.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GroupFigures {
    pub group: String,
    pub total: usize,
    /// Messages labelled concern or acute.
    pub risky: usize,
    /// Of those, how many the screen flagged ([`Screening::flagged`]: a risk above none, or
    /// the learned detector's question for the model check).
    pub detected: usize,
    /// Of those detected, how many only by the learned detector's question.
    pub detected_learned: usize,
    /// Of those detected, how many with the labelled category.
    pub category_right: usize,
    /// Messages labelled none.
    pub safe: usize,
    /// Of those, how many the screen flagged.
    pub false_alarms: usize,
    /// Of those false alarms, how many only by the learned detector's question.
    pub false_alarms_learned: usize,
}

/// Figures of a whole set.
#[derive(Debug, Clone, Serialize)]
pub struct Figures {
    pub groups: Vec<GroupFigures>,
    /// Recall on explicit + indirect risky messages (the goal is ≥ 0.85).
    pub recall_explicit_indirect: f64,
    /// False-alarm rate on safe lookalikes (the goal is ≤ 0.05).
    pub false_alarm_lookalike: f64,
    pub outcomes: Vec<Outcome>,
}

/// Parse a labelled set: `group<TAB>risk<TAB>category<TAB>text`, `#` comments, blank lines.
pub fn parse_labelled(text: &str, file: &str) -> Result<Vec<LabelledMessage>, SafetyError> {
    let mut out = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let error =
            |message: String| SafetyError::Labelled { file: file.to_string(), line, message };
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.splitn(4, '\t').collect();
        let [group, risk, category, text] = fields[..] else {
            return Err(error(format!("{} tab-separated fields, need 4", fields.len())));
        };
        if !GROUPS.contains(&group) {
            return Err(error(format!("unknown group \"{group}\" (use {})", GROUPS.join(", "))));
        }
        let risk = Risk::parse(risk).ok_or_else(|| {
            error(format!("unknown risk \"{risk}\" (use none, concern or acute)"))
        })?;
        let category = match category {
            "-" => None,
            other => Some(Category::parse(other).ok_or_else(|| {
                error(format!("unknown category \"{other}\" (use suicide, self_harm, harm_others, abuse, medical or -)"))
            })?),
        };
        if (risk == Risk::None) != category.is_none() {
            return Err(error("risk none goes with category -, and only it".to_string()));
        }
        if text.trim().is_empty() {
            return Err(error("empty message".to_string()));
        }
        out.push(LabelledMessage {
            line,
            group: group.to_string(),
            risk,
            category,
            text: text.to_string(),
        });
    }
    Ok(out)
}

/// Screen every labelled message with `rules` and count per group.
pub fn evaluate(rules: &RuleSet, set: &[LabelledMessage]) -> Figures {
    tally(set, set.iter().map(|m| rules.screen(&m.text)).collect())
}

/// Count per group what some judge (the rules, a model) gave each labelled message: `got[i]`
/// is the screening of `set[i]`.
pub fn tally(set: &[LabelledMessage], got: Vec<Screening>) -> Figures {
    let mut groups: Vec<GroupFigures> = GROUPS
        .iter()
        .map(|g| GroupFigures { group: (*g).to_string(), ..GroupFigures::default() })
        .collect();
    let mut outcomes = Vec::with_capacity(set.len());
    for (message, got) in set.iter().zip(got) {
        let flagged = got.flagged();
        let learned = flagged && got.risk == Risk::None;
        let expected = message.risk != Risk::None;
        if let Some(g) = groups.iter_mut().find(|g| g.group == message.group) {
            g.total += 1;
            if expected {
                g.risky += 1;
                g.detected += usize::from(flagged);
                g.detected_learned += usize::from(learned);
                g.category_right +=
                    usize::from(flagged && got.category.or(got.learned) == message.category);
            } else {
                g.safe += 1;
                g.false_alarms += usize::from(flagged);
                g.false_alarms_learned += usize::from(learned);
            }
        }
        outcomes.push(Outcome { message: message.clone(), got, correct: flagged == expected });
    }
    let sum = |names: &[&str], f: fn(&GroupFigures) -> (usize, usize)| {
        groups
            .iter()
            .filter(|g| names.contains(&g.group.as_str()))
            .map(f)
            .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    let (detected, risky) = sum(&["explicit", "indirect"], |g| (g.detected, g.risky));
    let (alarms, safe) = sum(&["lookalike"], |g| (g.false_alarms, g.safe));
    Figures {
        recall_explicit_indirect: ratio(detected, risky),
        false_alarm_lookalike: ratio(alarms, safe),
        groups,
        outcomes,
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 { 0.0 } else { part as f64 / whole as f64 }
}
