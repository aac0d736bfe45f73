//! A sandboxed script cannot change the metadata of anything outside its temporary folder:
//! every chmod, chown, utime and xattr call (by path, by `O_PATH` descriptor, on its standard
//! input) is tried on canaries outside (the data folder, a 0600 secret, `vibe.db`), as the
//! user the tests run as and, when that is root, again as `nobody`; the canaries' mode,
//! owner, times and extended attributes stay as they were, while the same calls work inside
//! the temporary folder.

#![cfg(target_os = "linux")]
#![allow(unsafe_code)] // listxattr/getxattr/setxattr on the canaries.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::Path;

use serde_json::json;
use vibe_agent::tools::ToolRegistry;
use vibe_sandbox::ScriptLimits;

use super::Fixture;
use super::sandbox::require_sandbox;

/// Tries every metadata call on each path given, then on its standard input, then inside
/// `$TMPDIR`; prints one `<where> <call>: ok|<errno>` line per call.
const META_PY: &str = r#"
import ctypes, errno, os, platform, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, AT_EMPTY_PATH = -100, 0x1000
NR = {
    'x86_64': dict(chmod=90, fchmod=91, chown=92, fchown=93, lchown=94, utime=132, utimes=235,
                   fchownat=260, futimesat=261, fchmodat=268, utimensat=280, fchmodat2=452,
                   setxattr=188, lsetxattr=189, fsetxattr=190, removexattr=197,
                   lremovexattr=198, fremovexattr=199, setxattrat=463, removexattrat=466),
    'aarch64': dict(fchmod=52, fchmodat=53, fchownat=54, fchown=55, utimensat=88,
                    fchmodat2=452, setxattr=5, lsetxattr=6, fsetxattr=7, removexattr=14,
                    lremovexattr=15, fremovexattr=16, setxattrat=463, removexattrat=466),
}[platform.machine()]

class XattrArgs(ctypes.Structure):
    _fields_ = [('value', ctypes.c_uint64), ('size', ctypes.c_uint32), ('flags', ctypes.c_uint32)]

value = ctypes.create_string_buffer(b'x')
xargs = XattrArgs(ctypes.cast(value, ctypes.c_void_p).value, 1, 0)

def call(where, name, *args):
    if name not in NR:
        return
    r = libc.syscall(NR[name], *args)
    e = ctypes.get_errno()
    print(f"{where} {name}: {'ok' if r == 0 else errno.errorcode.get(e, e)}", flush=True)

def attempt(where, p, mode, uid, gid):
    p = p.encode()
    try:
        fd = os.open(p, os.O_PATH)
    except OSError as e:
        fd = -1
        print(f"{where} open-path: {errno.errorcode.get(e.errno)}")
    name = b'user.vibe'
    call(where, 'chmod', p, mode)
    call(where, 'fchmodat', AT_FDCWD, p, mode)
    call(where, 'fchmodat2', AT_FDCWD, p, mode, 0)
    call(where, 'fchmodat2', fd, b'', mode, AT_EMPTY_PATH)
    call(where, 'fchmod', fd, mode)
    call(where, 'chown', p, uid, gid)
    call(where, 'lchown', p, uid, gid)
    call(where, 'fchownat', AT_FDCWD, p, uid, gid, 0)
    call(where, 'fchownat', fd, b'', uid, gid, AT_EMPTY_PATH)
    call(where, 'fchown', fd, uid, gid)
    call(where, 'utime', p, None)
    call(where, 'utimes', p, None)
    call(where, 'futimesat', AT_FDCWD, p, None)
    call(where, 'utimensat', AT_FDCWD, p, None, 0)
    call(where, 'utimensat', fd, None, None, 0)
    call(where, 'setxattr', p, name, value, 1, 0)
    call(where, 'lsetxattr', p, name, value, 1, 0)
    call(where, 'fsetxattr', fd, name, value, 1, 0)
    call(where, 'setxattrat', AT_FDCWD, p, 0, name, ctypes.byref(xargs), ctypes.sizeof(xargs))
    call(where, 'setxattrat', fd, b'', AT_EMPTY_PATH, name, ctypes.byref(xargs), ctypes.sizeof(xargs))
    keep = name if where == 'inside' else b'user.keep'
    call(where, 'removexattr', p, keep)
    call(where, 'lremovexattr', p, keep)
    call(where, 'fremovexattr', fd, keep)
    call(where, 'removexattrat', AT_FDCWD, p, 0, keep)

root = os.getuid() == 0
uid, gid = (65534, 65534) if root else (-1, os.getgid())
print(f"uid {os.getuid()}", flush=True)
for p in sys.argv[1:]:
    attempt('outside', p, 0o4777, uid, gid)
# Standard input: /dev/null; the same mode and owner, so only its change time could move.
call('stdin', 'fchmod', 0, 0o666)
call('stdin', 'fchown', 0, 0 if root else -1, 0 if root else -1)
inside = os.path.join(os.environ['TMPDIR'], 'inside')
open(inside, 'w').close()
for name, args in [('chmod', (inside.encode(), 0o755)),
                   ('chown', (inside.encode(), -1, os.getgid())),
                   ('utimensat', (AT_FDCWD, inside.encode(), None, 0)),
                   ('setxattr', (inside.encode(), b'user.vibe', value, 1, 0))]:
    call('inside', name, *args)
"#;

/// What a canary looks like: mode, owner, group, modification and change times, and its
/// extended attributes.
#[derive(Debug, PartialEq, Eq)]
struct Snapshot {
    mode: u32,
    uid: u32,
    gid: u32,
    mtime: (i64, i64),
    ctime: (i64, i64),
    xattrs: Vec<(Vec<u8>, Vec<u8>)>,
}

