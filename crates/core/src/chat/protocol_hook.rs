//! The chat service's hook into the protocol engine (docs/design.md#protocols: the routing layer
//! owns protocols): before each turn it asks the engine for the turn's protocol section and the
//! events to show (typed start of an invitation, resume recap, idle-timeout question, reminder
//! answers). The agent loop only receives the section; the rules live in `crate::protocol`.

use vibe_store::Conversation;
use vibe_wire::{ErrorInfo, Event};

use super::ChatService;
use crate::emit::Emitter;
use crate::protocol::{Clock, ProtocolEngine};

impl ChatService {
    /// The protocol engine over this service's store, skills, clock and settings.
    pub fn protocols(&self) -> ProtocolEngine {
        ProtocolEngine::new(self.store.clone(), self.skills.clone())
            .with_clock(self.protocol_clock.clone())
            .with_settings(self.config.protocol)
            .with_user(&self.user)
    }

    /// Run the protocol engine (and protocol tools) on `clock` — tests and evals simulate
    /// idle gaps and times of day with it.
    pub fn with_protocol_clock(mut self, clock: Clock) -> Self {
        self.tools = std::sync::Arc::new((*self.tools).clone().with_protocol_clock(clock.clone()));
        self.protocol_clock = clock;
        self
    }

    /// The protocol section for this turn, after emitting the engine's events. A failure is
    /// reported as an error event and the turn goes on without the section.
    pub(super) fn protocol_turn(
        &self,
        conversation: &Conversation,
        user_message: &str,
        emitter: &Emitter,
    ) -> Option<String> {
        let plan = self.protocols().before_turn(
            conversation.skill.as_deref(),
            &conversation.id,
            user_message,
            self.model.model_name(),
        );
        match plan {
            Ok(plan) => {
                for event in plan.events {
                    emitter.emit(event);
                }
                plan.prompt
            }
            Err(e) => {
                emitter.emit(Event::Error { error: ErrorInfo::new(e.kind(), e.to_string()) });
                None
            }
        }
    }
}
