//! The command-line definition (clap derive). Each command's arguments live in its own
//! module under `cmd/`; this file only lists them, so parsing, `--help` and docs share one source.

use clap::{Parser, Subcommand};

use crate::cmd;
use crate::global::GlobalArgs;

/// VibeLife: a private life coach on your own machine.
#[derive(Debug, Parser)]
#[command(name = "vibe", version, about, propagate_version = true)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read and write a skill's saved state (semantics: docs/design.md#state-semantics).
    State(cmd::state::StateArgs),
    /// Show, edit, import and export the profile document.
    Profile(cmd::profile::ProfileArgs),
    /// Facts about the database file.
    Db(cmd::db::DbArgs),
    /// List, show, check and create skills; match cases; compute charts.
    Skills(cmd::skills::SkillsArgs),
    /// Talk to the LLM endpoint: probe it with one request, list its models.
    Llm(cmd::llm::LlmArgs),
    /// Local models run in-process: list the catalogue, pull, add a GGUF file, use, remove.
    Models(cmd::models::ModelsArgs),
    /// MCP servers (connections): list, add, rm, enable, disable, tools, test, import.
    Mcp(cmd::mcp::McpArgs),
    /// Recorded agent runs: list them, show one, replay its events as they were shown.
    Runs(cmd::runs::RunsArgs),
    /// Talk to your coach: one message, or a REPL when none is given.
    Chat(cmd::chat::ChatArgs),
    /// Stored conversations: list them, show one, delete one.
    Conversations(cmd::conversations::ConversationsArgs),
    /// Run scripted scenarios through the agent and score them (non-zero exit on failure).
    Eval(cmd::eval::EvalArgs),
    /// Coaching protocols: list, status, start, later, resume, cancel, reminders, export.
    Protocol(cmd::protocol::ProtocolArgs),
    /// Benchmarks of the whole app path (e.g. `vibe bench agent`).
    Bench(cmd::bench::BenchArgs),
    /// Screen messages for risk (suicide, self-harm, harm to others, abuse, medical emergency).
    Safety(cmd::safety::SafetyArgs),
    /// A mood check-in (1–5), feelings and one line, saved in your journal.
    Checkin(cmd::journal::CheckinArgs),
    /// Your journal: add, list, edit, rm (check-ins and the coach's entries included).
    Journal(cmd::journal::JournalArgs),
    /// Today: your check-ins, streak, today's question, the protocol in progress.
    Today(cmd::today::TodayArgs),
    /// Mood over time, feelings, active days, protocols completed and goals.
    Insights(cmd::insights::InsightsArgs),
    /// What your coach remembers: list, show, edit, forget, export; extract now; on/off.
    Memory(cmd::memory::MemoryArgs),
    /// Backups of the data folder: create, verify, restore (docs/privacy.md).
    Backup(cmd::backup::BackupArgs),
    /// Export everything, readable without VibeLife.
    Export(cmd::backup::ExportArgs),
    /// Erase this data folder's data and its database key (asks for --yes).
    Erase(cmd::backup::EraseArgs),
    /// End-to-end encrypted sync through a folder you sync: setup, join, now, status, devices.
    Sync(cmd::sync::SyncArgs),
}
