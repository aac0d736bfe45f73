//! The limits one script run is under ([`ScriptLimits`]) and their defaults: time, output kept,
//! processes, memory, file and temporary-folder sizes. Values only; `process` enforces the
//! time and output, the platform confinement (`linux`, `macos`) the rest.

use std::time::Duration;

/// How long a script may run unless configured otherwise.
pub const DEFAULT_SCRIPT_TIMEOUT: Duration = Duration::from_secs(30);
/// How much of stdout (and, separately, stderr) is kept unless configured otherwise.
pub const DEFAULT_SCRIPT_OUTPUT_BYTES: usize = 64 * 1024;

/// Processes a sandboxed run may have at once unless configured otherwise.
pub const DEFAULT_SCRIPT_PROCESSES: u32 = 64;
/// Address space of each process of a sandboxed run unless configured otherwise.
pub const DEFAULT_SCRIPT_MEMORY_BYTES: u64 = 1 << 30;
/// Largest file a sandboxed run may write unless configured otherwise.
pub const DEFAULT_SCRIPT_FILE_BYTES: u64 = 64 << 20;
/// Total size of a sandboxed run's temporary folder unless configured otherwise.
pub const DEFAULT_SCRIPT_TEMP_BYTES: u64 = 256 << 20;

/// Limits for one script run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Wall-clock time; also the CPU-seconds limit of each process (plus one).
    pub timeout: Duration,
    /// Bytes kept of stdout and of stderr, each.
    pub max_output_bytes: usize,
    /// Processes the run may have at once (sandboxed runs).
    pub max_processes: u32,
    /// Memory of the whole run, in bytes (sandboxed runs on Linux): its process tree and its
    /// temporary files together where a memory cgroup can be made, else split over the
    /// processes as address space (`linux::effective`). Also each process's address
    /// space.
    pub max_memory_bytes: u64,
    /// Largest file the run may write, in bytes (sandboxed runs).
    pub max_file_bytes: u64,
    /// Everything the run's temporary folder may hold, in bytes (sandboxed runs on Linux).
    pub max_temp_bytes: u64,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        Self {
            timeout: DEFAULT_SCRIPT_TIMEOUT,
            max_output_bytes: DEFAULT_SCRIPT_OUTPUT_BYTES,
            max_processes: DEFAULT_SCRIPT_PROCESSES,
            max_memory_bytes: DEFAULT_SCRIPT_MEMORY_BYTES,
            max_file_bytes: DEFAULT_SCRIPT_FILE_BYTES,
            max_temp_bytes: DEFAULT_SCRIPT_TEMP_BYTES,
        }
    }
}
