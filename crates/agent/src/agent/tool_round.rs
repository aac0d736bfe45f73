//! A round of tool calls: run the calls the model made against the tools it was offered
//! (approvals, order, concurrency and failures are `execute`'s), store and emit each result
//! the moment it completes and apply its effect (`skill_activated`, `plan_updated`), and
//! when the person cancels, close the calls that had not finished. The answer that made the
//! calls is stored in the commit of the first result, with any state write a call made ready
//! (`ToolOutput::write`); alone only before the round waits for the person, or at a cancel.

use std::sync::Arc;

use futures::future::BoxFuture;
use vibe_llm::Message;
use vibe_store::{NewMessage, Role};
use vibe_wire::Event;

use crate::CoreError;
use crate::agent::driver::Loop;
use crate::agent::execute::{CallOutcome, OutcomeSink, execute_calls};
use crate::agent::fsm::{Action, PlannedCall, ToolReport};
use crate::agent::persist::tool_message;
use crate::store_io::blocking;
use crate::tools::{Effect, ToolContext, ToolOutput};

/// Stores and applies each outcome of a round as it completes.
struct Recorder<'a> {
    lp: &'a mut Loop,
    finished: Vec<(usize, Message, Option<ToolReport>)>,
}

impl OutcomeSink for Recorder<'_> {
    fn done(&mut self, mut outcome: CallOutcome) -> BoxFuture<'_, Result<(), CoreError>> {
        Box::pin(async move {
            let message = self.lp.record_result(&mut outcome).await?;
            let report = outcome.executed.then(|| ToolReport {
                name: outcome.call.name.clone(),
                is_error: outcome.output.is_error,
            });
            if outcome.executed && !outcome.output.is_error {
                self.lp.done_tools.push(outcome.call.name.clone());
            }
            self.lp.apply(outcome.output.effect);
            self.finished.push((outcome.index, message, report));
            Ok(())
        })
    }

    fn before_wait(&mut self) -> BoxFuture<'_, Result<(), CoreError>> {
        Box::pin(self.lp.store_calls_answer())
    }
}

impl Loop {
    pub(super) async fn tool_round(
        &mut self,
        planned: &[PlannedCall],
    ) -> Result<Action, CoreError> {
        let calls = std::mem::take(&mut self.pending_calls);
        let inp = &self.input;
        let toolset = match self.pending_tools.take() {
            Some(toolset) => toolset,
            None => inp.tools.tools_for(&inp.skills, self.active_skill.as_deref()),
        };
        let lookup = |name: &str| toolset.tools.iter().find(|t| t.name() == name).cloned();
        let ctx = ToolContext {
            store: inp.store.clone(),
            skills: inp.skills.clone(),
            user: inp.user.clone(),
            conversation_id: inp.conversation.id.clone(),
            run_id: inp.run_id.clone(),
            active_skill: self.active_skill.clone(),
            run_dir: inp.run_dir.clone(),
            emitter: inp.emitter.clone(),
            seed: inp.seed,
            approved: false,
            approval_checked: false,
            connections: inp.connections.clone(),
            cancel: inp.cancel.clone(),
            language: inp.language.clone(),
        };
        let approver = inp.approver.clone();
        let emitter = inp.emitter.clone();
        let cancel = inp.cancel.clone();
        // Each outcome is stored and shown the moment it completes; the round's messages
        // join the run's in call order at the end.
        let mut recorder = Recorder { lp: self, finished: Vec::new() };
        let completed = execute_calls(
            &calls,
            planned,
            &lookup,
            &ctx,
            approver.as_ref(),
            &emitter,
            &cancel,
            &mut recorder,
        )
        .await?;
        let mut finished = recorder.finished;
        if !completed {
            // Cancelled: calls that finished keep their results; the others are closed so
            // the history stays valid.
            let done: Vec<usize> = finished.iter().map(|(i, ..)| *i).collect();
            let (unanswered, action) = self.machine.on_tools_cancelled(calls.len(), &done);
            self.store_calls_answer().await?;
            let inp = &self.input;
            for call in unanswered.iter().filter_map(|&i| calls.get(i)) {
                let content = serde_json::json!({"status": "error", "error": "cancelled", "message": "the person stopped the reply before this tool finished"});
                tool_message(
                    &inp.store,
                    &inp.conversation.id,
                    &inp.run_id,
                    &call.id,
                    &content.to_string(),
                    0,
                    true,
                )
                .await?;
            }
            return Ok(action);
        }
        finished.sort_by_key(|(index, ..)| *index);
        let mut reports = Vec::new();
        for (_, message, report) in finished {
            self.run_messages.push(message);
            reports.extend(report);
        }
        Ok(self.machine.on_tools_done(&reports))
    }

