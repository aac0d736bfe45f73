//! The cgroups of one sandboxed script run (Linux): a fresh cgroup per run that bounds how
//! many processes the whole run has (`pids`) and how much memory its whole process tree and
//! its temporary files use together (`memory`). Works with cgroup v2 and with cgroup v1's
//! `pids` and `memory` hierarchies (this project's CI machines mount v1). A run's cgroup is
//! always made under the app's own cgroup (in v2, under its nearest ancestor whose children
//! get the controller), so no limit placed above the app is escaped.
//!
//! [`bases`] says which controllers this process may use (found once); [`RunCgroups`] makes
//! the run's folders, gives the paths the child writes its pid to, and on drop kills what is
//! left and removes them. Must not: run or confine anything (`linux` does).

#![allow(unsafe_code)] // access(2) and kill(2); each block says why it holds.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

/// Where this process may create child cgroups, per controller.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bases {
    pids: Option<Base>,
    memory: Option<Base>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Base {
    dir: PathBuf,
    v2: bool,
}

impl Bases {
    pub(crate) fn pids(&self) -> bool {
        self.pids.is_some()
    }

    pub(crate) fn memory(&self) -> bool {
        self.memory.is_some()
    }
}

/// The controllers this process may use for runs (looked up once).
pub(crate) fn bases() -> &'static Bases {
    static BASES: OnceLock<Bases> = OnceLock::new();
    BASES.get_or_init(find_bases)
}

fn writable(p: &Path) -> bool {
    CString::new(p.as_os_str().as_bytes()).is_ok_and(|c| {
        // SAFETY: access() only reads the given NUL-terminated path.
        unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
    })
}

/// The cgroup v2 mount: /sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid system.
fn v2_root() -> Option<PathBuf> {
    ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.join("cgroup.controllers").is_file())
}

/// The nearest folder from `own` up to `root` that is writable and whose children get
/// `controller`.
fn v2_base(root: &Path, own: &str, controller: &str) -> Option<Base> {
    let mut rel = PathBuf::from(own.trim_start_matches('/'));
    loop {
        let dir = root.join(&rel);
        let enabled = std::fs::read_to_string(dir.join("cgroup.subtree_control"))
            .is_ok_and(|s| s.split_whitespace().any(|c| c == controller));
        if enabled && dir.is_dir() && writable(&dir) {
            return Some(Base { dir, v2: true });
        }
        if !rel.pop() {
            return None;
        }
    }
}

fn find_bases() -> Bases {
    let mut bases = Bases::default();
    let Ok(text) = std::fs::read_to_string("/proc/self/cgroup") else { return bases };
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let rel = path.trim_start_matches('/');
        if controllers.is_empty() {
            if let Some(root) = v2_root() {
                if bases.pids.is_none() {
                    bases.pids = v2_base(&root, rel, "pids");
                }
                if bases.memory.is_none() {
                    bases.memory = v2_base(&root, rel, "memory");
                }
            }
            continue;
        }
        for controller in controllers.split(',') {
            let slot = match controller {
                "pids" => &mut bases.pids,
                "memory" => &mut bases.memory,
                _ => continue,
            };
            let dir = Path::new("/sys/fs/cgroup").join(controller).join(rel);
            if slot.is_none() && dir.is_dir() && writable(&dir) {
                *slot = Some(Base { dir, v2: false });
            }
        }
    }
    bases
}

