//! The commands a front end sends to the core (`vibe_core::app::App` implements them): one
//! request and one response type per operation, grouped by area, plus the error every
//! command may return. Responses are DTOs of their own, never store rows, so a renamed
//! column never changes this contract. Plain serde types only.

mod api_key;
mod backup;
mod bench;
mod chart;
mod chat;
mod conversations;
mod database;
mod desktop;
mod endpoint;
mod error;
mod eval;
mod history;
mod insights;
mod journal;
mod list;
mod mcp;
mod mcp_offers;
mod memory;
mod models;
mod place;
mod profile;
mod protocol;
mod runs;
mod safety;
mod saved;
mod settings;
mod skill_problem;
mod skills;
mod state;
mod sync;
mod today;
mod update;

pub use api_key::{ApiKeyRequest, ApiKeyStatus, SetApiKeyRequest};
pub use backup::{
    BackupCreated, BackupFileEntry, BackupFileRequest, BackupManifest, BackupRestored,
    BackupVerified, CreateBackupRequest, EraseReport, EraseRequest, ExportAllRequest,
    ExportAllResponse,
};
pub use bench::{AgentBench, AgentBenchReport};
pub use chart::{ChartKind, ChartView, ComputeChartRequest};
pub use chat::{
    CancelRunRequest, CancelRunResponse, ResolveApprovalRequest, ResolveApprovalResponse,
    SendMessageRequest, SendMessageResponse, TurnInput,
};
pub use conversations::{
    ChatMessage, ConversationDetail, ConversationList, ConversationSummary, CrisisResources,
    DeleteConversationRequest, DeleteConversationResponse, GetConversationRequest, MessageRole,
    MessageSafety, RenameConversationRequest, SearchConversationsRequest,
};
pub use database::{
    DatabaseCheck, DatabaseInfo, Encryption, UnlockDatabaseRequest, UnlockDatabaseResponse,
};
pub use desktop::{Autostart, SetAutostartRequest};
pub use endpoint::{
    ListModelsRequest, LocalServerView, ModelList, ModelView, PresetView, ProbeDetect, ProbeError,
    ProbeRequest, ProbeResponse, TestConnectionRequest, TestConnectionResponse, ToolCallView,
};
pub use error::{CommandError, Hint};
pub use eval::{EvalCheck, EvalObserved, EvalRequest, EvalResponse, EvalResults, EvalTurn};
pub use history::{
    ChangeSource, ClearStateHistoryRequest, ClearStateHistoryResponse, HistoryTargetView,
    StateChangeView, StateHistoryRequest, StateHistoryView, UndoStateRequest, UndoStateResponse,
};
pub use insights::{
    CompletedProtocol, DayActivity, FeelingCount, GoalProgress, InsightsRange, InsightsRequest,
    InsightsView, MoodDay, MoodPoint, WeekSummary, WeekWords, WeekWordsRequest,
};
pub use journal::{
    CheckinRequest, JournalAddRequest, JournalEditRequest, JournalEntryView, JournalList,
    JournalListRequest, JournalRemoveRequest, JournalRemoved, JournalSaved, JournalSource,
    SafetyNoticeView,
};
pub use list::Commands;
pub use mcp::{
    AddMcpServerRequest, ImportMcpServersRequest, McpImportReport, McpImportSkipped, McpSecret,
    McpServerList, McpServerRemoved, McpServerRequest, McpServerView, McpTestReport, McpToolList,
    McpToolView, SetMcpServerEnabledRequest, SetMcpServerGrantRequest,
    SetMcpToolAlwaysAllowRequest,
};
pub use mcp_offers::{
    GetMcpPromptRequest, McpPromptArgumentView, McpPromptList, McpPromptView, McpResourceList,
    McpResourceView, McpText, ReadMcpResourceRequest,
};
pub use memory::{
    EditMemoryRequest, ExtractMemoryRequest, ExtractMemoryResponse, ForgetMemoryResponse,
    ListMemoryRequest, MemoryBacklogView, MemoryBackoffView, MemoryExport, MemoryItemRequest,
    MemoryItemView, MemoryKind, MemoryList, MemoryPass, MemoryPassStatus, MemoryReplacedBy,
    MemorySourceView, MemoryStatus, MemorySwitch, MemoryTrigger, MemoryVersion,
    SetMemoryEnabledRequest,
};
pub use models::{
    AddModelRequest, CatalogModelView, InstalledModelView, LocalModelRequest, LocalModels,
    ModelDownloadCancelled, ModelInUse, ModelOrigin, ModelPulled, ModelRemoved,
};
pub use place::{
    LookupPlaceRequest, PlaceLookup, PlaceLookupStatus, PlaceView, ProfileSet, ZoneWarning,
};
pub use profile::{
    ImportProfileRequest, ProfileView, SetProfilePathRequest, SkillStateRequest, SkillStateView,
};
pub use protocol::{
    AnswerReminderRequest, CancelProtocolRequest, FieldAnswer, ListProtocolRunsRequest,
    ProtocolLater, ProtocolList, ProtocolReportRequest, ProtocolRequest, ProtocolRunChange,
    ProtocolRunList, ProtocolRunRequest, ProtocolRunStatus, ProtocolRunView, ProtocolView,
    ReminderAnswered, ReminderList, ReminderView, RemindersRequest, ReportFormatKind, StepAnswers,
};
pub use runs::{
    ListRunsRequest, ReplayRunRequest, RunDetail, RunEventCounts, RunFileView, RunList, RunReplay,
    RunSummary, ShowRunRequest,
};
pub use safety::{
    SafetyCheckRequest, SafetyCheckView, SafetyDiscount, SafetyEvalReport, SafetyGroupFigures,
    SafetyLabelled, SafetyOutcome, ScreenedRisk,
};
pub use saved::Saved;
pub use settings::{SettingChange, SettingsView, UpdateSettingsRequest};
pub use skill_problem::{ProblemCode, SkillProblemSeverity, SkillProblemView};
pub use skills::{
    CaseMatchView, CaseMatches, CheckSkillsRequest, CheckedSkillView, MatchCasesRequest,
    NewSkillRequest, NewSkillResponse, ShowSkillRequest, SkillCheckProblem, SkillCheckReport,
    SkillDetail, SkillList, SkillParts, SkillResourceKind, SkillResourceView, SkillRootKind,
    SkillRootView, SkillShadow, SkillSummary, SkillText, SkillsReloaded,
};
pub use state::{
    AppendStateRequest, EditStateEntryRequest, ReadStateRequest, StateAppended, StateEntryEdited,
    StateRead, StateReadStatus, StateWritten, WriteStateRequest,
};
pub use sync::{
    SyncActivity, SyncDeviceList, SyncDeviceView, SyncJoinRequest, SyncPauseRequest,
    SyncRemoveDeviceRequest, SyncRunView, SyncSetupRequest, SyncSetupResponse, SyncStatusView,
};
pub use today::{
    ActiveProtocolView, DailyPromptView, StarterList, StarterView, StartersRequest, StreakView,
    TodayRequest, TodayView,
};
pub use update::{UpdateCheck, UpdateCheckRequest, UpdateInstall, UpdateOffer, UpdateRefusal};
