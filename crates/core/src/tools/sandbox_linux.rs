//! The Linux sandbox for one script run. Before the script's program starts, its process
//! (a `pre_exec` hook, in the forked child):
//! 1. joins a fresh pids cgroup when the app runs as root (root is exempt from
//!    `RLIMIT_NPROC`; for everyone else the limit below, counted in the run's own user
//!    namespace, bounds the run's processes);
//! 2. enters new user, PID and IPC namespaces, and a new network namespace (no interfaces but
//!    a loopback that is down) unless the policy allows the network;
//! 3. sets rlimits: processes, address space, CPU seconds, file size, no core files;
//! 4. forks: the parent stays behind as a tiny supervisor that closes every descriptor
//!    (so it holds no pipe open) and exits as the script does; the child is PID 1 of the new
//!    namespace, dies with the supervisor (`PR_SET_PDEATHSIG`), restricts itself with
//!    Landlock (read-only: the skill folder and system paths; read-write: the run's temporary
//!    folder; no TCP when the network is off; no signals or abstract sockets outside), installs
//!    a seccomp filter ([`syscall_filter`]: no unix-domain sockets, so no `connect()` to a
//!    pathname socket such as /run/dbus or /var/run/docker.sock, which Landlock cannot see;
//!    no io_uring, which could open sockets past the filter) and execs the script.
//!
//! When PID 1 of a namespace ends, the kernel kills every process in it, so nothing the script
//! started (`setsid`, double forks) outlives the run. Only async-signal-safe calls run after
//! the fork; everything else (the Landlock ruleset, paths, maps) is prepared before.
//! Choosing what may run is `script`'s; spawning and output are `process`'s.

// The fork/exec hooks and system calls below need `unsafe`; each block says why it holds.
#![allow(unsafe_code)]

