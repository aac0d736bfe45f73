//! The Linux sandbox for one script run. Before the script's program starts, its process
//! (a `pre_exec` hook, in the forked child):
//! 1. joins the run's fresh cgroups (`cgroup`) where this process may make them:
//!    `pids` bounds the run's processes (required as root, which `RLIMIT_NPROC` does not
//!    bind), `memory` the memory of the whole process tree and its temporary files;
//! 2. enters new user, mount, PID and IPC namespaces, and a new network namespace (no
//!    interfaces but a loopback that is down) unless the policy allows the network;
//! 3. sets up its view of the file system (`mounts`): every mount read-only, the
//!    temporary folder a size-limited tmpfs, standard streams reopened inside;
//! 4. sets rlimits: processes, address space, CPU seconds, file size, no core files (without
//!    a memory cgroup, the process count and address space are chosen so that together they
//!    stay under the run's memory limit: [`effective`]), and drops every capability;
//! 5. forks: the parent stays behind as a tiny supervisor that closes every descriptor
//!    (so it holds no pipe open) and exits as the script does; the child is PID 1 of the new
//!    namespace, dies with the supervisor (`PR_SET_PDEATHSIG`), restricts itself with
//!    Landlock (read-only: the skill folder and system paths; read-write: the run's temporary
//!    folder; no TCP when the network is off; no signals or abstract sockets outside), marks
//!    every other descriptor close-on-exec, installs the system-call filter
//!    (`filter`) and execs the script.
//!
//! When PID 1 of a namespace ends, the kernel kills every process in it, so nothing the script
//! started (`setsid`, double forks) outlives the run. Only async-signal-safe calls run after
//! the fork; everything else (the Landlock ruleset, the filter, paths, maps) is prepared
//! before. Choosing what may run is `vibe-core`'s (its `run_script` tool); spawning and output are `process`'s.

// The fork/exec hooks and system calls below need `unsafe`; each block says why it holds.
#![allow(unsafe_code)]

use std::ffi::{CStr, CString};
use std::io;
use std::path::Path;
use std::time::Duration;

use landlock::{
    ABI, Access, AccessFs, AccessNet, PathBeneath, PathFd, RestrictionStatus, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};

use seccompiler::BpfProgram;

use super::cgroup::{self, RunCgroups};
use super::filter::syscall_filter;
use super::limits::ScriptLimits;
use super::mounts::{self, MountPlan};
use super::policy::{Places, Policy, system_read_paths};

/// Landlock ABI 3 (Linux 6.2) is the first that also stops truncating files outside.
const MIN_LANDLOCK_ABI: i64 = 3;
/// The rights asked for; the kernel grants what it knows (best effort above the minimum).
const WANTED_ABI: ABI = ABI::V7;

/// Without a memory cgroup, the least address space worth giving each process (a Python
/// interpreter with a few threads fits).
const MIN_PROCESS_MEMORY: u64 = 128 << 20;

/// The limits a run really gets here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Effective {
    /// Processes the run may have at once.
    pub processes: u32,
    /// Address space of each process.
    pub address_space: u64,
    /// `true`: a memory cgroup bounds the whole run (processes and temporary files) to
    /// `ScriptLimits::max_memory_bytes`. `false`: no memory cgroup can be made here, so
    /// `processes` × `address_space` stays within it instead (temporary files apart).
    pub memory_cgroup: bool,
}

/// The limits a run gets on this computer for `limits`.
pub(crate) fn effective(limits: &ScriptLimits) -> Effective {
    if cgroup::bases().memory() {
        return Effective {
            processes: limits.max_processes,
            address_space: limits.max_memory_bytes,
            memory_cgroup: true,
        };
    }
    let fit = (limits.max_memory_bytes / MIN_PROCESS_MEMORY).max(1);
    let processes = u32::try_from(fit).unwrap_or(u32::MAX).min(limits.max_processes).max(1);
    Effective {
        processes,
        address_space: limits.max_memory_bytes / u64::from(processes),
        memory_cgroup: false,
    }
}

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
    if is_root() && !cgroup::bases().pids() {
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
    let places = Places { skill_dir: tmp.path(), tmp_dir: tmp.path(), read: &[], write: &[] };
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

/// Kept for the run: when dropped, kills whatever is left in its cgroups and removes them.
pub(crate) struct Cleanup {
    cgroups: Option<RunCgroups>,
    max_memory: u64,
}

impl Cleanup {
    /// A line for the script's stderr when the kernel stopped the run at a limit.
    pub(crate) fn note(&self) -> Option<String> {
        self.cgroups.as_ref().filter(|c| c.memory_exceeded()).map(|_| {
            format!(
                "[the run went over its memory limit of {} MiB (processes and temporary files \
                 together) and the kernel stopped a process]",
                self.max_memory >> 20
            )
        })
    }
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
    readable.extend(places.read.iter().cloned());
    for path in &readable {
        let access = if path.is_dir() { read } else { read & file };
        created = grant(created, path, access)?;
    }
    created = grant(created, places.tmp_dir, all)?;
    for path in places.write {
        created = grant(created, path, if path.is_dir() { all } else { all & file })?;
    }
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
    cgroup_procs: Vec<CString>,
    mounts: MountPlan,
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
    let effective = effective(limits);
    let bases = cgroup::bases();
    let cgroups = if bases.pids() || bases.memory() {
        Some(RunCgroups::create(effective.processes, limits.max_memory_bytes)?)
    } else {
        None
    };
    let cgroup_procs = cgroups.as_ref().map_or(Ok(Vec::new()), RunCgroups::procs_files)?;
    let cleanup = Cleanup { cgroups, max_memory: limits.max_memory_bytes };
    // SAFETY: getuid/getgid cannot fail.
    let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
    let mut clone_flags =
        libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWIPC;
    if !policy.network {
        clone_flags |= libc::CLONE_NEWNET;
    }
    let mounts = MountPlan::new(places.tmp_dir, places.write, limits.max_temp_bytes, &ruleset)?;
    let mut setup = Setup {
        ruleset: Some(ruleset),
        filter: syscall_filter()?,
        cgroup_procs,
        mounts,
        clone_flags,
        uid_map: format!("{uid} {uid} 1\n").into_bytes(),
        gid_map: format!("{gid} {gid} 1\n").into_bytes(),
        max_processes: u64::from(effective.processes),
        max_memory: effective.address_space,
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
        for procs in &setup.cgroup_procs {
            write_file(procs, b"0")?;
        }
        check(libc::unshare(setup.clone_flags))?;
        write_file(c"/proc/self/setgroups", b"deny")?;
        write_file(c"/proc/self/uid_map", &setup.uid_map)?;
        write_file(c"/proc/self/gid_map", &setup.gid_map)?;
        mounts::enter(&setup.mounts)?;
        mounts::reopen_std_streams()?;
        // After unshare: the count is per namespace, so it bounds this run alone.
        set_limit(libc::RLIMIT_NPROC, setup.max_processes)?;
        set_limit(libc::RLIMIT_AS, setup.max_memory)?;
        set_limit(libc::RLIMIT_CPU, setup.cpu_secs)?;
        set_limit(libc::RLIMIT_FSIZE, setup.max_file)?;
        set_limit(libc::RLIMIT_CORE, 0)?;
        mounts::drop_capabilities()?;
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
        mounts::close_others_at_exec()?;
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
