//! Deciding how a script run goes and confining it: whether this computer can confine scripts
//! ([`support`]), the run's mode ([`Policy::mode`]: confined, unconfined for a trusted skill,
//! or refused), the sentence an approval shows ([`Policy::describe`]), and the hook that
//! confines a command before it starts ([`confine`]) with the guard that cleans up after the
//! run. The confinement itself is per platform: `linux` (Landlock, namespaces, a read-only
//! mount view, cgroups, rlimits, a system-call filter, a supervisor) and `macos` (a Seatbelt
//! profile). Spawning, timeouts and output capture are `process`'s.

use std::sync::OnceLock;

use super::limits::ScriptLimits;
use super::policy::{Places, Policy};

/// Whether scripts can be confined here: `Ok(())`, or why not (cached for the process).
pub fn support() -> Result<(), String> {
    static SUPPORT: OnceLock<Result<(), String>> = OnceLock::new();
    SUPPORT.get_or_init(platform_support).clone()
}

#[cfg(target_os = "linux")]
fn platform_support() -> Result<(), String> {
    super::linux::support()
}

#[cfg(target_os = "macos")]
fn platform_support() -> Result<(), String> {
    super::macos::support()
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
fn platform_support() -> Result<(), String> {
    Err("scripts can only be sandboxed on Linux and macOS".to_string())
}

/// How a run will go, decided before it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mode {
    Confined,
    /// Trusted skill on a computer that cannot confine scripts; the reason why not.
    Unconfined(String),
    /// Untrusted skill on a computer that cannot confine scripts: the run is refused.
    Refused(String),
}

impl Policy {
    pub(crate) fn mode(&self) -> Mode {
        let support = match &self.unsupported {
            Some(why) => Err(why.clone()),
            None => support(),
        };
        match support {
            Ok(()) => Mode::Confined,
            Err(why) if self.trusted => Mode::Unconfined(why),
            Err(why) => Mode::Refused(why),
        }
    }

    /// What the script may touch, for the approval reason.
    pub fn describe(&self, limits: &ScriptLimits) -> String {
        match self.mode() {
            Mode::Confined => format!(
                "sandboxed: it may read only the skill folder and the system's programs and \
                 libraries, write only a temporary folder removed afterwards, {}; {}",
                if self.network {
                    "and use the network (the skill asks for it in tools.yaml)"
                } else {
                    "no network"
                },
                limits_sentence(limits),
            ),
            Mode::Unconfined(why) => format!(
                "UNCONFINED: this computer cannot sandbox scripts ({why}) and the skill is marked \
                 trusted, so the script runs with all your rights: it can read and change any of \
                 your files and use the network; only the {} s time limit applies",
                limits.timeout.as_secs()
            ),
            Mode::Refused(why) => format!(
                "it will be refused: this computer cannot sandbox scripts ({why}); mark the \
                 skill trusted (tools.trusted_skills in settings) to run it unconfined"
            ),
        }
    }
}

/// The limits of a confined run as this computer applies them, for the approval reason.
#[cfg(target_os = "linux")]
fn limits_sentence(limits: &ScriptLimits) -> String {
    let e = super::linux::effective(limits);
    let memory = if e.memory_cgroup {
        format!(
            "at most {} processes and {} MiB of memory for the whole run (temporary files \
             included)",
            e.processes,
            limits.max_memory_bytes >> 20
        )
    } else {
        format!(
            "at most {} processes of {} MiB each ({} MiB in all; this computer gives the app \
             no memory cgroup)",
            e.processes,
            e.address_space >> 20,
            limits.max_memory_bytes >> 20
        )
    };
    format!(
        "{memory}, {} MiB of temporary files, {} MiB per file, {} s; it cannot change the \
         mode, owner, times or attributes of anything outside its temporary folder",
        limits.max_temp_bytes >> 20,
        limits.max_file_bytes >> 20,
        limits.timeout.as_secs()
    )
}

#[cfg(not(target_os = "linux"))]
fn limits_sentence(limits: &ScriptLimits) -> String {
    format!(
        "{} MiB per file, {} s (no per-run limit on processes, memory or temporary files \
         here)",
        limits.max_file_bytes >> 20,
        limits.timeout.as_secs()
    )
}

/// Confines `cmd` (already given its program, arguments, working dir and environment):
/// returns the command to spawn (macOS wraps it in `sandbox-exec`) and a guard to keep until
/// the run and every process it started are gone.
#[cfg(target_os = "linux")]
pub(crate) fn confine(
    cmd: tokio::process::Command,
    places: &Places<'_>,
    policy: &Policy,
    limits: &ScriptLimits,
) -> Result<(tokio::process::Command, Guard), String> {
    super::linux::confine(cmd, places, policy, limits).map(|(c, g)| (c, Guard(Some(g))))
}

#[cfg(target_os = "macos")]
pub(crate) fn confine(
    cmd: tokio::process::Command,
    places: &Places<'_>,
    policy: &Policy,
    limits: &ScriptLimits,
) -> Result<(tokio::process::Command, Guard), String> {
    super::macos::confine(cmd, places, policy, limits).map(|c| (c, Guard(None)))
}

#[cfg(not(any(target_os = "linux", target_os = "macos")))]
pub(crate) fn confine(
    _cmd: tokio::process::Command,
    _places: &Places<'_>,
    _policy: &Policy,
    _limits: &ScriptLimits,
) -> Result<(tokio::process::Command, Guard), String> {
    Err("scripts can only be sandboxed on Linux and macOS".to_string())
}

#[cfg(target_os = "linux")]
type GuardInner = super::linux::Cleanup;
#[cfg(not(target_os = "linux"))]
type GuardInner = ();

/// Kept for the run; when dropped, anything left of the run is killed and cleaned up.
pub(crate) struct Guard(#[allow(dead_code)] Option<GuardInner>);

impl Guard {
    /// Nothing to clean up (an unconfined run).
    pub(crate) fn none() -> Guard {
        Guard(None)
    }

    /// A line for the script's stderr when the run was stopped at a limit (e.g. memory).
    #[cfg(target_os = "linux")]
    pub(crate) fn note(&self) -> Option<String> {
        self.0.as_ref().and_then(super::linux::Cleanup::note)
    }

    #[cfg(not(target_os = "linux"))]
    pub(crate) fn note(&self) -> Option<String> {
        None
    }
}