use std::collections::BTreeMap;
use std::ffi::{CStr, CString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use landlock::{
    ABI, Access, AccessFs, AccessNet, PathBeneath, PathFd, RestrictionStatus, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use super::process::ScriptLimits;
use super::sandbox::{Places, Policy, system_read_paths};

/// Landlock ABI 3 (Linux 6.2) is the first that also stops truncating files outside.
const MIN_LANDLOCK_ABI: i64 = 3;
/// The rights asked for; the kernel grants what it knows (best effort above the minimum).
const WANTED_ABI: ABI = ABI::V7;

/// The system-call filter of a run, compiled before the fork: `socket(AF_UNIX, ...)` and the
/// io_uring calls fail with `EACCES`; everything else passes (Landlock, namespaces and rlimits
/// do the rest). `socketpair` stays allowed: a pair connects only to itself. Calls of another
/// architecture (x86 32-bit) kill the process; x32 calls are filtered like native ones.
fn syscall_filter() -> Result<BpfProgram, String> {
    let error = |e: seccompiler::Error| format!("cannot build the system-call filter: {e}");
    let backend = |e: seccompiler::BackendError| error(e.into());
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(backend)?;
    let unix_domain = || -> Result<Vec<SeccompRule>, seccompiler::BackendError> {
        let domain = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Eq,
            libc::AF_UNIX as u64,
        )?;
        Ok(vec![SeccompRule::new(vec![domain])?])
    };
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    let mut native = vec![(libc::SYS_socket, true)];
    for call in [libc::SYS_io_uring_setup, libc::SYS_io_uring_enter, libc::SYS_io_uring_register] {
        native.push((call, false));
    }
    for (call, only_unix) in native {
        let numbers: &[i64] =
            if cfg!(target_arch = "x86_64") { &[call, call | X32_SYSCALL_BIT] } else { &[call] };
        for &nr in numbers {
            rules.insert(nr, if only_unix { unix_domain().map_err(backend)? } else { Vec::new() });
        }
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )
    .map_err(backend)?;
    filter.try_into().map_err(backend)
}

/// x32 system calls arrive as x86-64 ones with this bit set in the number.
const X32_SYSCALL_BIT: i64 = 0x4000_0000;

/// Whether the sandbox works here: Landlock new enough, namespaces allowed, and (as root) a
/// pids cgroup to bound processes. Runs `true` in the sandbox once to be sure.
pub(crate) fn support() -> Result<(), String> {
    // SAFETY: landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) only returns
    // the ABI version (or -1); it creates nothing.
    let abi = unsafe {
        libc::syscall(libc::SYS_landlock_create_ruleset, std::ptr::null::<u8>(), 0usize, 1u32)
    };
    if abi < 1 {
        return Err("the kernel has no Landlock enabled (Linux 6.2 or later needed)".to_string());
    }
    if abi < MIN_LANDLOCK_ABI {
        return Err(format!(
            "the kernel's Landlock is version {abi}; version {MIN_LANDLOCK_ABI} (Linux 6.2) or later is needed"
        ));
    }
    if is_root() && pids_cgroup_base().is_none() {
        return Err("the app runs as root, which process limits do not bind, and no pids cgroup \
                    is writable to bound a script's processes"
            .to_string());
    }
    probe()
}

/// Runs `true` confined and waits for it.
fn probe() -> Result<(), String> {
    let tmp = tempfile::Builder::new()
        .prefix("vibe-sandbox-probe-")
        .tempdir()
        .map_err(|e| format!("cannot create a temporary folder: {e}"))?;
    let mut cmd = tokio::process::Command::new("true");
    cmd.current_dir(tmp.path())
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let places = Places { skill_dir: tmp.path(), tmp_dir: tmp.path() };
    let limits = ScriptLimits { timeout: Duration::from_secs(5), ..ScriptLimits::default() };
    let (cmd, _cleanup) = confine(cmd, &places, &Policy::default(), &limits)?;
    let mut std_cmd = cmd.into_std();
    let status =
        std_cmd.status().map_err(|e| format!("a confined test process could not start: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("a confined test process failed ({status})"))
    }
}

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// Cleans up after a run: kills whatever is left in its cgroup and removes the cgroup.
pub(crate) struct Cleanup {
    cgroup: Option<PathBuf>,
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        let Some(dir) = self.cgroup.take() else { return };
        for _ in 0..100 {
            if let Ok(pids) = std::fs::read_to_string(dir.join("cgroup.procs")) {
                for pid in pids.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
                    // SAFETY: kill has no memory effects; a pid that is gone gives ESRCH.
                    unsafe { libc::kill(pid, libc::SIGKILL) };
                }
            }
            if std::fs::remove_dir(&dir).is_ok() || !dir.exists() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        tracing::warn!(cgroup = %dir.display(), "a script's cgroup could not be removed");
    }
}

/// The pids cgroup folder this process may create children in: cgroup v1's `pids`
/// hierarchy, or a cgroup v2 folder whose children get the pids controller.
fn pids_cgroup_base() -> Option<PathBuf> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let writable = |p: &Path| {
        CString::new(p.as_os_str().as_bytes()).is_ok_and(|c| {
            // SAFETY: access() only reads the given NUL-terminated path.
            unsafe { libc::access(c.as_ptr(), libc::W_OK) == 0 }
        })
    };
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let rel = path.trim_start_matches('/');
        let base = if controllers.split(',').any(|c| c == "pids") {
            Path::new("/sys/fs/cgroup/pids").join(rel)
        } else if controllers.is_empty() {
            let base = Path::new("/sys/fs/cgroup").join(rel);
            let enabled = std::fs::read_to_string(base.join("cgroup.subtree_control"))
                .is_ok_and(|s| s.split_whitespace().any(|c| c == "pids"));
            if !enabled {
                continue;
            }
            base
        } else {
            continue;
        };
        if base.is_dir() && writable(&base) {
            return Some(base);
        }
    }
    None
}

