//! The `tools` section: limits of skill scripts. Turning it into the sandbox's limits is the
//! core's (`vibe_core::tools`, where the defaults of absent keys live).

use serde::{Deserialize, Serialize};

/// The `tools` section of `settings.json`; an unknown key is refused. 0 or absent: the
/// default.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(default, deny_unknown_fields)]
pub struct ToolsSettings {
    /// Seconds a skill script may run (default 30).
    pub script_timeout_secs: Option<u64>,
    /// Bytes kept of a script's stdout and of its stderr, each (default 65536).
    pub script_output_bytes: Option<usize>,
    /// Processes a sandboxed script run may have at once (default 64).
    pub script_max_processes: Option<u32>,
    /// Memory of a sandboxed run, in MiB (default 1024): its whole process tree and temporary
    /// files where a memory cgroup can be made, else split over its processes.
    pub script_memory_mib: Option<u64>,
    /// Skills whose scripts may run unconfined where this computer cannot sandbox them (the
    /// approval then says so). Empty by default.
    pub trusted_skills: Vec<String>,
}
