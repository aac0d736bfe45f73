//! `App`'s side of the command list (`vibe_wire::with_commands!`): the [`Commands`] trait, one
//! method per listed command, so a command listed without a body does not compile. Each method
//! hands the request to `App`'s inherent method of the same name (the CLI, evals and tests call
//! those directly); a new command may keep its body here. Nothing but that hand-over.

use std::sync::Arc;

use vibe_wire::command::*;

use super::{App, AppError};
use vibe_runlog::emit::EventSink;

impl Commands for App {
    type Error = AppError;
    type Sink = Arc<dyn EventSink>;

    async fn send_message(
        &self,
        request: SendMessageRequest,
        sink: Arc<dyn EventSink>,
    ) -> Result<SendMessageResponse, AppError> {
        App::send_message(self, request, sink).await
    }

    fn cancel_run(&self, request: CancelRunRequest) -> Result<CancelRunResponse, AppError> {
        Ok(App::cancel_run(self, &request))
    }

    fn resolve_approval(
        &self,
        request: ResolveApprovalRequest,
    ) -> Result<ResolveApprovalResponse, AppError> {
        Ok(App::resolve_approval(self, &request))
    }

    fn list_conversations(&self) -> Result<ConversationList, AppError> {
        App::list_conversations(self)
    }

    fn get_conversation(
        &self,
        request: GetConversationRequest,
    ) -> Result<ConversationDetail, AppError> {
        App::get_conversation(self, &request)
    }

    fn rename_conversation(
        &self,
        request: RenameConversationRequest,
    ) -> Result<ConversationSummary, AppError> {
        App::rename_conversation(self, &request)
    }

    fn delete_conversation(
        &self,
        request: DeleteConversationRequest,
    ) -> Result<DeleteConversationResponse, AppError> {
        App::delete_conversation(self, &request)
    }

    fn search_conversations(
        &self,
        request: SearchConversationsRequest,
    ) -> Result<ConversationList, AppError> {
        App::search_conversations(self, &request)
    }

    fn get_settings(&self) -> Result<SettingsView, AppError> {
        Ok(App::get_settings(self))
    }

    fn update_settings(&self, request: UpdateSettingsRequest) -> Result<SettingsView, AppError> {
        App::update_settings(self, request)
    }

    fn set_api_key(&self, request: SetApiKeyRequest) -> Result<ApiKeyStatus, AppError> {
        App::set_api_key(self, &request)
    }

    fn clear_api_key(&self, request: ApiKeyRequest) -> Result<ApiKeyStatus, AppError> {
        App::clear_api_key(self, &request)
    }

    fn api_key_status(&self, request: ApiKeyRequest) -> Result<ApiKeyStatus, AppError> {
        App::api_key_status(self, &request)
    }

    async fn list_models(&self, request: ListModelsRequest) -> Result<ModelList, AppError> {
        App::list_models(self, &request).await
    }

    async fn test_connection(
        &self,
        request: TestConnectionRequest,
    ) -> Result<TestConnectionResponse, AppError> {
        Ok(App::test_connection(self, &request).await)
    }

    fn needs_first_run(&self) -> Result<bool, AppError> {
        Ok(App::needs_first_run(self))
    }

    async fn detect_local_servers(&self) -> Result<Vec<LocalServerView>, AppError> {
        Ok(App::detect_local_servers(self).await)
    }

    async fn list_local_models(&self) -> Result<LocalModels, AppError> {
        App::list_local_models(self).await
    }

    async fn pull_model(
        &self,
        request: LocalModelRequest,
        sink: Arc<dyn EventSink>,
    ) -> Result<ModelPulled, AppError> {
        App::pull_model(self, &request, sink).await
    }

    fn cancel_model_download(
        &self,
        request: LocalModelRequest,
    ) -> Result<ModelDownloadCancelled, AppError> {
        Ok(App::cancel_model_download(self, &request))
    }

    fn remove_model(&self, request: LocalModelRequest) -> Result<ModelRemoved, AppError> {
        App::remove_model(self, &request)
    }

    fn use_model(&self, request: LocalModelRequest) -> Result<ModelInUse, AppError> {
        App::use_model(self, &request)
    }

    fn list_mcp_servers(&self) -> Result<McpServerList, AppError> {
        Ok(App::list_mcp_servers(self))
    }