/// A fresh pids cgroup for one run, limited to `max` processes.
fn make_cgroup(max: u32) -> Result<PathBuf, String> {
    let base = pids_cgroup_base().ok_or("no writable pids cgroup")?;
    let dir = base.join(format!("vibe-script-{}", uuid::Uuid::now_v7()));
    std::fs::create_dir(&dir)
        .map_err(|e| format!("cannot create the cgroup {}: {e}", dir.display()))?;
    if let Err(e) = std::fs::write(dir.join("pids.max"), max.to_string()) {
        let _ = std::fs::remove_dir(&dir);
        return Err(format!("cannot limit the cgroup {}: {e}", dir.display()));
    }
    Ok(dir)
}

fn landlock_error(e: impl std::fmt::Display) -> String {
    format!("cannot build the Landlock rules: {e}")
}

/// The Landlock rules of a run, ready to apply.
fn ruleset(places: &Places<'_>, policy: &Policy) -> Result<RulesetCreated, String> {
    let all = AccessFs::from_all(WANTED_ABI);
    let read = AccessFs::from_read(WANTED_ABI);
    let file = AccessFs::from_file(WANTED_ABI);
    let mut rules = Ruleset::default().handle_access(all).map_err(landlock_error)?;
    if !policy.network {
        rules = rules.handle_access(AccessNet::from_all(WANTED_ABI)).map_err(landlock_error)?;
    }
    let mut created = rules
        .scope(Scope::from_all(WANTED_ABI))
        .map_err(landlock_error)?
        .create()
        .map_err(landlock_error)?;
    let grant = |created: RulesetCreated, path: &Path, access| {
        let fd = PathFd::new(path)
            .map_err(|e| format!("cannot open {} for the sandbox: {e}", path.display()))?;
        created.add_rule(PathBeneath::new(fd, access)).map_err(landlock_error)
    };
    let mut readable = system_read_paths(policy.network);
    readable.push(places.skill_dir.to_path_buf());
    for path in &readable {
        let access = if path.is_dir() { read } else { read & file };
        created = grant(created, path, access)?;
    }
    created = grant(created, places.tmp_dir, all)?;
    created = grant(
        created,
        Path::new("/dev/null"),
        (AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate) & file,
    )?;
    Ok(created)
}

/// Everything the child needs after the fork, prepared before it.
struct Setup {
    ruleset: Option<RulesetCreated>,
    filter: BpfProgram,
    cgroup_procs: Option<CString>,
    clone_flags: libc::c_int,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
    max_processes: u64,
    max_memory: u64,
    cpu_secs: u64,
    max_file: u64,
}

/// Adds the sandbox to `cmd`; the returned [`Cleanup`] must live until the run is over.
pub(crate) fn confine(
    mut cmd: tokio::process::Command,
    places: &Places<'_>,
    policy: &Policy,
    limits: &ScriptLimits,
) -> Result<(tokio::process::Command, Cleanup), String> {
    let ruleset = ruleset(places, policy)?;
    let cgroup = if is_root() { Some(make_cgroup(limits.max_processes)?) } else { None };
    let cleanup = Cleanup { cgroup: cgroup.clone() };
    let cgroup_procs = cgroup
        .map(|dir| CString::new(dir.join("cgroup.procs").as_os_str().as_bytes()))
        .transpose()
        .map_err(|_| "the cgroup path contains a NUL byte".to_string())?;
    // SAFETY: getuid/getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let mut clone_flags = libc::CLONE_NEWUSER | libc::CLONE_NEWPID | libc::CLONE_NEWIPC;
    if !policy.network {
        clone_flags |= libc::CLONE_NEWNET;
    }
    let mut setup = Setup {
        ruleset: Some(ruleset),
        filter: syscall_filter()?,
        cgroup_procs,
        clone_flags,
        uid_map: format!("{uid} {uid} 1\n").into_bytes(),
        gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        max_processes: u64::from(limits.max_processes),
        max_memory: limits.max_memory_bytes,
        cpu_secs: limits.timeout.as_secs().saturating_add(1),
        max_file: limits.max_file_bytes,
    };
    // SAFETY: the hook runs in the forked child before exec and only makes
    // async-signal-safe system calls on data prepared above (no allocation, no locks).
    unsafe {
        cmd.pre_exec(move || enter(&mut setup));
    }
    Ok((cmd, cleanup))
}

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret == 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
}

