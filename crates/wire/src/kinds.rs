//! The closed sets of names that cross crate lines: error kinds, run status, approval source,
//! plan step status, display kinds, safety levels, voice and tool modes and protocol choices. Each is an enum
//! serialised as the snake_case string earlier versions wrote, so old `events.jsonl` files and
//! database rows still read. Plain data only — no logic beyond naming.

use serde::{Deserialize, Serialize};

/// Declares a fieldless enum serialised as the given strings, with `as_str`, `parse`, `ALL`
/// and `Display`. The strings are spelt out (not derived) so a grep finds every kind.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[cfg_attr(test, derive(ts_rs::TS))]
        pub enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The serialised name.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text,)+ }
            }

            /// The value named `text` (its serialised name), if any.
            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

pub(crate) use named_enum;

named_enum! {
    /// What kind of failure an [`crate::ErrorInfo`] reports. Front ends pick their advice by it.
    pub enum ErrorKind {
        // The model endpoint (vibe-llm).
        /// The endpoint rejected the credentials.
        Auth = "auth",
        /// Too many requests; wait and try again.
        RateLimited = "rate_limited",
        /// The model server failed.
        Server = "server",
        /// The model server refused the request.
        BadRequest = "bad_request",
        /// Connecting or reading failed (refused, reset, DNS).
        Network = "network",
        /// A connect, first-byte or idle timeout expired.
        Timeout = "timeout",
        /// The server's answer was not in the expected format.
        Protocol = "protocol",
        /// The stream ended before the server said it was done.
        Truncated = "truncated",
        /// Local model configuration is unusable (settings, base URL, a script file).
        Config = "config",
        // The store and the core.
        /// A request or value was refused; the message names what to change.
        InvalidInput = "invalid_input",
        /// The database was written by a newer VibeLife.
        NewerSchema = "newer_schema",
        /// The backup before a migration failed.
        BackupFailed = "backup_failed",
        /// A schema migration failed.
        MigrationFailed = "migration_failed",
        /// A conversation, run, skill, protocol or file does not exist.
        NotFound = "not_found",
        /// The database file is damaged (empty, truncated, not SQLite, malformed).
        DamagedDatabase = "damaged_database",
        /// Stored JSON could not be read.
        CorruptData = "corrupt_data",
        /// SQLite reported an error (locked too long).
        Database = "database",
        /// The database cannot be written: disk full, read-only, or no permission.
        Storage = "storage",
        /// A filesystem error.
        Io = "io",
        /// A skill could not be loaded.
        Skills = "skills",
        /// A skill's files are invalid.
        InvalidSkill = "invalid_skill",
        /// `compute_chart` was asked for a chart type it does not know.
        UnknownComputeType = "unknown_compute_type",
        /// A failure inside VibeLife (a broken build, a calendar bug).
        Internal = "internal",
        /// The safety screening failed; the turn went on without it.
        Safety = "safety",
        /// A run budget was reached.
        Budget = "budget",
        /// A tool failed.
        ToolFailed = "tool_failed",
        /// A memory extraction answer was unusable; memory was not changed.
        MemoryOutput = "memory_output",
        // The app (vibe-core's App facade).
        /// `settings.json` is unreadable or holds an invalid or unknown setting.
        Settings = "settings",
        /// The OS keychain refused to store, read or remove a secret.
        Keychain = "keychain",
        /// The database key or passphrase does not open the database file (it was not
        /// touched).
        WrongKey = "wrong_key",
        /// The database is encrypted with a passphrase and none was given: ask for it.
        PassphraseNeeded = "passphrase_needed",
        /// The database has no usable key: no keychain, no passphrase, and encryption was not
        /// explicitly turned off.
        NoDatabaseKey = "no_database_key",
        /// Another process has the database open, so it cannot be replaced or removed now.
        InUse = "in_use",
        /// A backup file is damaged, altered, incomplete or not a VibeLife backup.
        InvalidBackup = "invalid_backup",
        // Local models (vibe-models).
        /// A downloaded model's SHA-256 is not its catalogue's; nothing was installed.
        ChecksumMismatch = "checksum_mismatch",
        /// The disk lacks room for a model (before or during a download).
        NoSpace = "no_space",
        /// The person cancelled (a model download).
        Cancelled = "cancelled",
        /// A model is being downloaded, so it cannot be downloaded again or removed now.
        Busy = "busy",
    }
}

named_enum! {
    /// The state of a run row.
    pub enum RunStatus {
        /// Started and not yet closed (or its process died; recovery closes it as `failed`).
        Running = "running",
        /// Closed normally (the answer, or a budget's closing answer).
        Completed = "completed",
        /// Closed by a failure (model, database) or found interrupted.
        Failed = "failed",
        /// Closed because the person cancelled.
        Cancelled = "cancelled",
    }
}

named_enum! {
    /// Who decided an approval request.
    pub enum ApprovalSource {
        /// The person, in a front end.
        User = "user",
        /// The approval policy, without asking (e.g. non-interactive runs deny).
        Policy = "policy",
    }
}

named_enum! {
    /// The status of one step of a plan.
    pub enum PlanStepStatus {
        Pending = "pending",
        InProgress = "in_progress",
        Done = "done",
        Skipped = "skipped",
    }
}

// Not derived: `named_enum!` declares the derives for every kind, and only this one has a default.
#[allow(clippy::derivable_impls)]
impl Default for PlanStepStatus {
    fn default() -> Self {
        Self::Pending
    }
}

named_enum! {
    /// What a `display` event shows.
    pub enum DisplayKind {
        /// A computed chart: `data` is `{skill, chart}`.
        Chart = "chart",
        /// An extraction pass changed memory: `data` counts what it added, merged, replaced
        /// and dropped (docs/memory.md).
        MemoryUpdated = "memory_updated",
    }
}

named_enum! {
    /// How urgent a message screened as risky looks (docs/safety.md).
    pub enum SafetyRisk {
        /// A sign of risk worth a supportive, direct answer and resources.
        Concern = "concern",
        /// Danger now: intent, a plan, an emergency.
        Acute = "acute",
    }
}

named_enum! {
    /// What kind of risk a safety rule detects.
    pub enum SafetyCategory {
        Suicide = "suicide",
        SelfHarm = "self_harm",
        HarmOthers = "harm_others",
        Abuse = "abuse",
        Medical = "medical",
    }
}

named_enum! {
    /// How the coach sounds (a conversation's voice mode, a skill's `voice_modes`).
    pub enum VoiceMode {
        Warm = "warm",
        Direct = "direct",
        Playful = "playful",
    }
}

named_enum! {
    /// How tools reach the model (`llm.tool_mode`, and what a probe recommends).
    pub enum ToolMode {
        /// Choose per preset and model.
        Auto = "auto",
        /// The server's own `tools` / `tool_calls`.
        Native = "native",
        /// Tools described in the prompt; the model answers with one JSON action object.
        Structured = "structured",
    }
}

// Not derived, like `PlanStepStatus`'s.
#[allow(clippy::derivable_impls)]
impl Default for ToolMode {
    fn default() -> Self {
        Self::Auto
    }
}

named_enum! {
    /// The answers a protocol invitation offers.
    pub enum ProtocolChoice {
        /// Start the protocol now.
        Start = "start",
        /// Not now.
        Later = "later",
    }
}

#[cfg(test)]
#[path = "kinds_tests.rs"]
mod tests;
