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

use vibe_store::Conversation;
use vibe_wire::{ErrorInfo, ErrorKind, Event, TokenUsage};

use super::ChatService;
use crate::emit::Emitter;
use crate::safety::{self, Risk, Screening};
use crate::wellbeing::{self, Found, Place};

/// What the screen decided for this turn.
pub(super) struct SafetyTurn {
    /// The supportive section that replaces the protocol section this turn (the protocol
    /// was paused).
    pub prompt: String,
}

impl ChatService {
    /// Screen the person's message; the turn is `None` when it carries no risk (or screening
    /// failed, which is reported as an error event). Marks the message and emits the notice on
    /// a risk. The usage is the model check's, when one was made (it counts in the run's).
    pub(super) async fn safety_turn(
        &self,
        conversation: &Conversation,
        user_message: &str,
        user_message_id: i64,
        emitter: &Emitter,
    ) -> (Option<SafetyTurn>, Option<TokenUsage>) {
        let rules = match safety::screen(user_message) {
            Ok(s) => s,
            Err(e) => {
                emitter
                    .emit(Event::Error { error: ErrorInfo::new(ErrorKind::Safety, e.to_string()) });
                return (None, None);
            }
        };
        let (screening, usage) = self.model_check(user_message, rules, emitter).await;
        let turn = self.act_on(conversation, &screening, user_message_id, emitter).await;
        (turn, usage)
    }

    /// Ask the model when the rules are unsure (else the rules' screening, no call), and
    /// report the check as `safety_check`.
    async fn model_check(
        &self,
        user_message: &str,
        rules: Screening,
        emitter: &Emitter,
    ) -> (Screening, Option<TokenUsage>) {
        if !rules.unsure {
            return (rules, None);
        }
        let check = safety::check_with_model(self.model.as_ref(), user_message, rules).await;
        let s = &check.screening;
        emitter.emit(Event::SafetyCheck {
            risk: (s.risk != Risk::None).then(|| s.risk.notice()),
            category: s.category.filter(|_| s.risk != Risk::None),
            rule: s.rule.clone(),
            fallback_reason: check.unusable.clone(),
            usage: check.usage,
        });
        (check.screening, check.usage)
    }

    /// On a risk: the one safety path (mark, notice, pause), and the supportive section.
    async fn act_on(
        &self,
        conversation: &Conversation,
        screening: &Screening,
        user_message_id: i64,
        emitter: &Emitter,
    ) -> Option<SafetyTurn> {
        let category = screening.category?;
        if screening.risk == Risk::None {
            return None;
        }
        let place = Place {
            store: &self.store,
            user: &self.user,
            skill: conversation.skill.as_deref(),
            protocols: self.protocols(),
            emitter,
        };
        let found = Found { message_id: user_message_id, risk: screening.risk.notice(), category };
        let contacts = wellbeing::act(place, found).await;
        Some(SafetyTurn { prompt: wellbeing::support_prompt(&contacts) })
    }
}
