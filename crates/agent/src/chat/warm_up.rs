//! The request a warm-up hands to the model (docs/local-model.md#warm-up): what a
//! conversation's next turn will start with — the system prompt of its phase (its active
//! skill's phase 2, else phase 1) and the tools offered, built as the agent builds a round's
//! (`agent::offered_tools`, the context builder), without the turn's sections, which ride with
//! the person's message. When to warm up, and dropping stale warm-ups, is the host's (the
//! core's `app/warm_up.rs`); the model's `warm_up` fills its cache. A turn's path is untouched.

use vibe_context::PromptRequest;
use vibe_llm::{ChatRequest, Message, Params};
use vibe_store::Conversation;

use super::ChatService;
use crate::CoreError;
use crate::agent::offered_tools;

impl ChatService {
    /// The prefix of the next request of `conversation` (`None`: a new conversation, phase
    /// 1): the system prompt alone with the tools, filed under the conversation's id.
    pub fn warm_up_request(
        &self,
        conversation: Option<&Conversation>,
    ) -> Result<ChatRequest, CoreError> {
        let skill = conversation.and_then(|c| c.skill.as_deref());
        let toolset =
            offered_tools(&self.tools, &self.skills, self.connections.as_ref(), skill, &[]);
        let defs = toolset.definitions();
        let prompt = self.context.system_prompt(&PromptRequest {
            user: &self.user,
            active_skill: skill,
            scenario: conversation.and_then(|c| c.scenario.as_deref()),
            voice_mode: conversation.and_then(|c| c.voice_mode),
            persona: None,
            user_message: "",
            protocol_prompt: None,
            summary: conversation.and_then(|c| c.summary.as_deref()),
            tools: &defs,
            run: None,
        })?;
        Ok(ChatRequest {
            messages: vec![Message::system(prompt.system)],
            tools: prompt.tools,
            params: Params { cache_key: conversation.map(|c| c.id.clone()), ..Params::default() },
        })
    }
}