/// A file of a run's cgroup, the value written to it, and whether failing to write it is an
/// error (swap limits are missing where swap is not accounted).
type Limit = (&'static str, String, bool);

/// The cgroup folders of one run; dropped when the run is over.
pub(crate) struct RunCgroups {
    dirs: Vec<PathBuf>,
    memory: Option<(PathBuf, bool)>,
}

impl RunCgroups {
    /// Makes the run's cgroups: at most `max_processes` processes where a pids controller is
    /// available, at most `max_memory` bytes (no swap) where a memory controller is.
    pub(crate) fn create(max_processes: u32, max_memory: u64) -> Result<RunCgroups, String> {
        let bases = bases();
        let name = format!("vibe-script-{}", uuid::Uuid::now_v7());
        let mut run = RunCgroups { dirs: Vec::new(), memory: None };
        let mut limits: Vec<(&Base, Vec<Limit>)> = Vec::new();
        let swap_off = |v2: bool| {
            if v2 {
                ("memory.swap.max", "0".to_string(), false)
            } else {
                ("memory.memsw.limit_in_bytes", max_memory.to_string(), false)
            }
        };
        let memory_files = |base: &Base| {
            let limit = if base.v2 { "memory.max" } else { "memory.limit_in_bytes" };
            // The limit first: v1 wants memsw >= limit. Swap files may be missing (no swap
            // accounting): not an error.
            vec![(limit, max_memory.to_string(), true), swap_off(base.v2)]
        };
        match (&bases.pids, &bases.memory) {
            (Some(p), Some(m)) if p == m => {
                let mut files = vec![("pids.max", max_processes.to_string(), true)];
                files.extend(memory_files(m));
                limits.push((p, files));
            }
            (pids, memory) => {
                if let Some(p) = pids {
                    limits.push((p, vec![("pids.max", max_processes.to_string(), true)]));
                }
                if let Some(m) = memory {
                    limits.push((m, memory_files(m)));
                }
            }
        }
        for (base, files) in limits {
            let dir = base.dir.join(&name);
            std::fs::create_dir(&dir)
                .map_err(|e| format!("cannot create the cgroup {}: {e}", dir.display()))?;
            run.dirs.push(dir.clone());
            for (file, value, required) in files {
                if let Err(e) = std::fs::write(dir.join(file), &value)
                    && required
                {
                    return Err(format!("cannot limit the cgroup {}: {file}: {e}", dir.display()));
                }
                if file.starts_with("memory.") {
                    run.memory = Some((dir.clone(), base.v2));
                }
            }
        }
        Ok(run)
    }

    /// The `cgroup.procs` files the child writes its pid to, in order.
    pub(crate) fn procs_files(&self) -> Result<Vec<CString>, String> {
        self.dirs
            .iter()
            .map(|d| CString::new(d.join("cgroup.procs").as_os_str().as_bytes()))
            .collect::<Result<_, _>>()
            .map_err(|_| "a cgroup path contains a NUL byte".to_string())
    }

    /// Whether the kernel killed a process of the run for going over the memory limit.
    pub(crate) fn memory_exceeded(&self) -> bool {
        let Some((dir, v2)) = &self.memory else { return false };
        let file = if *v2 { "memory.events" } else { "memory.oom_control" };
        std::fs::read_to_string(dir.join(file)).is_ok_and(|text| {
            text.lines().any(|l| {
                l.strip_prefix("oom_kill ")
                    .and_then(|n| n.trim().parse::<u64>().ok())
                    .is_some_and(|n| n > 0)
            })
        })
    }
}

impl Drop for RunCgroups {
    fn drop(&mut self) {
        for dir in self.dirs.drain(..).rev() {
            remove(&dir);
        }
    }
}

/// Kills whatever is left in the cgroup at `dir` and removes it.
fn remove(dir: &Path) {
    for _ in 0..100 {
        if let Ok(pids) = std::fs::read_to_string(dir.join("cgroup.procs")) {
            for pid in pids.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                // SAFETY: kill has no memory effects; a pid that is gone gives ESRCH.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        }
        if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    tracing::warn!(cgroup = %dir.display(), "a script's cgroup could not be removed");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_v2_base_is_the_nearest_folder_with_the_controller() {
        let root = tempfile::tempdir().unwrap();
        let own = root.path().join("a/b");
        std::fs::create_dir_all(&own).unwrap();
        std::fs::write(root.path().join("a/cgroup.subtree_control"), "cpu pids\n").unwrap();
        std::fs::write(own.join("cgroup.subtree_control"), "").unwrap();
        let base = v2_base(root.path(), "/a/b", "pids").unwrap();
        assert_eq!(base.dir, root.path().join("a"));
        assert_eq!(v2_base(root.path(), "/a/b", "memory"), None);
    }
}
