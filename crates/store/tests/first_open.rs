//! Stores opened while SQLite is being set up in a fresh process. SQLite sets SQLCipher up
//! outside its own lock, so before `sqlite_ready` a thread could key its file before SQLCipher
//! was ready and the open failed ("An error occurred with PRAGMA key or rekey"; CI hit it about
//! once in thirty runs). Each round runs in a new process of this test binary, where SQLite has
//! never been set up: threads released together, a few microseconds apart, either open a plain
//! in-memory connection (any other SQLite user in the process, which may be the one setting
//! SQLite up) or an encrypted store. Without the fix a few rounds in a hundred failed.

use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use vibe_store::{DbKey, Store};

const CHILD: &str = "VIBE_STORE_FIRST_OPEN_CHILD";
const THREADS: usize = 16;
const ROUNDS: usize = 200;
/// How much later each thread starts than the one before it.
const STAGGER: Duration = Duration::from_micros(1);

#[test]
fn stores_opened_together_in_a_fresh_process_all_open() {
    if let Ok(dir) = std::env::var(CHILD) {
        return open_together(std::path::Path::new(&dir));
    }
    let exe = std::env::current_exe().unwrap();
    for round in 0..ROUNDS {
        let dir = tempfile::tempdir().unwrap();
        let out = std::process::Command::new(&exe)
            .args(["--exact", "first_open::stores_opened_together_in_a_fresh_process_all_open"])
            .args(["--nocapture", "--test-threads", "1"])
            .env(CHILD, dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "round {round}: a store failed to open\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let ran = String::from_utf8_lossy(&out.stdout);
        assert!(ran.contains("1 passed"), "round {round}: the child ran no test\n{ran}");
    }
}

/// The child: `THREADS` threads, released at once and started `STAGGER` apart; even ones open
/// a plain in-memory connection, odd ones a new encrypted store.
fn open_together(dir: &std::path::Path) {
    let barrier = Arc::new(Barrier::new(THREADS));
    let threads: Vec<_> = (0..THREADS)
        .map(|i| {
            let barrier = Arc::clone(&barrier);
            let path = dir.join(format!("vibe-{i}.db"));
            std::thread::spawn(move || {
                let key = DbKey::from_hex(&format!("{i:02x}").repeat(32)).unwrap();
                barrier.wait();
                let start = Instant::now() + STAGGER * u32::try_from(i).unwrap();
                while Instant::now() < start {
                    std::hint::spin_loop();
                }
                if i % 2 == 0 {
                    rusqlite::Connection::open_in_memory()
                        .map(drop)
                        .map_err(|e| format!("{i}: {e}"))
                } else {
                    Store::open_with_key(&path, &key).map(drop).map_err(|e| format!("{i}: {e}"))
                }
            })
        })
        .collect();
    let failed: Vec<String> = threads.into_iter().filter_map(|t| t.join().unwrap().err()).collect();
    assert!(failed.is_empty(), "stores that did not open: {failed:?}");
}
