//! The wellbeing safety screen (issue #11): deterministic, offline rules that rate one message
//! as `none`, `concern` or `acute` risk in one of five categories, a learned n-gram detector
//! that asks the model check where no rule fired (issue #28 §7), and the crisis resources
//! shown for a locale. Rules, weights and resources live in data files under
//! `crates/agent/data/safety/` (embedded at build time); docs/safety.md explains them.
//!
//! This module owns the rule format, the matching (normalisation, guards, negation, reported
//! speech, fiction), the learned detector's scoring (`learned`; trained by
//! `scripts/safety-learn.py`), the resources lookup, the labelled-set evaluation, and the
//! model check of `unsure` results (`classify`). It does not emit events, pause protocols or touch memory:
//! the chat service does that.

mod classify;
mod error;
mod eval;
mod gate;
mod learned;
mod normalize;
mod resources;
mod resources_override;
mod rules;
mod screen;
mod types;

#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod everyday_tests;
#[cfg(test)]
mod gate_tests;
#[cfg(test)]
mod learned_tests;
#[cfg(test)]
mod resources_tests;
#[cfg(test)]
mod screen_tests;

pub use classify::{ModelCheck, check_with_model, classification_request, parse_classification};
pub use error::SafetyError;
pub use eval::{Figures, GroupFigures, LabelledMessage, Outcome, evaluate, parse_labelled, tally};
pub use learned::{LearnedModel, LearnedScore, LearnedSource};
pub use resources::{Contact, CrisisResources, GENERIC as GENERIC_LOCALE, Region};
pub use resources_override::{OVERRIDE_FILE as RESOURCES_OVERRIDE_FILE, override_path};
pub use rules::RuleSet;
pub use types::{Category, Discount, Risk, Screening};

use std::sync::OnceLock;

/// The rules shipped with VibeLife (`data/safety/rules.yaml`).
pub const BUILTIN_RULES: &str = include_str!("../../data/safety/rules.yaml");
/// The learned detectors shipped beside the rules (`data/safety/learned-{zh,en}.tsv`, written
/// by `scripts/safety-learn.py`).
pub const BUILTIN_LEARNED: [(&str, &str, &str); 2] = [
    ("zh", "data/safety/learned-zh.tsv", include_str!("../../data/safety/learned-zh.tsv")),
    ("en", "data/safety/learned-en.tsv", include_str!("../../data/safety/learned-en.tsv")),
];
/// The crisis resources shipped with VibeLife (`data/safety/resources.yaml`).
pub const BUILTIN_RESOURCES: &str = include_str!("../../data/safety/resources.yaml");

/// The built-in rule set with the built-in learned detectors (each parsed when first needed),
/// compiled once. An error means the embedded rules are broken (a build problem; the tests
/// catch it before release).
pub fn builtin_rules() -> Result<&'static RuleSet, SafetyError> {
    static RULES: OnceLock<Result<RuleSet, SafetyError>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            let learned = BUILTIN_LEARNED
                .iter()
                .map(|(language, file, text)| LearnedSource::new(language, file, text))
                .collect();
            Ok(RuleSet::parse(BUILTIN_RULES, "data/safety/rules.yaml")?.with_learned(learned))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Compile the built-in rules and load the learned detectors on a background thread now, so the
/// first message a person sends does not wait for it (a few hundred milliseconds of CPU). Called by
/// long-lived hosts at open and before a terminal chat; later calls do nothing.
pub fn warm_up() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let spawned = std::thread::Builder::new().name("safety-rules".into()).spawn(|| {
            match builtin_rules() {
                Ok(rules) => rules.load_learned(),
                Err(e) => tracing::error!(error = %e, "the built-in safety rules do not compile"),
            }
        });
        if let Err(e) = spawned {
            tracing::warn!(error = %e, "cannot compile the safety rules ahead; the first message will");
        }
    });
}

/// The built-in crisis resources, parsed once.
pub fn builtin_resources() -> Result<&'static CrisisResources, SafetyError> {
    static RESOURCES: OnceLock<Result<CrisisResources, SafetyError>> = OnceLock::new();
    RESOURCES
        .get_or_init(|| CrisisResources::parse(BUILTIN_RESOURCES, "data/safety/resources.yaml"))
        .as_ref()
        .map_err(Clone::clone)
}

/// The crisis resources in effect for `data_dir`: the built-in ones with the person's
/// override (`<data folder>/safety/resources.yaml`) applied. An override that cannot be used
/// is reported beside the built-in resources; only a broken build fails.
pub fn resources_for(
    data_dir: Option<&std::path::Path>,
) -> Result<(CrisisResources, Option<SafetyError>), SafetyError> {
    Ok(CrisisResources::for_data_dir(builtin_resources()?, data_dir))
}

/// Screen one message with the built-in rules.
pub fn screen(text: &str) -> Result<Screening, SafetyError> {
    Ok(builtin_rules()?.screen(text))
}
