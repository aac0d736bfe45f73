//! The one list of the commands the desktop window may call: one line per command,
//! `kind name(Request) -> Response;` (no request: `name()`). Everything else is generated from
//! it through [`with_commands!`](crate::with_commands): the [`Commands`] trait `App` implements
//! (a listed command without a body does not compile), the shell's Tauri commands and handler
//! list, the TypeScript map `Commands = { name: [Request, Response] }` beside the ts-rs
//! bindings (ui/src/wire/Commands.ts) and the command table in docs/architecture.md. Only the
//! list and the trait live here; what each front end makes of them is its own.
//!
//! Kinds of the `app` section (answered by `App`):
//! - `sync`: answered at once, on the caller's thread (nothing slow: cancel, approve);
//! - `blocking`: database, keychain or file work: the shell runs it on a blocking thread;
//! - `future`: async (network);
//! - `stream`: async, its events go to a sink (the UI's channel) until it ends.
//!
//! The `shell` section lists what only the desktop shell answers (dialogs, opening a folder,
//! reopening a locked data folder, the skills watch): written by hand in src-tauri, listed here
//! so the UI's calls to them are typed too. Kinds there: `call` or `stream`.

/// Calls `$callback! { app { ... } shell { ... } }` with every command line (doc comments
/// kept as `#[doc]` attributes), followed by whatever is passed after the callback's name.
/// Types are written as bare names: the callback's module imports `vibe_wire::command::*`.
#[macro_export]
macro_rules! with_commands {
    ($callback:ident $(, $($extra:tt)*)?) => {
        $callback! {
            app {
                // Turns (chat.rs)
                /// One turn; its events stream to the sink until the run ends.
                stream send_message(SendMessageRequest) -> SendMessageResponse;
                sync cancel_run(CancelRunRequest) -> CancelRunResponse;
                sync resolve_approval(ResolveApprovalRequest) -> ResolveApprovalResponse;
                // Conversations
                blocking list_conversations() -> ConversationList;
                blocking get_conversation(GetConversationRequest) -> ConversationDetail;
                blocking rename_conversation(RenameConversationRequest) -> ConversationSummary;
                blocking delete_conversation(DeleteConversationRequest) -> DeleteConversationResponse;
                blocking search_conversations(SearchConversationsRequest) -> ConversationList;
                // Settings and the API key (the key goes to the OS keychain, never back)
                blocking get_settings() -> SettingsView;
                /// Validated together; on an error nothing is written.
                blocking update_settings(UpdateSettingsRequest) -> SettingsView;
                blocking set_api_key(SetApiKeyRequest) -> ApiKeyStatus;
                blocking clear_api_key(ApiKeyRequest) -> ApiKeyStatus;
                blocking api_key_status(ApiKeyRequest) -> ApiKeyStatus;
                // The model endpoint
                future list_models(ListModelsRequest) -> ModelList;
                /// A failure is an answer carrying the error, not an error.
                future test_connection(TestConnectionRequest) -> TestConnectionResponse;
                /// No model configured yet: no settings file and no `VIBE_LLM_BASE_URL`.
                sync needs_first_run() -> bool;
                future detect_local_servers() -> Vec<LocalServerView>;
                // Local models (docs/models.md)
                future list_local_models() -> LocalModels;
                /// `model_download_*` events stream to the sink until it is in place.
                stream pull_model(LocalModelRequest) -> ModelPulled;
                sync cancel_model_download(LocalModelRequest) -> ModelDownloadCancelled;
                blocking remove_model(LocalModelRequest) -> ModelRemoved;
                blocking use_model(LocalModelRequest) -> ModelInUse;
                // Skills
                blocking list_skills() -> SkillList;
                blocking show_skill(ShowSkillRequest) -> SkillDetail;
                blocking check_skills(CheckSkillsRequest) -> SkillCheckReport;
                blocking reload_skills() -> SkillsReloaded;
                blocking new_skill(NewSkillRequest) -> NewSkillResponse;
                // MCP servers (docs/mcp.md; secret values go to the keychain, never back)
                blocking list_mcp_servers() -> McpServerList;
                /// Validated, secrets stored, then the settings written; on an error nothing is.
                blocking add_mcp_server(AddMcpServerRequest) -> McpServerView;
                blocking remove_mcp_server(McpServerRequest) -> McpServerRemoved;
                blocking set_mcp_server_enabled(SetMcpServerEnabledRequest) -> McpServerView;
                /// The grant replaced whole (checked as at add); no remove and add again.
                blocking set_mcp_server_grant(SetMcpServerGrantRequest) -> McpServerView;
                /// One tool called without asking, or asked again (written in one settings change).
                blocking set_mcp_tool_always_allow(SetMcpToolAlwaysAllowRequest) -> McpServerView;
                /// A Claude Desktop or Cursor config (`mcpServers`), secrets to the keychain.
                blocking import_mcp_servers(ImportMcpServersRequest) -> McpImportReport;
                /// Connects (starting a stdio server confined) and lists its tools.
                future mcp_server_tools(McpServerRequest) -> McpToolList;
                /// A failure is an answer carrying the error, not an error.
                future test_mcp_server(McpServerRequest) -> McpTestReport;
                /// The enabled servers' prompts (conversation starters); a server that fails is named.
                future mcp_prompts() -> McpPromptList;
                /// Runs `prompts/get`: the text the composer is filled with.
                future get_mcp_prompt(GetMcpPromptRequest) -> McpText;
                future mcp_server_resources(McpServerRequest) -> McpResourceList;
                /// A resource's content, for the message being written.
                future read_mcp_resource(ReadMcpResourceRequest) -> McpText;
                // Memory
                blocking list_memory(ListMemoryRequest) -> MemoryList;
                blocking edit_memory_item(EditMemoryRequest) -> MemoryItemView;
                blocking forget_memory_item(MemoryItemRequest) -> ForgetMemoryResponse;
                blocking export_memory() -> MemoryExport;
                blocking set_memory_enabled(SetMemoryEnabledRequest) -> MemorySwitch;
                // The profile, a skill's saved state, its chart
                blocking get_profile() -> ProfileView;
                blocking set_profile_path(SetProfilePathRequest) -> ProfileSet;
                blocking lookup_place(LookupPlaceRequest) -> PlaceLookup;
                blocking skill_state(SkillStateRequest) -> SkillStateView;
                blocking write_state(WriteStateRequest) -> StateWritten;
                blocking edit_state_entry(EditStateEntryRequest) -> StateEntryEdited;
                blocking compute_chart(ComputeChartRequest) -> ChartView;
                // The journal and check-ins (the life coach's `journal`)
                /// A mood check-in, saved as a journal entry.
                blocking checkin(CheckinRequest) -> JournalSaved;
                blocking journal_add(JournalAddRequest) -> JournalSaved;
                blocking journal_list(JournalListRequest) -> JournalList;
                blocking journal_edit(JournalEditRequest) -> JournalSaved;
                /// Undoable from the state history.
                blocking journal_remove(JournalRemoveRequest) -> JournalRemoved;
                blocking today(TodayRequest) -> TodayView;
                blocking insights(InsightsRequest) -> InsightsView;
                /// The week's summary in the coach's words, only when the person asks: the
                /// week's figures (never an entry) go to the configured model.
                future insights_week_words(WeekWordsRequest) -> WeekWords;
                blocking conversation_starters(StartersRequest) -> StarterList;
                // Coaching protocols
                blocking list_protocols() -> ProtocolList;
                blocking list_protocol_runs(ListProtocolRunsRequest) -> ProtocolRunList;
                blocking get_protocol_run(ProtocolRunRequest) -> ProtocolRunView;
                blocking start_protocol(ProtocolRequest) -> ProtocolRunChange;
                blocking later_protocol(ProtocolRequest) -> ProtocolLater;
                blocking resume_protocol(ProtocolRunRequest) -> ProtocolRunChange;
                blocking cancel_protocol(CancelProtocolRequest) -> ProtocolRunChange;
                /// The notified reminders still open (the window's reminder card).
                blocking reminder_notices() -> ReminderList;
                // The data folder
                blocking create_backup(CreateBackupRequest) -> BackupCreated;
                blocking export_all(ExportAllRequest) -> ExportAllResponse;
                // Sync (docs/sync.md)
                /// The recovery code is answered once, to be shown; the key goes to the keychain.
                future sync_setup(SyncSetupRequest) -> SyncSetupResponse;
                future sync_join(SyncJoinRequest) -> SyncStatusView;
                /// A refused file is in the answer, not an error: the rest was merged.
                future sync_now() -> SyncRunView;
                blocking sync_status() -> SyncStatusView;
                future sync_devices() -> SyncDeviceList;
                /// Removes a device and replaces the sync key: the new recovery code is answered
                /// once; every other device joins again with it.
                future sync_remove_device(SyncRemoveDeviceRequest) -> SyncSetupResponse;
                /// Pauses or resumes background syncing (`sync.paused`).
                blocking sync_pause(SyncPauseRequest) -> SyncStatusView;
            }
            shell {
                /// Opens the locked data folder: its passphrase, or (new folder) no encryption.
                call unlock_database(UnlockDatabaseRequest) -> UnlockDatabaseResponse;
                /// The report (`App::protocol_report`) saved where the person picks.
                call export_protocol_report(ProtocolReportRequest) -> Saved;
                /// `export_memory` saved where the person picks.
                call save_memory_export() -> Saved;
                /// A `.gguf` file picked in the open dialog, copied in (`App::add_model`).
                call add_model_file() -> Option<InstalledModelView>;
                call open_data_dir() -> ();
                call open_skills_dir() -> ();
                /// The composer is interactive (the log records the launch time).
                call ui_ready() -> ();
                /// The skill registry's `skills_changed` notices, to the channel.
                stream watch_skills() -> ();
                /// Sync's status as it changes (`sync_changed`: runs begun and ended, pause), to
                /// the channel; a new call replaces the earlier channel.
                stream watch_sync() -> ();
                /// The window closes as `preferences.on_close` now says: to the tray, or quitting
                /// (the first-close dialog calls it once the answer is saved).
                call close_window() -> ();
                /// Whether VibeLife starts at login (the OS's autostart entry).
                call autostart_status() -> Autostart;
                /// Writes or removes the autostart entry (started minimised to the tray).
                call set_autostart(SetAutostartRequest) -> Autostart;
                /// Asks the update server for a newer version, when the person allowed it and
                /// (unless `manual`) the last check is a day old; off: no request at all.
                call update_check(UpdateCheckRequest) -> UpdateCheck;
                /// Downloads the update the last check found, verifies its signature and installs
                /// it (the person said yes in the update dialog).
                call update_install() -> UpdateInstall;
            }
            $($($extra)*)?
        }
    };
}

