//! The script sandbox: running one skill script as a child process, confined and under limits
//! (`process`: spawn, timeout, capped output, the whole run killed at the end), its limits
//! (`limits`), what a run may touch (`policy`), whether this computer can confine it and how a
//! run goes (`confine`), and the confinement per platform (`linux`: Landlock, namespaces, a
//! read-only mount view, cgroups, rlimits, a system-call filter, a supervisor; `macos`: a
//! Seatbelt profile); `server`: one long-lived program with piped standard streams (an MCP
//! server) under the same confinement, with the folders the person granted it. The rules are in
//! docs/tools.md. Which scripts may run, approvals and turning a run into a tool result are
//! `vibe-core`'s (its `run_script` tool); nothing here knows of skills, the store or the agent.
//!
//! This crate holds all of VibeLife's `unsafe` code outside the embedded engine: the system
//! calls between fork and exec (`linux`, `mounts`, `cgroup`, `macos`), each block with the
//! reason it holds. The workspace denies `unsafe_code`; only those files allow it.

mod confine;
mod limits;
mod policy;
mod process;
mod server;

#[cfg(target_os = "linux")]
mod cgroup;
#[cfg(target_os = "linux")]
mod filter;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "linux")]
mod mounts;

pub use confine::support;
pub use limits::{
    DEFAULT_SCRIPT_FILE_BYTES, DEFAULT_SCRIPT_MEMORY_BYTES, DEFAULT_SCRIPT_OUTPUT_BYTES,
    DEFAULT_SCRIPT_PROCESSES, DEFAULT_SCRIPT_TEMP_BYTES, DEFAULT_SCRIPT_TIMEOUT, ScriptLimits,
};
pub use policy::Policy;
pub use process::{Invocation, ScriptRun, run};
pub use server::{ServerInvocation, ServerProcess, spawn_server};
