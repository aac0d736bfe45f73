//! Limits on a sandboxed run as a whole, with real scripts: the memory its children hold at
//! once, the size of its temporary folder, and the socket families it may open.

#![cfg(target_os = "linux")]

use serde_json::json;
use vibe_agent::tools::ToolRegistry;
use vibe_sandbox::ScriptLimits;

use super::Fixture;
use super::sandbox::require_sandbox;

/// Forks six children that each fill `argv[1]` MiB and then wait; prints how many held their
/// memory at the same time (a child the kernel stopped, or whose allocation failed, does not
/// count), then lets them go; "holding N" each time the count grows. The children ask to be
/// the kernel's first choice at the memory limit (`oom_score_adj`, where the sandbox lets them).
const TREE_PY: &str = r#"
import os, select, sys, time
mib = int(sys.argv[1])
r, w = os.pipe()
hold_r, hold_w = os.pipe()
kids = []
for _ in range(6):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.close(r); os.close(hold_w)
        # The kernel picks whom to stop at the limit: a child, never the parent that counts.
        try:
            with open('/proc/self/oom_score_adj', 'w') as f:
                f.write('1000')
        except OSError:
            pass
        try:
            b = b'x' * (mib << 20)
        except MemoryError:
            os._exit(3)
        os.write(w, f"{os.getpid()}\n".encode())
        os.read(hold_r, 1)
        os._exit(0)
    kids.append(pid)
os.close(w); os.close(hold_r)
held, dead, buf = set(), set(), b''
deadline = time.monotonic() + 60
def reap():
    for pid in kids:
        if pid not in dead and os.waitpid(pid, os.WNOHANG)[0]:
            dead.add(pid)
most = 0
while len(held | dead) < len(kids) and time.monotonic() < deadline:
    if select.select([r], [], [], 0.1)[0]:
        buf += os.read(r, 4096)
        held |= {int(x) for x in buf.split()}
    reap()
    if len(held - dead) > most:
        most = len(held - dead)
        print('holding', most, flush=True)
reap()
print('held', len(held - dead), 'of', len(kids), flush=True)
os.close(hold_w)
"#;

const FILL_SH: &str = "for i in 1 2 3 4; do\n  head -c 4194304 /dev/zero > \"$TMPDIR/f$i\" || { echo \"stopped at $i\"; exit 0; }\ndone\necho wrote all\n";

const FAMILIES_PY: &str = r#"
import socket
for name, kind in [('AF_VSOCK', socket.SOCK_STREAM), ('AF_NETLINK', socket.SOCK_RAW),
                   ('AF_PACKET', socket.SOCK_DGRAM), ('AF_UNIX', socket.SOCK_STREAM),
                   ('AF_INET', socket.SOCK_STREAM), ('AF_INET6', socket.SOCK_STREAM)]:
    try:
        socket.socket(getattr(socket, name), kind).close()
        print(name, 'opened')
    except OSError as e:
        print(name, 'refused', e.errno)
"#;

fn fixture(limits: ScriptLimits) -> Fixture {
    let f = Fixture::with_tools(ToolRegistry::with_limits(limits));
    f.add_skill(
        "boxed",
        "",
        &[
            ("scripts/tree.py", TREE_PY),
            ("scripts/fill.sh", FILL_SH),
            ("scripts/families.py", FAMILIES_PY),
        ],
    );
    f
}

async fn run(f: &Fixture, script: &str, args: &[&str]) -> serde_json::Value {
    f.call(Some("boxed"), "run_script", json!({"script": script, "args": args})).await.result
}

#[tokio::test]
async fn the_memory_limit_holds_for_the_whole_process_tree() {
    require_sandbox();
    let limits = ScriptLimits { max_memory_bytes: 256 << 20, ..ScriptLimits::default() };
    let f = fixture(limits);
    let out = run(&f, "tree.py", &["100"]).await;
    let text = out["stdout"].as_str().unwrap_or_default();
    eprintln!("{out}");
    // The most children holding their 100 MiB at once, as the parent saw it ("holding N" as
    // the count grew, "held N" at the end). At the limit the kernel may stop the parent too;
    // then the count printed before stands, and the run must say the limit was reached.
    let counts: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("holding ").or_else(|| l.strip_prefix("held ")))
        .filter_map(|t| t.split_whitespace().next()?.parse().ok())
        .collect();
    let stopped = out["stderr"].as_str().unwrap_or_default().contains("memory limit of 256 MiB");
    assert!(!counts.is_empty() || stopped, "no count and no limit reached: {out}");
    let held = counts.into_iter().max().unwrap_or(0);
    assert!(held * 100 <= 256, "{held} children held 100 MiB each under a 256 MiB limit: {out}");
    // Where a memory cgroup bounds the run, the kernel stopped a child and the run says so.
    let tools = ToolRegistry::with_limits(limits);
    let reason =
        tools.get("run_script").unwrap().needs_approval(&json!({"script": "tree.py"})).unwrap();
    if reason.contains("for the whole run") {
        let stderr = out["stderr"].as_str().unwrap_or_default();
        assert!(stderr.contains("memory limit of 256 MiB"), "{out}");
    } else {
        assert!(reason.contains("256 MiB in all"), "{reason}");
    }
}

#[tokio::test]
async fn the_temporary_folder_is_limited_in_total() {
    require_sandbox();
    let limits = ScriptLimits {
        max_temp_bytes: 8 << 20,
        max_file_bytes: 16 << 20,
        ..ScriptLimits::default()
    };
    let f = fixture(limits);
    let out = run(&f, "fill.sh", &[]).await;
    let text = out["stdout"].as_str().unwrap_or_default();
    // 4 MiB files: the first fits, the third cannot.
    assert!(
        text.starts_with("stopped at 2") || text.starts_with("stopped at 3"),
        "16 MiB went into an 8 MiB temporary folder: {out}"
    );
    assert!(out["stderr"].as_str().unwrap_or_default().contains("No space left"), "{out}");
}

#[tokio::test]
async fn only_internet_sockets_can_be_opened() {
    require_sandbox();
    let f = fixture(ScriptLimits::default());
    let out = run(&f, "families.py", &[]).await;
    let text = out["stdout"].as_str().unwrap_or_default();
    for family in ["AF_VSOCK", "AF_NETLINK", "AF_PACKET", "AF_UNIX"] {
        assert!(text.contains(&format!("{family} refused")), "{family} was not refused: {out}");
    }
    for family in ["AF_INET", "AF_INET6"] {
        assert!(text.contains(&format!("{family} opened")), "{family} was refused: {out}");
    }
}
