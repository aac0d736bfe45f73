//! The system-call filter of a sandboxed script run (Linux), compiled with `seccompiler`
//! before the fork and applied last, just before exec (`linux`). It refuses, with
//! `EPERM`:
//! - `socket()` of any family but `AF_INET`/`AF_INET6` (so no `AF_UNIX`: a `connect()` to a
//!   pathname socket such as /run/dbus or /var/run/docker.sock is something Landlock cannot
//!   see; no `AF_VSOCK` to the host or other guests; no netlink, packet, bluetooth…). Whether
//!   the internet families reach anything is the network namespace's and Landlock's business.
//!   `socketpair()` only for `AF_UNIX`: a pair connects only to itself;
//! - io_uring, which could open sockets and files past the filter;
//! - changing mounts (`mount`, `umount2`, `mount_setattr`, `open_tree`, `move_mount`, the
//!   `fs*` mount API, `pivot_root`): the read-only view set up by `mounts` stays.
//!
//! Metadata calls (chmod, chown, utime, xattrs) are not filtered here: a filter cannot see the
//! path a call names, and scripts need them in their temporary folder (`touch`, `cp -p`,
//! `sed -i`, `tar x`). Outside that folder every mount is read-only, so they fail with
//! `EROFS` (`mounts`). Calls of another architecture (x86 32-bit) kill the process;
//! x32 calls are filtered like native ones. Must not: allocate after the fork (it only builds).

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// x32 system calls arrive as x86-64 ones with this bit set in the number.
const X32_SYSCALL_BIT: i64 = 0x4000_0000;

/// Socket families a script may open.
const SOCKET_FAMILIES: [libc::c_int; 2] = [libc::AF_INET, libc::AF_INET6];

/// Calls refused whatever their arguments.
const REFUSED: [i64; 13] = [
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_mount_setattr,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_pivot_root,
];

type Backend = seccompiler::BackendError;

/// A rule matching when argument 0 (a family) is none of `allowed`.
fn family_not_in(allowed: &[libc::c_int]) -> Result<Vec<SeccompRule>, Backend> {
    let conditions = allowed
        .iter()
        .map(|&family| {
            // The family is an `int`: compare the low 32 bits only.
            SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, family as u64)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(vec![SeccompRule::new(conditions)?])
}

/// The filter of a run, ready to apply.
pub(crate) fn syscall_filter() -> Result<BpfProgram, String> {
    let error = |e: seccompiler::Error| format!("cannot build the system-call filter: {e}");
    let backend = |e: Backend| error(e.into());
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(backend)?;
    let mut calls: Vec<(i64, Vec<SeccompRule>)> = vec![
        (libc::SYS_socket, family_not_in(&SOCKET_FAMILIES).map_err(backend)?),
        (libc::SYS_socketpair, family_not_in(&[libc::AF_UNIX]).map_err(backend)?),
    ];
    calls.extend(REFUSED.iter().map(|&call| (call, Vec::new())));
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    for (call, matching) in calls {
        let numbers: &[i64] =
            if cfg!(target_arch = "x86_64") { &[call, call | X32_SYSCALL_BIT] } else { &[call] };
        for &nr in numbers {
            rules.insert(nr, matching.clone());
        }
    }
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(backend)?;
    filter.try_into().map_err(backend)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_compiles_for_this_architecture() {
        let program = syscall_filter().unwrap();
        assert!(!program.is_empty());
    }
}
