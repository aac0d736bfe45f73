//! The chat service's hook into the protocol engine (docs/design.md#protocols: the routing layer
//! owns protocols): before each turn it asks the engine for the turn's protocol section and the
//! events to show (an invitation accepted by its button or in words, resume recap,
//! idle-timeout question, reminder answers), as its step of the pre-turn plan (`plan.rs`). The
//! agent loop only receives the section; the rules live in `vibe_protocol`.

use vibe_protocol::{ProtocolEngine, TurnInputs};
use vibe_wire::{ErrorInfo, Event};

use super::plan::Step;
use super::{ChatService, ProtocolChoiceMade, Turn};
use crate::store_io::off_worker;

impl ChatService {
    /// The protocol engine over this service's store, skills, clock and settings.
    pub fn protocols(&self) -> ProtocolEngine {
        ProtocolEngine::new(self.store.clone(), self.skills.clone())
            .with_clock(self.protocol_clock.clone())
            .with_settings(self.config.protocol)
            .with_user(&self.user)
    }

    /// The plan's step of the protocol engine: its events and the turn's protocol section. A
    /// failure is an error event and the turn goes on without the section. The engine reads
    /// and writes the store on a blocking thread (`store_io`).
    pub(super) async fn protocol_step(
        &self,
        turn: &Turn,
        choice: Option<&ProtocolChoiceMade>,
    ) -> Step {
        let engine = self.protocols();
        let (skill, id) = (turn.conversation.skill.clone(), turn.conversation.id.clone());
        let (message, model) = (turn.user_message.clone(), self.model.model_name().to_string());
        let choice = choice.map(|c| (c.protocol_id.clone(), c.choice));
        let plan = off_worker(move || {
            let turn = TurnInputs { message: &message, model: &model, choice: choice.as_ref() };
            engine.plan_turn(skill.as_deref(), &id, turn)
        })
        .await
        .map_err(|e| ErrorInfo::new(e.kind(), e.to_string()))
        .and_then(|plan| plan.map_err(|e| ErrorInfo::new(e.kind(), e.to_string())));
        match plan {
            Ok(plan) => Step { events: plan.events, prompt: plan.prompt, ..Step::default() },
            Err(error) => Step { events: vec![Event::Error { error }], ..Step::default() },
        }
    }
}