/// Writes `data` to the file at `path` (open, write, close).
unsafe fn write_file(path: &CStr, data: &[u8]) -> io::Result<()> {
    // SAFETY: plain system calls on a NUL-terminated path and a live buffer.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let n = libc::write(fd, data.as_ptr().cast(), data.len());
        let result =
            if n == data.len() as isize { Ok(()) } else { Err(io::Error::last_os_error()) };
        libc::close(fd);
        result
    }
}

unsafe fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let limit = libc::rlimit { rlim_cur: value, rlim_max: value };
    // SAFETY: setrlimit reads the given struct.
    check(unsafe { libc::setrlimit(resource, &limit) })
}

/// The child side, between fork and exec.
fn enter(setup: &mut Setup) -> io::Result<()> {
    // SAFETY: async-signal-safe system calls only; see the module header for the order.
    unsafe {
        if let Some(procs) = &setup.cgroup_procs {
            write_file(procs, b"0")?;
        }
        check(libc::unshare(setup.clone_flags))?;
        write_file(c"/proc/self/setgroups", b"deny")?;
        write_file(c"/proc/self/uid_map", &setup.uid_map)?;
        write_file(c"/proc/self/gid_map", &setup.gid_map)?;
        // After unshare: the count is per namespace, so it bounds this run alone.
        set_limit(libc::RLIMIT_NPROC, setup.max_processes)?;
        set_limit(libc::RLIMIT_AS, setup.max_memory)?;
        set_limit(libc::RLIMIT_CPU, setup.cpu_secs)?;
        set_limit(libc::RLIMIT_FSIZE, setup.max_file)?;
        set_limit(libc::RLIMIT_CORE, 0)?;
        let pid = libc::fork();
        if pid < 0 {
            return Err(io::Error::last_os_error());
        }
        if pid > 0 {
            supervise(pid);
        }
        // PID 1 of the new namespace: die with the supervisor, then lock down.
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
        let ruleset =
            setup.ruleset.take().ok_or_else(|| io::Error::from_raw_os_error(libc::EINVAL))?;
        match ruleset.restrict_self() {
            Ok(RestrictionStatus { ruleset: RulesetStatus::NotEnforced, .. }) | Err(_) => {
                return Err(io::Error::from_raw_os_error(libc::EPERM));
            }
            Ok(_) => {}
        }
        // Last: the filter must not stop the calls above. `apply_filter` only calls prctl
        // and seccomp on the program built before the fork.
        seccompiler::apply_filter(&setup.filter)
            .map_err(|_| io::Error::from_raw_os_error(libc::EPERM))
    }
}

/// The supervisor: holds nothing open, waits for the script (PID 1 of the namespace) and
/// ends as it did, so the caller sees the script's exit code or signal.
fn supervise(child: libc::pid_t) -> ! {
    // SAFETY: async-signal-safe system calls only; this process never returns to Rust code
    // that could touch state shared with the parent.
    unsafe {
        libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32);
        let mut status: libc::c_int = 0;
        loop {
            let r = libc::waitpid(child, &mut status, 0);
            if r == child {
                break;
            }
            if r < 0 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
                libc::_exit(127);
            }
        }
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        let sig = if libc::WIFSIGNALED(status) { libc::WTERMSIG(status) } else { libc::SIGKILL };
        libc::signal(sig, libc::SIG_DFL);
        libc::kill(libc::getpid(), sig);
        libc::_exit(128 + sig)
    }
}