/// Declares the [`Commands`] trait from the list.
macro_rules! declare_commands_trait {
    (
        app { $( $(#[$meta:meta])* $kind:ident $name:ident ( $($req:ty)? ) -> $res:ty; )* }
        shell { $($shell:tt)* }
    ) => {
        /// The commands of the `app` section of [`with_commands!`](crate::with_commands), which
        /// `App` implements: one method per line, so a listed command without a body does not
        /// compile. Requests are taken by value (a front end hands them over); `Error` is the
        /// implementor's error (the shell maps it to [`CommandError`]); `Sink` is where a
        /// streaming command's events go.
        pub trait Commands: Send + Sync {
            type Error;
            type Sink;
            $( declare_commands_trait!(@method $(#[$meta])* $kind $name ($($req)?) -> $res); )*
        }
    };
    (@method $(#[$meta:meta])* sync $name:ident ($($req:ty)?) -> $res:ty) => {
        $(#[$meta])*
        fn $name(&self $(, request: $req)?) -> Result<$res, Self::Error>;
    };
    (@method $(#[$meta:meta])* blocking $name:ident ($($req:ty)?) -> $res:ty) => {
        $(#[$meta])*
        fn $name(&self $(, request: $req)?) -> Result<$res, Self::Error>;
    };
    (@method $(#[$meta:meta])* future $name:ident ($($req:ty)?) -> $res:ty) => {
        $(#[$meta])*
        fn $name(&self $(, request: $req)?)
            -> impl Future<Output = Result<$res, Self::Error>> + Send;
    };
    (@method $(#[$meta:meta])* stream $name:ident ($($req:ty)?) -> $res:ty) => {
        $(#[$meta])*
        fn $name(&self $(, request: $req)?, sink: Self::Sink)
            -> impl Future<Output = Result<$res, Self::Error>> + Send;
    };
}

use super::*;

crate::with_commands!(declare_commands_trait);
