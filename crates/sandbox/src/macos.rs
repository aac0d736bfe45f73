//! The macOS sandbox for one script run: the script runs under `sandbox-exec` with a Seatbelt
//! profile giving the same rules as on Linux (read-only: the skill folder and system paths;
//! read-write: the run's temporary folder; no network unless the policy allows it), plus
//! rlimits (CPU seconds, file size, no core files) set before exec. macOS has no per-run
//! process namespace: the run's process group is killed at the end (`process`).
//! NOT TESTED: this project's machines run Linux only; it compiles only on macOS.

// The fork/exec hooks and system calls below need `unsafe`; each block says why it holds.
#![allow(unsafe_code)]

use std::path::Path;

use super::limits::ScriptLimits;
use super::policy::{Places, Policy, system_read_paths};

const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

pub(crate) fn support() -> Result<(), String> {
    if Path::new(SANDBOX_EXEC).exists() {
        Ok(())
    } else {
        Err(format!("{SANDBOX_EXEC} is missing"))
    }
}

/// A Seatbelt string literal.
fn quoted(path: &Path) -> String {
    let text = path.to_string_lossy();
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The profile for one run.
pub(crate) fn profile(places: &Places<'_>, policy: &Policy) -> String {
    let canonical = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let mut readable: Vec<String> = system_read_paths(policy.network)
        .iter()
        .map(|p| format!("(subpath {})", quoted(&canonical(p))))
        .collect();
    readable.push(format!("(subpath {})", quoted(&canonical(places.skill_dir))));
    for p in places.read.iter().chain(places.write) {
        readable.push(format!("(subpath {})", quoted(&canonical(p))));
    }
    let writable: String =
        places.write.iter().map(|p| format!(" (subpath {})", quoted(&canonical(p)))).collect();
    for p in ["/private/etc", "/private/var/db/timezone", "/usr/share", "/Library/Apple"] {
        readable.push(format!("(subpath \"{p}\")"));
    }
    let tmp = quoted(&canonical(places.tmp_dir));
    let network = if policy.network { "(allow network*)\n(allow system-socket)\n" } else { "" };
    format!(
        "(version 1)\n\
         (deny default)\n\
         (allow process-fork)\n\
         (allow process-exec)\n\
         (allow signal (target same-sandbox))\n\
         (allow sysctl-read)\n\
         (allow mach-lookup (global-name \"com.apple.system.opendirectoryd.libinfo\"))\n\
         (allow file-read-metadata)\n\
         (allow file-read* {readable})\n\
         (allow file-read* file-write* (subpath {tmp}){writable} (literal \"/dev/null\") (literal \"/dev/dtracehelper\"))\n\
         {network}",
        readable = readable.join(" "),
    )
}

/// `sandbox-exec -p <profile> <program> <args…>` with the command's dir and environment.
pub(crate) fn confine(
    cmd: tokio::process::Command,
    places: &Places<'_>,
    policy: &Policy,
    limits: &ScriptLimits,
) -> Result<tokio::process::Command, String> {
    let std_cmd = cmd.as_std();
    let mut wrapped = tokio::process::Command::new(SANDBOX_EXEC);
    wrapped.arg("-p").arg(profile(places, policy)).arg(std_cmd.get_program());
    wrapped.args(std_cmd.get_args());
    wrapped.env_clear();
    for (key, value) in std_cmd.get_envs() {
        if let Some(value) = value {
            wrapped.env(key, value);
        }
    }
    if let Some(dir) = std_cmd.get_current_dir() {
        wrapped.current_dir(dir);
    }
    let cpu = limits.timeout.as_secs().saturating_add(1);
    let file = limits.max_file_bytes;
    // SAFETY: setrlimit is async-signal-safe and reads only the structs built here.
    unsafe {
        wrapped.pre_exec(move || {
            for (resource, value) in
                [(libc::RLIMIT_CPU, cpu), (libc::RLIMIT_FSIZE, file), (libc::RLIMIT_CORE, 0)]
            {
                let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
                if libc::setrlimit(resource, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    Ok(wrapped)
}
