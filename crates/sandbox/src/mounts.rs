//! What a sandboxed script run sees of the file system, and the rights it keeps (Linux): the
//! child side, between fork and exec, after `linux` entered the run's user and mount
//! namespaces. In the run's own mount namespace:
//! - every mount is made read-only (and nosuid) at once, `mount_setattr(AT_RECURSIVE)`, so a
//!   change of mode, owner, times or extended attributes of anything outside the run's
//!   temporary folder fails with `EROFS` (Landlock does not cover those calls);
//! - the temporary folder is a fresh tmpfs of a fixed size (and number of files), writable,
//!   gone with the namespace when the run ends: a script cannot fill the disk. Landlock rules
//!   name inodes, and the rule made before the fork names the folder underneath, so the
//!   tmpfs gets its own rule here, on the run's ruleset (not yet enforced);
//! - standard streams that are not pipes (e.g. `/dev/null` opened in the app's namespace,
//!   whose mount is still writable) are reopened on `/dev/null` inside, and every other
//!   descriptor is closed at exec, so no descriptor reaches a writable mount outside;
//! - every capability is dropped (bounding, ambient, effective, permitted, inheritable): the
//!   run cannot undo the read-only view, and as root it has no powers over files it does not
//!   own.
//!
//! Only async-signal-safe system calls run here, on data prepared before the fork
//! ([`MountPlan`]). Must not: allocate, decide policy or touch the app's own namespace.

#![allow(unsafe_code)] // Raw system calls between fork and exec; each block says why it holds.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use landlock::{Access, AccessFs, RulesetCreated};

/// `MOUNT_ATTR_RDONLY` and `MOUNT_ATTR_NOSUID` of `<linux/mount.h>`.
const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;

/// `struct mount_attr` of `<linux/mount.h>` (size version 0).
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// `_LINUX_CAPABILITY_VERSION_3`: two 32-bit words per set.
const CAPABILITY_VERSION_3: u32 = 0x2008_0522;

