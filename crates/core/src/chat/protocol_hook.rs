//! The chat service's hook into the protocol engine (docs/design.md#protocols: the routing layer
//! owns protocols): before each turn it asks the engine for the turn's protocol section and the
//! events to show (an invitation accepted by its button or in words, resume recap,
//! idle-timeout question, reminder answers). The agent loop only receives the section; the rules live in `vibe_protocol`.

use vibe_protocol::{Clock, ProtocolEngine, TurnInputs};
use vibe_store::Conversation;
use vibe_wire::{ErrorInfo, Event};

use super::{ChatService, ProtocolChoiceMade};
use crate::emit::Emitter;
use crate::store_io::off_worker;

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
    /// reported as an error event and the turn goes on without the section. The engine reads
    /// and writes the store on a blocking thread (`store_io`).
    pub(super) async fn protocol_turn(
        &self,
        conversation: &Conversation,
        user_message: &str,
        choice: Option<&ProtocolChoiceMade>,
        emitter: &Emitter,
    ) -> Option<String> {
        let engine = self.protocols();
        let (skill, id) = (conversation.skill.clone(), conversation.id.clone());
        let (message, model) = (user_message.to_string(), self.model.model_name().to_string());
        let choice = choice.map(|c| (c.protocol_id.clone(), c.choice));
        let plan = off_worker(move || {
            let turn = TurnInputs { message: &message, model: &model, choice: choice.as_ref() };
            engine.plan_turn(skill.as_deref(), &id, turn)
        })
        .await
        .map_err(|e| ErrorInfo::new(e.kind(), e.to_string()))
        .and_then(|plan| plan.map_err(|e| ErrorInfo::new(e.kind(), e.to_string())));
        match plan {
            Ok(plan) => {
                for event in plan.events {
                    emitter.emit(event);
                }
                plan.prompt
            }
            Err(error) => {
                emitter.emit(Event::Error { error });
                None
            }
        }
    }
}
