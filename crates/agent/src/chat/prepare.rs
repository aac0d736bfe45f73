//! Preparing a turn (the first step of `ChatService::run_turn`): the conversation (made for a
//! first message, its skill and voice mode set), the run under the id its caller minted with
//! its open audit log, the user message stored with the run in one transaction before any
//! model call, and `run_started` sent. Later steps are `plan.rs`'s and `service.rs`'s.

use std::sync::Arc;

use vibe_llm::Message;
use vibe_store::{NewMessage, Role};
use vibe_wire::{Event, Phase};

use super::{ChatService, Turn, TurnRequest};
use crate::CoreError;
use crate::store_io::blocking;
use vibe_runlog::emit::{Emitter, EventSink};

impl ChatService {
    /// The conversation, the run (its id minted by the caller, or here), its open audit log and
    /// the stored user message, and `run_started` sent.
    pub(super) async fn prepare(
        &self,
        request: &TurnRequest,
        sinks: Vec<Arc<dyn EventSink>>,
    ) -> Result<Turn, CoreError> {
        let run_id = match &request.run_id {
            Some(id) => {
                vibe_runlog::validate_run_id(id)?;
                id.clone()
            }
            None => uuid::Uuid::now_v7().to_string(),
        };
        let conversation = self.open_conversation(request).await?;
        // The open audit log locks the run folder before the run row exists, so recovery in
        // another process never takes this run for a dead one.
        let audit = self.new_run(&run_id)?.map(Arc::new);
        let run_dir = self.run_dir(&run_id);
        let (user_message, user_message_id) =
            self.start_run(&conversation.id, request, &run_id).await?;
        let mut all_sinks = sinks;
        if let Some(audit) = &audit {
            all_sinks.push(audit.clone());
        }
        let emitter = Emitter::new(run_id.clone(), all_sinks);
        emitter.emit(Event::RunStarted {
            conversation_id: conversation.id.clone(),
            phase: if conversation.skill.is_some() { Phase::Phase2 } else { Phase::Phase1 },
            skill: conversation.skill.clone(),
            user_message: user_message.clone(),
            model: self.model.model_name().to_string(),
        });
        Ok(Turn { conversation, run_id, audit, run_dir, user_message, user_message_id, emitter })
    }

    /// The conversation the turn belongs to (made for a first message), as stored once the
    /// request's skill and voice mode are set.
    async fn open_conversation(
        &self,
        request: &TurnRequest,
    ) -> Result<vibe_store::Conversation, CoreError> {
        if !request.retry && request.message.trim().is_empty() {
            return Err(CoreError::InvalidRequest(
                "the message is empty; say something to your coach".into(),
            ));
        }
        if let Some(skill) = &request.skill {
            let entry = self.skills.skill(skill)?;
            if !entry.meta.user_invocable {
                return Err(CoreError::InvalidRequest(format!(
                    "skill \"{skill}\" cannot be picked directly"
                )));
            }
        }
        let conversation = match &request.conversation_id {
            Some(id) => self.store.conversation(id)?,
            None => {
                if request.retry {
                    return Err(CoreError::InvalidRequest(
                        "a retry needs the conversation whose last message to answer again".into(),
                    ));
                }
                let title: String = request.message.trim().chars().take(40).collect();
                let user = self.user.clone();
                blocking(&self.store, move |s| s.create_conversation(&user, Some(&title))).await?
            }
        };
        if let Some(skill) = &request.skill {
            let scenario = request.scenario.clone().or_else(|| {
                self.skills.skill(skill).ok().and_then(|e| e.meta.default_scenario.clone())
            });
            let (id, skill) = (conversation.id.clone(), skill.clone());
            blocking(&self.store, move |s| {
                s.set_conversation_skill(&id, Some(&skill), scenario.as_deref())
            })
            .await?;
        }
        if let Some(mode) = request.voice_mode {
            let id = conversation.id.clone();
            blocking(&self.store, move |s| s.set_conversation_voice_mode(&id, Some(mode))).await?;
        }
        if request.skill.is_some() || request.voice_mode.is_some() {
            // Read back what was just set (a skill's default scenario, the mode).
            return Ok(self.store.conversation(&conversation.id)?);
        }
        Ok(conversation)
    }

    /// Record the run and, in the same transaction, the user message (before any model call);
    /// for a retry, find the last user message again. The writes wait for the database's
    /// write lock on a blocking thread (`store_io`).
    async fn start_run(
        &self,
        conversation_id: &str,
        request: &TurnRequest,
        run_id: &str,
    ) -> Result<(String, i64), CoreError> {
        if request.retry {
            let last = self.store.last_user_message(conversation_id)?.ok_or_else(|| {
                CoreError::InvalidRequest("this conversation has no message to retry".into())
            })?;
            let (run, conversation) = (run_id.to_string(), conversation_id.to_string());
            blocking(&self.store, move |s| s.start_run(&run, &conversation, None)).await?;
            return Ok((last.content, last.id));
        }
        let text = request.message.trim().to_string();
        let tokens = self.context.tokenizer().count_message(&Message::user(text.clone()));
        let message = NewMessage { token_count: tokens, ..NewMessage::text(Role::User, text) };
        let (run, conversation) = (run_id.to_string(), conversation_id.to_string());
        let stored =
            blocking(&self.store, move |s| s.start_run(&run, &conversation, Some(message)))
                .await?
                .ok_or_else(|| {
                    CoreError::InvalidRequest("the user message was not stored".into())
                })?;
        Ok((stored.content, stored.id))
    }
}