    fn add_mcp_server(&self, request: AddMcpServerRequest) -> Result<McpServerView, AppError> {
        App::add_mcp_server(self, request)
    }

    fn remove_mcp_server(&self, request: McpServerRequest) -> Result<McpServerRemoved, AppError> {
        App::remove_mcp_server(self, &request)
    }

    fn set_mcp_server_enabled(
        &self,
        request: SetMcpServerEnabledRequest,
    ) -> Result<McpServerView, AppError> {
        App::set_mcp_server_enabled(self, &request)
    }

    fn set_mcp_tool_always_allow(
        &self,
        request: SetMcpToolAlwaysAllowRequest,
    ) -> Result<McpServerView, AppError> {
        App::set_mcp_tool_always_allow(self, &request)
    }

    fn import_mcp_servers(
        &self,
        request: ImportMcpServersRequest,
    ) -> Result<McpImportReport, AppError> {
        App::import_mcp_servers(self, &request)
    }

    async fn mcp_server_tools(&self, request: McpServerRequest) -> Result<McpToolList, AppError> {
        App::mcp_server_tools(self, &request).await
    }

    async fn test_mcp_server(&self, request: McpServerRequest) -> Result<McpTestReport, AppError> {
        App::test_mcp_server(self, &request).await
    }

    fn set_mcp_server_grant(
        &self,
        request: SetMcpServerGrantRequest,
    ) -> Result<McpServerView, AppError> {
        App::set_mcp_server_grant(self, &request)
    }

    async fn mcp_prompts(&self) -> Result<McpPromptList, AppError> {
        Ok(App::mcp_prompts(self).await)
    }

    async fn get_mcp_prompt(&self, request: GetMcpPromptRequest) -> Result<McpText, AppError> {
        App::get_mcp_prompt(self, &request).await
    }

    async fn mcp_server_resources(
        &self,
        request: McpServerRequest,
    ) -> Result<McpResourceList, AppError> {
        App::mcp_server_resources(self, &request).await
    }

    async fn read_mcp_resource(
        &self,
        request: ReadMcpResourceRequest,
    ) -> Result<McpText, AppError> {
        App::read_mcp_resource(self, &request).await
    }

    fn list_skills(&self) -> Result<SkillList, AppError> {
        Ok(App::list_skills(self))
    }

    fn show_skill(&self, request: ShowSkillRequest) -> Result<SkillDetail, AppError> {
        App::show_skill(self, &request)
    }

    fn check_skills(&self, request: CheckSkillsRequest) -> Result<SkillCheckReport, AppError> {
        Ok(App::check_skills(self, &request))
    }

    fn reload_skills(&self) -> Result<SkillsReloaded, AppError> {
        Ok(App::reload_skills(self))
    }

    fn new_skill(&self, request: NewSkillRequest) -> Result<NewSkillResponse, AppError> {
        App::new_skill(self, &request)
    }

    fn list_memory(&self, request: ListMemoryRequest) -> Result<MemoryList, AppError> {
        App::list_memory(self, &request)
    }

    fn edit_memory_item(&self, request: EditMemoryRequest) -> Result<MemoryItemView, AppError> {
        App::edit_memory_item(self, &request)
    }

    fn forget_memory_item(
        &self,
        request: MemoryItemRequest,
    ) -> Result<ForgetMemoryResponse, AppError> {
        App::forget_memory_item(self, &request)
    }

    fn export_memory(&self) -> Result<MemoryExport, AppError> {
        App::export_memory(self)
    }

    fn set_memory_enabled(
        &self,
        request: SetMemoryEnabledRequest,
    ) -> Result<MemorySwitch, AppError> {
        App::set_memory_enabled(self, &request)
    }

    fn get_profile(&self) -> Result<ProfileView, AppError> {
        App::get_profile(self)
    }

    fn set_profile_path(&self, request: SetProfilePathRequest) -> Result<ProfileSet, AppError> {
        App::set_profile_path(self, &request)
    }

    fn lookup_place(&self, request: LookupPlaceRequest) -> Result<PlaceLookup, AppError> {
        App::lookup_place(self, &request)
    }

    fn skill_state(&self, request: SkillStateRequest) -> Result<SkillStateView, AppError> {
        App::skill_state(self, &request)
    }

