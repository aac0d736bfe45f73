//! The result of screening one message: risk level, category, the rule that fired, and
//! whether the rules are unsure (the only case where a model classification would be asked).

use serde::{Deserialize, Serialize};

/// How urgent a message looks. Ordered: `None < Concern < Acute`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Risk {
    /// Nothing found.
    None,
    /// A sign of risk worth a supportive, direct answer and resources.
    Concern,
    /// Danger now: intent, a plan, an emergency.
    Acute,
}

/// What kind of risk a rule detects (the wire's closed set, shown in `safety_notice`).
pub use vibe_wire::SafetyCategory as Category;

/// Why a hit did not count at full strength.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Discount {
    /// A negation cue came before it in the same clause ("I would never …").
    Negated,
    /// The message is about fiction, news, a game or research.
    Fiction,
    /// It was quoted or reported about someone else ("my friend said …").
    Reported,
    /// Laughter or a joke marker in the same clause ("热得不想活了哈哈", "… want to die lol"):
    /// likely hyperbole, but masking happens, so the result stays unsure for the model check.
    Joking,
    /// The whole message reads as a lookalike setting the rule names (`defer_contexts`): a
    /// clinician telling a shift, an emergency told as over. Left to the model check.
    Context,
}

/// One message's screening. `rule` names the rule that decided (also when discounted);
/// `unsure` says the rules could not decide cleanly and a model check would help.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Screening {
    pub risk: Risk,
    pub category: Option<Category>,
    pub rule: Option<String>,
    pub unsure: bool,
    pub discount: Option<Discount>,
    /// A hit left to the model check by a deferring context (discount `context`): the risk and
    /// category it has without that context. When the model check cannot answer, this stands
    /// ([`Screening::without_model`]): deferring never clears a risk by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deferred: Option<(Risk, Category)>,
    /// No rule fired, but the learned detector (`learned.rs`) reads this category in the
    /// message: a question for the model check, which alone can turn it into a notice. Without
    /// the model it stands for nothing (`risk` stays `none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub learned: Option<Category>,
}

impl Screening {
    /// Nothing matched at all.
    pub fn clear() -> Self {
        Self {
            risk: Risk::None,
            category: None,
            rule: None,
            unsure: false,
            discount: None,
            deferred: None,
            learned: None,
        }
    }

    /// Whether the screen flagged the message at all: a risk of its own, or the learned
    /// detector's question for the model check.
    pub fn flagged(&self) -> bool {
        self.risk != Risk::None || self.learned.is_some()
    }

    /// What stands when the model check could not answer: a deferred hit at its own risk (the
    /// notice shows as if no context had deferred it), the learned detector's question
    /// dropped (it never shows a notice by itself), anything else as the rules screened it.
    pub fn without_model(self) -> Self {
        match self.deferred {
            Some((risk, category)) => Self {
                risk,
                category: Some(category),
                unsure: false,
                discount: None,
                deferred: None,
                ..self
            },
            None => Self { learned: None, ..self },
        }
    }
}

impl Risk {
    /// Every level, from none to acute.
    pub const ALL: [Risk; 3] = [Risk::None, Risk::Concern, Risk::Acute];

    pub fn as_str(self) -> &'static str {
        match self {
            Risk::None => "none",
            Risk::Concern => "concern",
            Risk::Acute => "acute",
        }
    }

    /// The level a `safety_notice` shows; `None` (no notice is shown then) reads as concern.
    pub fn notice(self) -> vibe_wire::SafetyRisk {
        match self {
            Risk::Acute => vibe_wire::SafetyRisk::Acute,
            Risk::None | Risk::Concern => vibe_wire::SafetyRisk::Concern,
        }
    }

    pub fn parse(text: &str) -> Option<Risk> {
        match text {
            "none" => Some(Risk::None),
            "concern" => Some(Risk::Concern),
            "acute" => Some(Risk::Acute),
            _ => None,
        }
    }
}