    /// Apply a tool's effect to the run (and show it).
    fn apply(&mut self, effect: Option<Effect>) {
        match effect {
            Some(Effect::SkillActivated { skill, scenario }) => {
                self.input.emitter.emit(Event::SkillActivated {
                    skill: skill.clone(),
                    scenario: scenario.clone(),
                });
                self.active_skill = Some(skill);
                self.scenario = scenario;
            }
            Some(Effect::PlanUpdated(plan)) => {
                self.input.emitter.emit(Event::PlanUpdated { plan });
            }
            Some(Effect::ConnectionUsed { server }) if !self.connected.contains(&server) => {
                self.connected.push(server);
            }
            Some(Effect::ConnectionUsed { .. }) => {}
            None => {}
        }
    }

    /// Store the answer that made the round's calls on its own, if it is not stored yet.
    async fn store_calls_answer(&mut self) -> Result<(), CoreError> {
        match self.calls_answer.take() {
            Some(answer) => self.store_answer_alone(answer).await,
            None => Ok(()),
        }
    }

    /// Store and show one result; returns its message for the run's next model call. The
    /// answer that made the call goes in the same commit when it is not stored yet, and so does
    /// a staged state write (`ToolOutput::write`); when the store refuses the write, the result
    /// becomes that error and is stored without it.
    async fn record_result(&mut self, outcome: &mut CallOutcome) -> Result<Message, CoreError> {
        let answer = self.calls_answer.take().map(Arc::new);
        let mut write = outcome.output.write.take().map(Arc::new);
        let inp = &self.input;
        let (message, tokens) = loop {
            let content = outcome.output.result.to_string();
            let message = Message::tool(outcome.call.id.clone(), content.clone());
            let tokens = inp.context.tokenizer().count_message(&message);
            let row = NewMessage {
                tool_call_id: Some(outcome.call.id.clone()),
                token_count: tokens,
                run_id: Some(inp.run_id.clone()),
                ..NewMessage::text(Role::Tool, content)
            };
            let conversation_id = inp.conversation.id.clone();
            let (answer, staged) = (answer.clone(), write.clone());
            let stored = blocking(&inp.store, move |s| {
                s.append_tool_result(&conversation_id, answer.as_deref(), staged.as_deref(), row)
            })
            .await;
            match (stored, write.take()) {
                (Ok(_), Some(staged)) => {
                    crate::tools::state_changed(
                        &inp.emitter,
                        Some(staged.skill()),
                        [staged.section().to_string()],
                    );
                    break (message, tokens);
                }
                (Ok(_), None) => break (message, tokens),
                // The store refused the write (or the result with it): the call failed.
                (Err(e), Some(_)) => outcome.output = ToolOutput::error(e.to_string()),
                (Err(e), None) => return Err(e),
            }
        };
        let (shown, file) = match &inp.audit {
            Some(audit) => audit.externalize(&outcome.call.name, &outcome.output.result),
            None => (outcome.output.result.clone(), None),
        };
        inp.emitter.emit(Event::ToolResult {
            id: outcome.call.id.clone(),
            name: outcome.call.name.clone(),
            result: shown,
            is_error: outcome.output.is_error,
            file,
        });
        self.run_tokens += tokens;
        Ok(message)
    }
}
