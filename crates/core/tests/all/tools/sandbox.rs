//! The script sandbox with real scripts: reading and writing outside the allowed folders,
//! the network (off unless the skill's tools.yaml asks for it), a `setsid` child that would
//! outlive the run, a fork storm bounded by the process limit, memory and file-size limits.
//! Never skipped: a computer where the sandbox does not work fails these tests.

#![cfg(target_os = "linux")]

use std::io::Read;
use std::net::TcpListener;
use std::os::linux::net::SocketAddrExt as _;
use std::os::unix::net::{SocketAddr, UnixListener};
use std::time::Duration;

use serde_json::json;
use vibe_agent::tools::{ToolRegistry, ToolsSettings};
use vibe_sandbox::ScriptLimits;

use super::Fixture;
use super::scripts::{find_sleep, marker};

/// Fails the test where scripts cannot be sandboxed: these tests never skip (the kernels this
/// project builds on have Landlock, user and network namespaces).
pub(crate) fn require_sandbox() {
    if let Err(why) = vibe_sandbox::support() {
        panic!("the script sandbox does not work here: {why}");
    }
}

const SCRIPTS: &[(&str, &str)] = &[
    ("scripts/cat.sh", "cat \"$1\"\n"),
    ("scripts/write.sh", "echo written > \"$1\" && echo ok\n"),
    ("scripts/tmp.sh", "echo scratch > \"$TMPDIR/a\" && cat \"$TMPDIR/a\"\n"),
    (
        "scripts/connect.py",
        "import socket, sys\n\
         try:\n    s = socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=3)\n    s.sendall(b'hi')\n    print('connected')\n\
         except OSError as e:\n    print('refused', e)\n",
    ),
    ("scripts/escape.sh", "setsid sleep \"$1\" &\necho started\n"),
    // A double fork: the subshell exits at once, orphaning a `setsid` grandchild.
    ("scripts/double.sh", "( (setsid sleep \"$1\" &) & )\necho started\n"),
    (
        "scripts/storm.py",
        "import os, time\n\
         n = 0\n\
         try:\n    while n < 500:\n        pid = os.fork()\n        if pid == 0:\n            time.sleep(60)\n            os._exit(0)\n        n += 1\n    print('unbounded', n)\n\
         except OSError as e:\n    print('stopped', n, e.errno)\n",
    ),
    (
        "scripts/hog.py",
        "try:\n    b = bytearray(512 * 1024 * 1024)\n    print('allocated', len(b))\nexcept MemoryError:\n    print('memory refused')\n",
    ),
    ("scripts/big.sh", "head -c 3000000 /dev/zero > \"$TMPDIR/big\"; echo exit=$?\n"),
    (
        "scripts/unix.py",
        "import socket, sys\n\
         addr = sys.argv[1]\n\
         if addr.startswith('@'):\n    addr = '\\0' + addr[1:]\n\
         try:\n    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)\n    s.settimeout(3)\n    s.connect(addr)\n    s.sendall(b'hi')\n    print('connected')\n\
         except OSError as e:\n    print('refused', e)\n",
    ),
    ("data.txt", "inside the skill\n"),
];

fn fixture(limits: ScriptLimits) -> (Fixture, std::path::PathBuf) {
    let f = Fixture::with_tools(ToolRegistry::with_limits(limits));
    let dir = f.add_skill("boxed", "", SCRIPTS);
    (f, dir)
}

async fn run(f: &Fixture, script: &str, args: &[&str]) -> serde_json::Value {
    f.call(Some("boxed"), "run_script", json!({"script": script, "args": args})).await.result
}

