//! `check_safety`: one message through the risk screen (`vibe_agent::safety`), and through the
//! configured model when asked and the rules are unsure; `eval_safety`: the rules on a labelled
//! set (the model's own flags on one: `safety_model.rs`). Answers wire DTOs.

use vibe_wire::command::{
    SafetyCheckRequest, SafetyCheckView, SafetyDiscount, SafetyEvalReport, SafetyGroupFigures,
    SafetyLabelled, SafetyOutcome, ScreenedRisk,
};

use crate::app::{App, AppError};
use vibe_agent::safety::{self, Discount, Risk, Screening};

impl App {
    /// The rules alone, without an open app (no settings, database or model are needed).
    pub fn screen_message(message: &str) -> Result<SafetyCheckView, AppError> {
        Ok(view(safety::screen(message)?, None, None))
    }

    /// The built-in rules' figures on a labelled set (`text`, read from `source`), without an
    /// open app. A malformed line is an error naming `source` and the line.
    pub fn eval_safety(text: &str, source: &str) -> Result<SafetyEvalReport, AppError> {
        // A malformed line is the file's fault, not a broken build.
        let set = safety::parse_labelled(text, source)
            .map_err(|e| AppError::InvalidInput(e.to_string()))?;
        let figures = safety::evaluate(safety::builtin_rules()?, &set);
        Ok(report(figures, |_| (None, None)))
    }

    /// `check_safety`. Without `use_model`, the rules alone (no model is set up). With it, a
    /// model whose answer cannot be used leaves the rules' result, and says why.
    pub async fn check_safety(
        &self,
        request: &SafetyCheckRequest,
    ) -> Result<SafetyCheckView, AppError> {
        let rules = safety::screen(&request.message)?;
        if !request.use_model {
            return Ok(view(rules, None, None));
        }
        let (model, _notices) = self.model()?;
        let asked = rules.unsure;
        let check = safety::check_with_model(model.as_ref(), &request.message, rules).await;
        Ok(view(check.screening, Some(asked), check.unusable))
    }
}

/// A labelled set's figures as the wire report; `notes(i)` gives outcome `i`'s `model_asked`
/// and `model_unusable`.
pub(super) fn report(
    figures: safety::Figures,
    notes: impl Fn(usize) -> (Option<bool>, Option<String>),
) -> SafetyEvalReport {
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    SafetyEvalReport {
        groups: figures
            .groups
            .into_iter()
            .map(|g| SafetyGroupFigures {
                group: g.group,
                total: count(g.total),
                risky: count(g.risky),
                detected: count(g.detected),
                detected_learned: count(g.detected_learned),
                category_right: count(g.category_right),
                safe: count(g.safe),
                false_alarms: count(g.false_alarms),
                false_alarms_learned: count(g.false_alarms_learned),
            })
            .collect(),
        recall_explicit_indirect: figures.recall_explicit_indirect,
        false_alarm_lookalike: figures.false_alarm_lookalike,
        outcomes: figures
            .outcomes
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                let (asked, unusable) = notes(i);
                SafetyOutcome {
                    message: SafetyLabelled {
                        line: count(o.message.line),
                        group: o.message.group,
                        risk: risk(o.message.risk),
                        category: o.message.category,
                        text: o.message.text,
                    },
                    got: view(o.got, asked, unusable),
                    correct: o.correct,
                }
            })
            .collect(),
    }
}

fn view(
    s: Screening,
    model_asked: Option<bool>,
    model_unusable: Option<String>,
) -> SafetyCheckView {
    SafetyCheckView {
        risk: risk(s.risk),
        category: s.category,
        rule: s.rule,
        unsure: s.unsure,
        learned: s.learned,
        discount: s.discount.map(|d| match d {
            Discount::Negated => SafetyDiscount::Negated,
            Discount::Fiction => SafetyDiscount::Fiction,
            Discount::Reported => SafetyDiscount::Reported,
            Discount::Joking => SafetyDiscount::Joking,
            Discount::Context => SafetyDiscount::Context,
        }),
        model_asked,
        model_unusable,
    }
}

fn risk(r: Risk) -> ScreenedRisk {
    match r {
        Risk::None => ScreenedRisk::None,
        Risk::Concern => ScreenedRisk::Concern,
        Risk::Acute => ScreenedRisk::Acute,
    }
}
