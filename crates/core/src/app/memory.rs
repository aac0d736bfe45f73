//! Memory commands (docs/memory.md): `list_memory`, `show_memory_item`, `edit_memory_item`,
//! `forget_memory_item`, `export_memory`, `set_memory_enabled`, `memory_status`,
//! `extract_memory` and the idle check `extract_memory_due`. The rules
//! are `vibe_agent::memory`'s and `vibe_store`'s; this file only calls them for the local user and
//! answers wire DTOs (`dto.rs`). It never prints or words a front end's hint.

use vibe_store::LOCAL_USER;
use vibe_wire::command::{
    EditMemoryRequest, ExtractMemoryRequest, ExtractMemoryResponse, ForgetMemoryResponse,
    ListMemoryRequest, MemoryBacklogView, MemoryExport, MemoryItemRequest, MemoryItemView,
    MemoryList, MemoryStatus, MemorySwitch, SetMemoryEnabledRequest,
};

use crate::app::{App, AppError, dto};
use vibe_agent::memory::{self, ExtractOptions};
use vibe_agent::store_io::blocking;

impl App {
    /// `list_memory`: newest first, one kind or all, and whether memory is on.
    pub fn list_memory(&self, request: &ListMemoryRequest) -> Result<MemoryList, AppError> {
        let items = self.store.memory_items(LOCAL_USER, request.kind)?;
        Ok(MemoryList {
            memory: memory::memory_enabled(&self.store, LOCAL_USER)?,
            items: items.into_iter().map(dto::memory_item).collect(),
        })
    }

    /// `show_memory_item`: one item with its sources and replaced versions.
    pub fn show_memory_item(
        &self,
        request: &MemoryItemRequest,
    ) -> Result<MemoryItemView, AppError> {
        Ok(dto::memory_item(self.store.memory_item(LOCAL_USER, &request.id)?))
    }

    /// `edit_memory_item`: the person's words replace the text (the old one is kept in the
    /// item's history; later merges keep the edit).
    pub fn edit_memory_item(
        &self,
        request: &EditMemoryRequest,
    ) -> Result<MemoryItemView, AppError> {
        let item = self.store.edit_memory_item(LOCAL_USER, &request.id, &request.text)?;
        Ok(dto::memory_item(item))
    }

    /// `forget_memory_item`: gone for good, and never extracted again from the same messages.
    pub fn forget_memory_item(
        &self,
        request: &MemoryItemRequest,
    ) -> Result<ForgetMemoryResponse, AppError> {
        Ok(ForgetMemoryResponse {
            forgotten: self.store.forget_memory_item(LOCAL_USER, &request.id)?,
        })
    }

    /// `export_memory`: every item and the switch, stamped now.
    pub fn export_memory(&self) -> Result<MemoryExport, AppError> {
        let list = self.list_memory(&ListMemoryRequest::default())?;
        Ok(MemoryExport {
            exported_at: vibe_store::now_rfc3339(),
            memory: list.memory,
            items: list.items,
        })
    }

    /// `set_memory_enabled`: off means nothing is extracted and nothing remembered reaches a
    /// prompt; the items stay.
    pub fn set_memory_enabled(
        &self,
        request: &SetMemoryEnabledRequest,
    ) -> Result<MemorySwitch, AppError> {
        memory::set_memory_enabled(&self.store, LOCAL_USER, request.on)?;
        Ok(MemorySwitch { memory: request.on })
    }

    /// `memory_status`: the switch, the conversations with unread messages, and the waits
    /// after failed passes (docs/memory.md, "When a pass fails").
    pub fn memory_status(&self) -> Result<MemoryStatus, AppError> {
        let on = memory::memory_enabled(&self.store, LOCAL_USER)?;
        let backlog = self.store.memory_backlog(LOCAL_USER)?;
        let backoff = self.store.memory_backoffs(LOCAL_USER)?;
        Ok(MemoryStatus {
            memory: on,
            backlog: backlog
                .into_iter()
                .map(|b| MemoryBacklogView {
                    conversation_id: b.conversation_id,
                    user_turns: b.user_turns,
                    last_message_at: b.last_message_at,
                })
                .collect(),
            backoff: backoff.into_iter().map(dto::memory_backoff).collect(),
        })
    }

    /// `extract_memory`: one pass (one model call) per conversation with unread messages, or
    /// the one asked for; `again` re-reads every message. Refused while memory is off. A pass
    /// whose model call failed or whose answer was refused changed nothing and says why.
    pub async fn extract_memory(
        &self,
        request: &ExtractMemoryRequest,
    ) -> Result<ExtractMemoryResponse, AppError> {
        let (conversation, again) = (request.conversation_id.clone(), request.again);
        let (targets, on) = blocking(&self.store, move |store| {
            let targets: Vec<String> = match conversation {
                Some(id) => vec![store.conversation(&id)?.id],
                None if again => {
                    store.list_conversations(LOCAL_USER)?.into_iter().map(|c| c.id).collect()
                }
                None => store
                    .memory_backlog(LOCAL_USER)?
                    .into_iter()
                    .map(|b| b.conversation_id)
                    .collect(),
            };
            let on = vibe_context::memory_switch(&store.profile(LOCAL_USER)?);
            Ok((targets, on))
        })
        .await?;
        if !on {
            return Err(AppError::MemoryOff);
        }
        if targets.is_empty() {
            return Ok(ExtractMemoryResponse { passes: Vec::new(), notices: Vec::new() });
        }
        let (model, notices) = self.model()?;
        let options = ExtractOptions { from_start: again, settings: self.assembly().chat.memory };
        let mut passes = Vec::with_capacity(targets.len());
        for id in targets {
            let pass = memory::extract_conversation(
                &self.store,
                model.as_ref(),
                Some(&self.run_folders),
                LOCAL_USER,
                &id,
                options,
            )
            .await?;
            passes.push(dto::memory_pass(pass));
        }
        Ok(ExtractMemoryResponse { passes, notices })
    }

    /// The passes due now by themselves (a conversation quiet for `quiet_minutes`, or with
    /// `every_turns` unread messages of the person), as a turn's end runs them. A long-lived
    /// front end calls this now and then while the app is idle, so a conversation the person
    /// walked away from is read without a next turn. Nothing when memory is off or no model is
    /// set up; a pass that fails is in its run's events and waits before the next try.
    pub async fn extract_memory_due(&self) -> Result<ExtractMemoryResponse, AppError> {
        let service = self.chat_service()?;
        let passes = service.extract_memory_due().await;
        Ok(ExtractMemoryResponse {
            passes: passes.into_iter().map(dto::memory_pass).collect(),
            notices: Vec::new(),
        })
    }
}
