//! `check_safety`: one message through the risk screen (`crate::safety`), and through the
//! configured model when asked and the rules are unsure. Answers a wire DTO.

use vibe_wire::command::{SafetyCheckRequest, SafetyCheckView, SafetyDiscount, ScreenedRisk};

use crate::app::{App, AppError};
use crate::safety::{self, Discount, Risk, Screening};

impl App {
    /// The rules alone, without an open app (no settings, database or model are needed).
    pub fn screen_message(message: &str) -> Result<SafetyCheckView, AppError> {
        Ok(view(safety::screen(message)?, None, None))
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

fn view(
    s: Screening,
    model_asked: Option<bool>,
    model_unusable: Option<String>,
) -> SafetyCheckView {
    SafetyCheckView {
        risk: match s.risk {
            Risk::None => ScreenedRisk::None,
            Risk::Concern => ScreenedRisk::Concern,
            Risk::Acute => ScreenedRisk::Acute,
        },
        category: s.category,
        rule: s.rule,
        unsure: s.unsure,
        discount: s.discount.map(|d| match d {
            Discount::Negated => SafetyDiscount::Negated,
            Discount::Fiction => SafetyDiscount::Fiction,
            Discount::Reported => SafetyDiscount::Reported,
            Discount::Joking => SafetyDiscount::Joking,
        }),
        model_asked,
        model_unusable,
    }
}
