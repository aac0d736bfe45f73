//! What one script run may touch: the person's and the skill's choices ([`Policy`]), the run's
//! folders ([`Places`]) and the system folders every confined run may read
//! ([`system_read_paths`]). Data only: deciding how a run goes and confining it is
//! `confine`'s, per platform `linux`'s and `macos`'s; spawning is `process`'s; which scripts
//! may run is `vibe-agent`'s (its `run_script` tool).

use std::path::{Path, PathBuf};

/// What one script run may do beyond the fixed rules (read the skill folder and the system's
/// programs, write its own temporary folder).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// The skill declares `network: true` in tools.yaml: the run keeps network access (the
    /// approval says so).
    pub network: bool,
    /// The person marked the skill trusted (`tools.trusted_skills`): where scripts cannot be
    /// confined, it runs unconfined instead of being refused.
    pub trusted: bool,
    /// Treat this computer as one that cannot confine scripts, for this reason, whatever
    /// [`support`] says (`vibe_core`'s `ToolRegistry::without_sandbox`:
    /// how tests and hosts meet the refused and unconfined modes on a computer that has a
    /// sandbox). Never set from settings.
    pub unsupported: Option<String>,
}

/// Where a confined run lives.
pub(crate) struct Places<'a> {
    /// The skill folder (read-only, also the working directory).
    pub skill_dir: &'a Path,
    /// The run's temporary folder (read-write, removed afterwards).
    pub tmp_dir: &'a Path,
    /// More folders (or files) the person let the program read (a server's grant).
    pub read: &'a [PathBuf],
    /// Folders the person let the program write (a server's grant); readable too.
    pub write: &'a [PathBuf],
}

/// Folders a confined script may read on every Unix (only those that exist are used).
pub(crate) fn system_read_paths(network: bool) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = [
        "/usr",
        "/bin",
        "/sbin",
        "/lib",
        "/lib32",
        "/lib64",
        "/libx32",
        "/nix/store",
        "/opt/homebrew",
        "/System",
        "/Library/Frameworks",
        "/etc/ld.so.cache",
        "/etc/ld.so.conf",
        "/etc/ld.so.conf.d",
        "/etc/localtime",
        "/etc/alternatives",
        "/etc/nsswitch.conf",
        "/etc/passwd",
        "/etc/group",
        "/etc/mime.types",
        "/dev/urandom",
        "/dev/random",
        "/dev/zero",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    if network {
        for p in
            ["/etc/resolv.conf", "/etc/hosts", "/etc/gai.conf", "/etc/ssl", "/etc/ca-certificates"]
        {
            paths.push(PathBuf::from(p));
        }
    }
    // /etc/python3.x holds sitecustomize files some distributions load at start-up.
    if let Ok(entries) = std::fs::read_dir("/etc") {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("python3") {
                paths.push(e.path());
            }
        }
    }
    paths.retain(|p| p.exists());
    paths
}