#[repr(C)]
struct CapHeader {
    version: u32,
    pid: libc::c_int,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct CapData {
    effective: u32,
    permitted: u32,
    inheritable: u32,
}

/// `LANDLOCK_RULE_PATH_BENEATH` and `struct landlock_path_beneath_attr` (packed).
const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// Everything the child needs for its mount view, prepared before the fork.
pub(crate) struct MountPlan {
    tmp_dir: CString,
    /// Folders granted for writing: bound onto themselves and made writable again.
    write: Vec<CString>,
    tmpfs_options: CString,
    /// The run's Landlock ruleset (a second descriptor of it).
    ruleset: OwnedFd,
    /// The file rights of Landlock ABI 3, the least this sandbox runs with, so always a subset
    /// of what the ruleset handles (newer file rights only concern device ioctls, and the
    /// tmpfs has no devices).
    tmp_rights: u64,
}

/// Files (and folders) a run's temporary folder may hold.
const TEMP_FILES: u64 = 16_384;

impl MountPlan {
    /// A view in which only `tmp_dir` is writable, as a tmpfs of `max_bytes`, to be granted
    /// in `ruleset`.
    pub(crate) fn new(
        tmp_dir: &Path,
        write: &[std::path::PathBuf],
        max_bytes: u64,
        ruleset: &RulesetCreated,
    ) -> Result<MountPlan, String> {
        let ruleset = ruleset
            .try_clone()
            .map_err(|e| format!("cannot share the Landlock ruleset: {e}"))
            .and_then(|r| {
                Option::<OwnedFd>::from(r).ok_or_else(|| "Landlock is not enforced".to_string())
            })?;
        let tmp_dir = CString::new(tmp_dir.as_os_str().as_bytes())
            .map_err(|_| format!("the temporary folder {} has a NUL byte", tmp_dir.display()))?;
        let write = write
            .iter()
            .map(|p| {
                CString::new(p.as_os_str().as_bytes())
                    .map_err(|_| format!("the folder {} has a NUL byte", p.display()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let options = format!("size={max_bytes},nr_inodes={TEMP_FILES},mode=0700");
        let tmpfs_options = CString::new(options).map_err(|_| "bad tmpfs options".to_string())?;
        let tmp_rights = AccessFs::from_all(landlock::ABI::V3).bits();
        Ok(MountPlan { tmp_dir, write, tmpfs_options, ruleset, tmp_rights })
    }
}

fn check(ret: libc::c_long) -> io::Result<()> {
    if ret == 0 { Ok(()) } else { Err(io::Error::last_os_error()) }
}

/// Makes every mount read-only (but the folders granted for writing: each bound onto itself,
/// before the tmpfs so that a granted parent cannot hide it, and made writable again) and puts
/// the tmpfs on the temporary folder. Needs
/// `CAP_SYS_ADMIN` in the user namespace owning the current mount namespace.
///
/// # Safety
/// Between fork and exec, after `unshare(CLONE_NEWUSER | CLONE_NEWNS)` and the id maps.
pub(crate) unsafe fn enter(plan: &MountPlan) -> io::Result<()> {
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount(2) and mount_setattr(2) on NUL-terminated strings and a struct that live
    // across the calls; they change only this run's mount namespace.
    unsafe {
        // Nothing done here propagates anywhere, nor anything from outside in.
        check(libc::c_long::from(libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        )))?;
        check(libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ))?;
        let writable =
            MountAttr { attr_set: 0, attr_clr: MOUNT_ATTR_RDONLY, propagation: 0, userns_fd: 0 };
        for dir in &plan.write {
            check(libc::c_long::from(libc::mount(
                dir.as_ptr(),
                dir.as_ptr(),
                std::ptr::null(),
                libc::MS_BIND | libc::MS_REC,
                std::ptr::null(),
            )))?;
            check(libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                dir.as_ptr(),
                libc::AT_RECURSIVE as libc::c_uint,
                &writable as *const MountAttr,
                std::mem::size_of::<MountAttr>(),
            ))?;
        }
        check(libc::c_long::from(libc::mount(
            c"tmpfs".as_ptr(),
            plan.tmp_dir.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            plan.tmpfs_options.as_ptr().cast(),
        )))?;
        let dir =
            libc::open(plan.tmp_dir.as_ptr(), libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC);
        if dir < 0 {
            return Err(io::Error::last_os_error());
        }
        let rule = PathBeneathAttr { allowed_access: plan.tmp_rights, parent_fd: dir };
        let added = check(libc::syscall(
            libc::SYS_landlock_add_rule,
            plan.ruleset.as_raw_fd(),
            LANDLOCK_RULE_PATH_BENEATH,
            &rule as *const PathBeneathAttr,
            0u32,
        ));
        libc::close(dir);
        added
    }
}

/// Reopens standard streams that are not pipes or sockets on `/dev/null` as seen inside.
///
/// # Safety
/// Between fork and exec, after [`enter`].
pub(crate) unsafe fn reopen_std_streams() -> io::Result<()> {
    // SAFETY: fstat/open/dup2/close on descriptor numbers and a static path.
    unsafe {
        for fd in 0..3 {
            let mut st: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut st) == 0 {
                let kind = st.st_mode & libc::S_IFMT;
                if kind == libc::S_IFIFO || kind == libc::S_IFSOCK {
                    continue;
                }
            }
            let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC);
            if null < 0 {
                return Err(io::Error::last_os_error());
            }
            let r = libc::dup2(null, fd);
            libc::close(null);
            if r < 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// Marks every descriptor from 3 up close-on-exec.
///
/// # Safety
/// Between fork and exec.
pub(crate) unsafe fn close_others_at_exec() -> io::Result<()> {
    // SAFETY: close_range(2) with CLOSE_RANGE_CLOEXEC only sets a flag on descriptors.
    check(unsafe {
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, libc::CLOSE_RANGE_CLOEXEC)
    })
}

/// Drops every capability: the bounding set (so an exec as root regains nothing), the
/// ambient set, then the effective, permitted and inheritable sets.
///
/// # Safety
/// Between fork and exec, after [`enter`] (which needs `CAP_SYS_ADMIN`).
pub(crate) unsafe fn drop_capabilities() -> io::Result<()> {
    // prctl is variadic: pass every argument as the kernel's unsigned long.
    let zero: libc::c_ulong = 0;
    // SAFETY: prctl and capset on integers and structs that live across the calls.
    unsafe {
        for cap in 0..64u32 {
            if libc::prctl(libc::PR_CAPBSET_DROP, libc::c_ulong::from(cap), zero, zero, zero) != 0 {
                // EINVAL: past the last capability this kernel knows.
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINVAL) {
                    break;
                }
                return Err(io::Error::last_os_error());
            }
        }
        check(libc::c_long::from(libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL as libc::c_ulong,
            zero,
            zero,
            zero,
        )))?;
        let header = CapHeader { version: CAPABILITY_VERSION_3, pid: 0 };
        let data = [CapData { effective: 0, permitted: 0, inheritable: 0 }; 2];
        check(libc::syscall(libc::SYS_capset, &header as *const CapHeader, data.as_ptr()))
    }
}