    fn write_state(&self, request: WriteStateRequest) -> Result<StateWritten, AppError> {
        App::write_state(self, &request)
    }

    fn edit_state_entry(
        &self,
        request: EditStateEntryRequest,
    ) -> Result<StateEntryEdited, AppError> {
        App::edit_state_entry(self, &request)
    }

    fn compute_chart(&self, request: ComputeChartRequest) -> Result<ChartView, AppError> {
        App::compute_chart(self, &request)
    }

    fn checkin(&self, request: CheckinRequest) -> Result<JournalSaved, AppError> {
        App::checkin(self, &request)
    }

    fn journal_add(&self, request: JournalAddRequest) -> Result<JournalSaved, AppError> {
        App::journal_add(self, &request)
    }

    fn journal_list(&self, request: JournalListRequest) -> Result<JournalList, AppError> {
        App::journal_list(self, &request)
    }

    fn journal_edit(&self, request: JournalEditRequest) -> Result<JournalSaved, AppError> {
        App::journal_edit(self, &request)
    }

    fn journal_remove(&self, request: JournalRemoveRequest) -> Result<JournalRemoved, AppError> {
        App::journal_remove(self, &request)
    }

    fn today(&self, request: TodayRequest) -> Result<TodayView, AppError> {
        App::today(self, &request)
    }

    fn insights(&self, request: InsightsRequest) -> Result<InsightsView, AppError> {
        App::insights(self, &request)
    }

    async fn insights_week_words(&self, request: WeekWordsRequest) -> Result<WeekWords, AppError> {
        App::insights_week_words(self, &request).await
    }

    fn conversation_starters(&self, request: StartersRequest) -> Result<StarterList, AppError> {
        Ok(App::conversation_starters(self, &request))
    }

    fn list_protocols(&self) -> Result<ProtocolList, AppError> {
        Ok(App::list_protocols(self))
    }

    fn list_protocol_runs(
        &self,
        request: ListProtocolRunsRequest,
    ) -> Result<ProtocolRunList, AppError> {
        App::list_protocol_runs(self, &request)
    }

    fn get_protocol_run(&self, request: ProtocolRunRequest) -> Result<ProtocolRunView, AppError> {
        App::get_protocol_run(self, &request)
    }

    fn start_protocol(&self, request: ProtocolRequest) -> Result<ProtocolRunChange, AppError> {
        App::start_protocol(self, &request)
    }

    fn later_protocol(&self, request: ProtocolRequest) -> Result<ProtocolLater, AppError> {
        App::later_protocol(self, &request)
    }

    fn resume_protocol(&self, request: ProtocolRunRequest) -> Result<ProtocolRunChange, AppError> {
        App::resume_protocol(self, &request)
    }

    fn cancel_protocol(
        &self,
        request: CancelProtocolRequest,
    ) -> Result<ProtocolRunChange, AppError> {
        App::cancel_protocol(self, &request)
    }

    fn reminder_notices(&self) -> Result<ReminderList, AppError> {
        App::reminder_notices(self)
    }

    fn create_backup(&self, request: CreateBackupRequest) -> Result<BackupCreated, AppError> {
        App::create_backup(self, &request)
    }

    fn export_all(&self, request: ExportAllRequest) -> Result<ExportAllResponse, AppError> {
        App::export_all(self, &request)
    }

    async fn sync_setup(&self, request: SyncSetupRequest) -> Result<SyncSetupResponse, AppError> {
        App::sync_setup(self, &request).await
    }

    async fn sync_join(&self, request: SyncJoinRequest) -> Result<SyncStatusView, AppError> {
        App::sync_join(self, &request).await
    }

    async fn sync_now(&self) -> Result<SyncRunView, AppError> {
        App::sync_now(self).await
    }

    fn sync_status(&self) -> Result<SyncStatusView, AppError> {
        App::sync_status(self)
    }

    async fn sync_devices(&self) -> Result<SyncDeviceList, AppError> {
        App::sync_devices(self).await
    }

    async fn sync_remove_device(
        &self,
        request: SyncRemoveDeviceRequest,
    ) -> Result<SyncSetupResponse, AppError> {
        App::sync_remove_device(self, &request).await
    }

    fn sync_pause(&self, request: SyncPauseRequest) -> Result<SyncStatusView, AppError> {
        App::sync_pause(self, &request)
    }
}
