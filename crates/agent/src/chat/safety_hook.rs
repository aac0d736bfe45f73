//! The chat service's hook into the wellbeing safety screen (issue #11, docs/safety.md): before
//! the model call it screens the person's message with the deterministic rules and, on a risk
//! (`concern` or `acute`), takes the one safety path (`crate::wellbeing`): the message is
//! marked (memory must skip it), `safety_notice` shows the crisis resources of the person's
//! locale, and the skill's active protocol is paused (`protocol_paused`), so the protocol does
//! not advance this turn and its section is replaced by a supportive one.
//!
//! When the rules are `unsure`, one small structured call to the configured model rates the
//! message first (`safety::check_with_model`), reported as `safety_check` with its tokens; if
//! its answer cannot be used, the rules' verdict stands and the event says why. What the rules
//! miss, the coach model can still flag itself (`flag_wellbeing_concern`).
//!
//! The rules live in `crate::safety`; the agent loop never sees any of this beyond the section.

use std::sync::Arc;

use vibe_wire::{ErrorInfo, ErrorKind, Event};

use super::plan::Step;
use super::{ChatService, Turn};
use crate::safety::{self, Risk, Screening};
use crate::wellbeing::{self, Found, Place};
use vibe_runlog::emit::{CollectSink, Emitter};

impl ChatService {
    /// Screen the person's message: the plan's step. Without a risk (or when screening
    /// failed, which is reported as an error event) it offers nothing and later hooks are
    /// asked; on a risk the message is marked, the notice shown, the protocol paused, and the
    /// supportive section settles the turn. The usage is the model check's, when one was made.
    pub(super) async fn safety_step(&self, turn: &Turn) -> Step {
        let mut step = Step::default();
        let rules = match safety::screen(&turn.user_message) {
            Ok(s) => s,
            Err(e) => {
                let error = ErrorInfo::new(ErrorKind::Safety, e.to_string());
                step.events.push(Event::Error { error });
                return step;
            }
        };
        let screening = self.model_check(&turn.user_message, rules, &mut step).await;
        if let Some(prompt) = self.act_on(turn, &screening, &mut step).await {
            step.prompt = Some(prompt);
            step.settles = true;
        }
        step
    }

    /// Ask the model when the rules are unsure (else the rules' screening, no call), and
    /// report the check as `safety_check` with its tokens.
    async fn model_check(
        &self,
        user_message: &str,
        rules: Screening,
        step: &mut Step,
    ) -> Screening {
        if !rules.unsure {
            return rules;
        }
        let check = safety::check_with_model(self.model.as_ref(), user_message, rules).await;
        let s = &check.screening;
        step.events.push(Event::SafetyCheck {
            risk: (s.risk != Risk::None).then(|| s.risk.notice()),
            category: s.category.filter(|_| s.risk != Risk::None),
            rule: s.rule.clone(),
            fallback_reason: check.unusable.clone(),
            usage: check.usage,
        });
        step.usage = check.usage;
        check.screening
    }

    /// On a risk: the one safety path (mark, notice, pause), its events kept in the step, and
    /// the supportive section.
    async fn act_on(&self, turn: &Turn, screening: &Screening, step: &mut Step) -> Option<String> {
        let category = screening.category?;
        if screening.risk == Risk::None {
            return None;
        }
        let shown = Arc::new(CollectSink::default());
        let emitter = Emitter::new(turn.run_id.clone(), vec![shown.clone()]);
        let place = Place {
            store: &self.store,
            user: &self.user,
            skill: turn.conversation.skill.as_deref(),
            protocols: self.protocols(),
            emitter: &emitter,
            language: self.language.as_deref(),
        };
        let found =
            Found { message_id: turn.user_message_id, risk: screening.risk.notice(), category };
        let contacts = wellbeing::act(place, found).await;
        step.events.extend(shown.events().into_iter().map(|envelope| envelope.event));
        Some(wellbeing::support_prompt(&contacts))
    }
}
