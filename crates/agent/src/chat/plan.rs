//! The pre-turn plan: what the hooks before the agent decide for a turn, as data. Each hook
//! (the safety screen, `safety_hook.rs`; the protocol engine, `protocol_hook.rs`) answers a
//! [`Step`]: the events to show, the prompt section it offers, the tokens it spent, and
//! whether it settles the turn's section so later hooks are not asked (a risky message pauses
//! the protocol and gets the supportive section instead). The steps fold in hook order ([`ChatService::plan`]); the service sends the plan's events and hands its section to the agent. The
//! hooks' rules live in `crate::safety`, `crate::wellbeing` and `vibe_protocol`.

use vibe_wire::{Event, TokenUsage};

use super::{ChatService, ProtocolChoiceMade, Turn};

/// What one hook decided for this turn.
#[derive(Debug, Default)]
pub(super) struct Step {
    /// Events to show, in order.
    pub events: Vec<Event>,
    /// The prompt section this hook offers for the turn.
    pub prompt: Option<String>,
    /// Tokens the hook's own model call spent (they count in the run's usage).
    pub usage: Option<TokenUsage>,
    /// The turn's section is decided: later hooks are not asked.
    pub settles: bool,
}

/// The hooks before the agent, in the order they are asked.
#[derive(Debug, Clone, Copy)]
enum Hook {
    Safety,
    Protocol,
}

const HOOKS: [Hook; 2] = [Hook::Safety, Hook::Protocol];

/// The turn's plan: every hook's events in order, the section in force, the tokens spent.
#[derive(Debug, Default)]
pub(super) struct Plan {
    pub events: Vec<Event>,
    pub prompt: Option<String>,
    pub usage: Option<TokenUsage>,
}

impl Plan {
    /// Add one hook's step; whether later hooks are still asked.
    fn add(&mut self, step: Step) -> bool {
        self.events.extend(step.events);
        if step.prompt.is_some() {
            self.prompt = step.prompt;
        }
        if let Some(usage) = step.usage {
            self.usage.get_or_insert_with(TokenUsage::default).add(usage);
        }
        !step.settles
    }
}

impl ChatService {
    /// Ask the hooks in order (safety first: a retry is screened again) and compose their
    /// steps into the turn's plan.
    pub(super) async fn plan(&self, turn: &Turn, choice: Option<&ProtocolChoiceMade>) -> Plan {
        let mut plan = Plan::default();
        for hook in HOOKS {
            let step = match hook {
                Hook::Safety => self.safety_step(turn).await,
                Hook::Protocol => self.protocol_step(turn, choice).await,
            };
            if !plan.add(step) {
                break;
            }
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compose(steps: impl IntoIterator<Item = Step>) -> Plan {
        let mut plan = Plan::default();
        for step in steps {
            if !plan.add(step) {
                break;
            }
        }
        plan
    }

    fn step(prompt: Option<&str>, settles: bool) -> Step {
        Step {
            events: vec![Event::RoundStarted { round: 1 }],
            prompt: prompt.map(str::to_string),
            usage: None,
            settles,
        }
    }

    #[test]
    fn a_step_that_settles_the_turn_keeps_its_section_and_later_hooks_are_not_asked() {
        let plan = compose([step(Some("support"), true), step(Some("protocol"), false)]);
        assert_eq!(plan.prompt.as_deref(), Some("support"));
        assert_eq!(plan.events.len(), 1);
    }

    #[test]
    fn without_a_risk_the_protocol_section_is_the_turns() {
        let mut screened = step(None, false);
        screened.usage =
            Some(TokenUsage { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
        let plan = compose([screened, step(Some("protocol"), false)]);
        assert_eq!(plan.prompt.as_deref(), Some("protocol"));
        assert_eq!(plan.events.len(), 2);
        assert_eq!(plan.usage.map(|u| u.total_tokens), Some(4));
    }
}