fn snapshot(path: &Path) -> Snapshot {
    let m = std::fs::symlink_metadata(path).unwrap();
    Snapshot {
        mode: m.mode(),
        uid: m.uid(),
        gid: m.gid(),
        mtime: (m.mtime(), m.mtime_nsec()),
        ctime: (m.ctime(), m.ctime_nsec()),
        xattrs: xattrs(path),
    }
}

fn xattrs(path: &Path) -> Vec<(Vec<u8>, Vec<u8>)> {
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    let mut names = vec![0u8; 4096];
    // SAFETY: the buffers live across the calls and their lengths are given.
    let n = unsafe { libc::llistxattr(c.as_ptr(), names.as_mut_ptr().cast(), names.len()) };
    if n <= 0 {
        return Vec::new();
    }
    names.truncate(n as usize);
    let mut out = Vec::new();
    for name in names.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let cname = CString::new(name).unwrap();
        let mut value = vec![0u8; 4096];
        // SAFETY: as above.
        let len = unsafe {
            libc::lgetxattr(c.as_ptr(), cname.as_ptr(), value.as_mut_ptr().cast(), value.len())
        };
        value.truncate(len.max(0) as usize);
        out.push((name.to_vec(), value));
    }
    out.sort();
    out
}

fn set_xattr(path: &Path, name: &str, value: &[u8]) {
    let c = CString::new(path.as_os_str().as_bytes()).unwrap();
    let n = CString::new(name).unwrap();
    // SAFETY: NUL-terminated strings and a live buffer with its length.
    let r =
        unsafe { libc::setxattr(c.as_ptr(), n.as_ptr(), value.as_ptr().cast(), value.len(), 0) };
    assert_eq!(
        r,
        0,
        "cannot set {name} on {}: {}",
        path.display(),
        std::io::Error::last_os_error()
    );
}

/// Runs the metadata script on canaries outside its folder, as the current user, and checks
/// every call failed outside, worked inside and changed nothing.
async fn metadata_stays_unchanged() {
    require_sandbox();
    let f = Fixture::with_tools(ToolRegistry::with_limits(ScriptLimits::default()));
    f.add_skill("boxed", "", &[("scripts/meta.py", META_PY)]);
    let data = f.dir.path().to_path_buf();
    let secret = data.join("secret.txt");
    std::fs::write(&secret, "the person's data\n").unwrap();
    std::fs::set_permissions(&secret, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let db = data.join("vibe.db");
    for canary in [&data, &secret, &db] {
        set_xattr(canary, "user.keep", b"kept");
    }
    let canaries = [data.clone(), secret.clone(), db.clone()];
    let before: Vec<Snapshot> = canaries.iter().map(|p| snapshot(p)).collect();
    let null_before = snapshot(Path::new("/dev/null"));
    let args: Vec<String> = canaries.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let out = f.call(Some("boxed"), "run_script", json!({"script": "meta.py", "args": args})).await;
    let text = out.result["stdout"].as_str().unwrap_or_default().to_string();
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    eprintln!("metadata canaries checked as uid {uid}:\n{text}");
    assert!(text.starts_with(&format!("uid {uid}\n")), "{}", out.result);
    let outside: Vec<&str> = text.lines().filter(|l| l.starts_with("outside ")).collect();
    assert!(outside.len() >= 3 * 15, "too few calls were tried: {}", out.result);
    let done: Vec<&str> = text
        .lines()
        .filter(|l| (l.starts_with("outside ") || l.starts_with("stdin ")) && l.ends_with(": ok"))
        .collect();
    assert!(done.is_empty(), "calls changed something outside: {done:?}\n{}", out.result);
    let inside: Vec<&str> = text.lines().filter(|l| l.starts_with("inside ")).collect();
    assert_eq!(inside.len(), 4, "{}", out.result);
    assert!(inside.iter().all(|l| l.ends_with(": ok")), "the temporary folder: {inside:?}");
    for (path, before) in canaries.iter().zip(&before) {
        assert_eq!(&snapshot(path), before, "{} changed", path.display());
    }
    assert_eq!(snapshot(Path::new("/dev/null")), null_before, "/dev/null changed");
}

#[tokio::test]
async fn metadata_outside_the_temporary_folder_stays_unchanged() {
    metadata_stays_unchanged().await;
}

/// The same check as an unprivileged user: when the tests run as root, this test binary runs
/// the test above again as `nobody` (no setuid program needed); otherwise the tests already
/// run unprivileged and the check runs here directly.
#[tokio::test]
async fn metadata_stays_unchanged_for_an_unprivileged_user() {
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        metadata_stays_unchanged().await;
        return;
    }
    let name = "tools::sandbox_metadata::metadata_outside_the_temporary_folder_stays_unchanged";
    // The test binary usually lies under root's home (the cargo target folder), which `nobody`
    // cannot enter: run a copy from a world-readable folder instead.
    let copy_dir = tempfile::Builder::new().prefix("vibe-nobody-").tempdir_in("/tmp").unwrap();
    std::fs::set_permissions(copy_dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = copy_dir.path().join("tests");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = std::process::Command::new(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .uid(65534)
        .gid(65534)
        .current_dir("/")
        .env("TMPDIR", "/tmp")
        .env("HOME", "/tmp")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "as nobody: {stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "the test did not run as nobody: {stdout}\n{stderr}");
    assert!(
        stderr.contains("checked as uid 65534") || stdout.contains("checked as uid 65534"),
        "{stdout}\n{stderr}"
    );
}
