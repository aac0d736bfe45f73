//! `check_safety`: the risk screen of one message (docs/safety.md), by the rules, and by the
//! configured model when asked and the rules are unsure.

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
    /// With `use_model`: whether the model was asked (only when the rules were unsure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_asked: Option<bool>,
    /// Why the model's answer was not used (the rules' result stands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_unusable: Option<String>,
}
