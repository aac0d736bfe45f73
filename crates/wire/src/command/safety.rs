//! `check_safety`: the risk screen of one message (docs/safety.md), by the rules, and by the
//! configured model when asked and the rules are unsure; and the rules' figures on a labelled
//! set (`vibe safety eval`).

use serde::{Deserialize, Serialize};

use crate::SafetyCategory;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SafetyCheckRequest {
    pub message: String,
    /// Ask the configured model when the rules are unsure (only then; one small call).
    #[serde(default)]
    pub use_model: bool,
}

/// How urgent the message looks (`none`: nothing found).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ScreenedRisk {
    None,
    Concern,
    Acute,
}

/// Why a hit did not count at full strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum SafetyDiscount {
    /// A negation cue came before it in the same clause.
    Negated,
    /// The message is about fiction, news, a game or research.
    Fiction,
    /// It was quoted or reported about someone else.
    Reported,
    /// Laughter in the same clause (哈哈, lol, jk): read as hyperbole, left to the model check.
    Joking,
    /// The whole message reads as a lookalike setting of the rule (a clinician's shift, an
    /// emergency told as over): left to the model check.
    Context,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SafetyCheckView {
    pub risk: ScreenedRisk,
    pub category: Option<SafetyCategory>,
    /// The rule that decided (also when discounted).
    pub rule: Option<String>,
    /// The rules could not decide cleanly.
    pub unsure: bool,
    pub discount: Option<SafetyDiscount>,
    /// No rule fired, but the learned detector reads this category: a question for the model
    /// check, which alone can make it a notice (without the model it stands for nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learned: Option<SafetyCategory>,
    /// With `use_model`: whether the model was asked (only when the rules were unsure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_asked: Option<bool>,
    /// Why the model's answer was not used (the rules' result stands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_unusable: Option<String>,
}

/// One line of a labelled set (`group<TAB>risk<TAB>category<TAB>text`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SafetyLabelled {
    pub line: u32,
    pub group: String,
    pub risk: ScreenedRisk,
    pub category: Option<SafetyCategory>,
    pub text: String,
}

/// How one labelled message fared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SafetyOutcome {
    pub message: SafetyLabelled,
    pub got: SafetyCheckView,
    /// Expected risky and flagged, or expected safe and not flagged.
    pub correct: bool,
}

/// Figures of one group of a labelled set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SafetyGroupFigures {
    pub group: String,
    pub total: u32,
    /// Messages labelled concern or acute.
    pub risky: u32,
    /// Of those, how many the screen flagged (a risk of its own, or the learned detector's
    /// question for the model check).
    pub detected: u32,
    /// Of those detected, how many only by the learned detector's question: a notice only when
    /// the model check agrees.
    #[serde(default)]
    pub detected_learned: u32,
    /// Of those detected, how many with the labelled category.
    pub category_right: u32,
    /// Messages labelled none.
    pub safe: u32,
    /// Of those, how many the screen flagged.
    pub false_alarms: u32,
    /// Of those false alarms, how many only by the learned detector's question (one model
    /// check call; no notice unless the model disagrees with the label).
    #[serde(default)]
    pub false_alarms_learned: u32,
}

/// The rules' figures on a labelled set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SafetyEvalReport {
    pub groups: Vec<SafetyGroupFigures>,
    /// Recall on explicit + indirect risky messages (the goal is at least 0.85).
    pub recall_explicit_indirect: f64,
    /// False-alarm rate on safe lookalikes (the goal is at most 0.05).
    pub false_alarm_lookalike: f64,
    pub outcomes: Vec<SafetyOutcome>,
}