fn stdout(result: &serde_json::Value) -> &str {
    result["stdout"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn a_script_reads_its_skill_folder_but_nothing_else() {
    require_sandbox();
    let (f, dir) = fixture(ScriptLimits::default());
    let inside = run(&f, "cat.sh", &[dir.join("data.txt").to_str().unwrap()]).await;
    assert_eq!(stdout(&inside), "inside the skill\n", "{inside}");
    let secret = f.dir.path().join("secret.txt");
    std::fs::write(&secret, "the person's data\n").unwrap();
    let db = f.dir.path().join("vibe.db");
    for path in [secret.as_path(), db.as_path(), std::path::Path::new("/etc/shadow")] {
        let out = run(&f, "cat.sh", &[path.to_str().unwrap()]).await;
        assert_eq!(out["status"], "failed", "{} was readable: {out}", path.display());
        assert!(!stdout(&out).contains("the person's data"), "{out}");
        assert!(out["stderr"].as_str().unwrap().contains("ermission denied"), "{out}");
    }
}

#[tokio::test]
async fn a_script_writes_only_its_temporary_folder() {
    require_sandbox();
    let (f, dir) = fixture(ScriptLimits::default());
    let scratch = run(&f, "tmp.sh", &[]).await;
    assert_eq!(stdout(&scratch), "scratch\n", "{scratch}");
    for target in [f.dir.path().join("planted.txt"), dir.join("planted.txt")] {
        let out = run(&f, "write.sh", &[target.to_str().unwrap()]).await;
        assert_eq!(out["status"], "failed", "{out}");
        assert!(!target.exists(), "the script wrote {}", target.display());
    }
    let skill_md = std::fs::read_to_string(dir.join("SKILL.md")).unwrap();
    let out = run(&f, "write.sh", &[dir.join("SKILL.md").to_str().unwrap()]).await;
    assert_eq!(out["status"], "failed", "{out}");
    assert_eq!(std::fs::read_to_string(dir.join("SKILL.md")).unwrap(), skill_md);
}

/// A listener on loopback that counts what connects (in the background, bounded).
fn listener() -> (u16, std::thread::JoinHandle<bool>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = std::thread::spawn(move || {
        for _ in 0..200 {
            if let Ok((mut conn, _)) = listener.accept() {
                let mut buf = [0u8; 2];
                conn.set_nonblocking(false).unwrap();
                conn.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                return conn.read_exact(&mut buf).is_ok();
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        false
    });
    (port, handle)
}

#[tokio::test]
async fn the_network_is_off_unless_the_skill_asks_for_it() {
    require_sandbox();
    let (f, _dir) = fixture(ScriptLimits::default());
    let (port, reached) = listener();
    let out = run(&f, "connect.py", &[&port.to_string()]).await;
    assert!(stdout(&out).starts_with("refused"), "{out}");
    assert!(!reached.join().unwrap(), "a sandboxed script reached a local port");

    // tools.yaml `network: true`: the approval says so, and the script reaches the port.
    let tools_yaml = "network: true\ntools:\n  - run_script\n";
    f.add_skill("online", "", &[("tools.yaml", tools_yaml), SCRIPTS[3]]);
    let set = f.tools.tools_for(&f.skills, Some("online"));
    let tool = set.get("run_script").unwrap();
    let reason = tool.needs_approval(&json!({"script": "connect.py"})).unwrap();
    assert!(reason.contains("use the network"), "{reason}");
    let (port, reached) = listener();
    let out = f
        .call_offered(
            "online",
            "run_script",
            json!({"script": "connect.py", "args": [port.to_string()]}),
        )
        .await;
    assert_eq!(stdout(&out.result), "connected\n", "{}", out.result);
    assert!(reached.join().unwrap());
}

/// A unix socket listener (at a path, or abstract for `@name`) that reports whether anything
/// connected and sent its two bytes (in the background, bounded).
fn unix_listener(addr: &str) -> std::thread::JoinHandle<bool> {
    let listener = match addr.strip_prefix('@') {
        Some(name) => {
            UnixListener::bind_addr(&SocketAddr::from_abstract_name(name).unwrap()).unwrap()
        }
        None => UnixListener::bind(addr).unwrap(),
    };
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        for _ in 0..200 {
            if let Ok((mut conn, _)) = listener.accept() {
                let mut buf = [0u8; 2];
                conn.set_nonblocking(false).unwrap();
                conn.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                return conn.read_exact(&mut buf).is_ok();
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        false
    })
}

#[tokio::test]
async fn a_script_cannot_connect_to_a_unix_socket_outside_its_folder() {
    require_sandbox();
    let (f, _dir) = fixture(ScriptLimits::default());
    let online = "network: true\ntools:\n  - run_script\n";
    let unix_py = SCRIPTS.iter().find(|(p, _)| *p == "scripts/unix.py").unwrap();
    f.add_skill("online", "", &[("tools.yaml", online), *unix_py]);
    let unique = marker();
    let path = f.dir.path().join("outside.sock");
    let targets = [path.to_str().unwrap().to_string(), format!("@vibe-test-{unique}")];
    // Without the network and with it (no network namespace then): refused alike.
    for skill in ["boxed", "online"] {
        for target in &targets {
            let _ = std::fs::remove_file(&path);
            let reached = unix_listener(target);
            let args = json!({"script": "unix.py", "args": [target]});
            let out = match skill {
                "boxed" => f.call(Some("boxed"), "run_script", args).await.result,
                _ => f.call_offered("online", "run_script", args).await.result,
            };
            assert!(stdout(&out).starts_with("refused"), "{skill} reached {target}: {out}");
            assert!(!reached.join().unwrap(), "{skill}: a sandboxed script reached {target}");
        }
    }
}

#[tokio::test]
async fn a_setsid_child_dies_with_the_run_and_the_output_arrives() {
    require_sandbox();
    let (f, _dir) = fixture(ScriptLimits::default());
    let marker = marker();
    let out = run(&f, "escape.sh", &[&marker]).await;
    assert_eq!(out["status"], "success", "{out}");
    assert!(stdout(&out).starts_with("started\n"), "{out}");
    // The run is over: nothing it started is left, setsid or not.
    assert_eq!(find_sleep(&marker), None, "a setsid child outlived the run");
}

#[tokio::test]
async fn a_double_forked_descendant_dies_with_the_run() {
    require_sandbox();
    let (f, _dir) = fixture(ScriptLimits::default());
    let marker = marker();
    let out = run(&f, "double.sh", &[&marker]).await;
    assert_eq!(out["status"], "success", "{out}");
    assert_eq!(stdout(&out), "started\n", "the output arrives whole, with no marker: {out}");
    assert_eq!(find_sleep(&marker), None, "a double-forked grandchild outlived the run");
}

#[tokio::test]
async fn a_fork_storm_is_bounded_and_cleaned_up() {
    require_sandbox();
    let (f, _dir) = fixture(ScriptLimits { max_processes: 16, ..ScriptLimits::default() });
    let out = run(&f, "storm.py", &[]).await;
    let text = stdout(&out);
    assert!(text.starts_with("stopped "), "the fork storm was not stopped: {out}");
    let forked: u32 = text.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(forked < 16, "{forked} processes were forked under a limit of 16");
    let leftovers = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| c.windows(9).any(|w| w == b"storm.py\0"))
        })
        .count();
    assert_eq!(leftovers, 0, "forked processes outlived the run");
}

#[tokio::test]
async fn memory_and_file_size_are_limited() {
    require_sandbox();
    let limits = ScriptLimits {
        max_memory_bytes: 256 << 20,
        max_file_bytes: 1 << 20,
        ..ScriptLimits::default()
    };
    let (f, _dir) = fixture(limits);
    let out = run(&f, "hog.py", &[]).await;
    assert_eq!(stdout(&out), "memory refused\n", "{out}");
    let out = run(&f, "big.sh", &[]).await;
    assert!(!stdout(&out).contains("exit=0"), "a 3 MB file was written under a 1 MiB limit: {out}");
}

#[test]
fn the_approval_says_what_the_script_may_touch() {
    require_sandbox();
    let settings = ToolsSettings { script_max_processes: Some(8), ..ToolsSettings::default() };
    let tools = ToolRegistry::from_settings(&settings);
    let reason =
        tools.get("run_script").unwrap().needs_approval(&json!({"script": "a.py"})).unwrap();
    for part in [
        "sandboxed",
        "read only the skill folder",
        "write only a temporary folder",
        "no network",
        "at most 8 processes",
    ] {
        assert!(reason.contains(part), "{part:?} missing from: {reason}");
    }
}
