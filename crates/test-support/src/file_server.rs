//! A file server for download tests: real HTTP/1.1 on 127.0.0.1 serving byte blobs by path,
//! with what model hubs do (HTTP Range → 206 with `Content-Range`, a range past the end → 416,
//! redirects to another path) and what goes wrong (a server that ignores Range and answers
//! 200, a connection cut after some bytes, a connection that stalls after some bytes and
//! stays open). Every request is recorded. Like [`FakeServer`]
//! it runs on its own thread and runtime, so sync (CLI) and async tests use it alike.
//!
//! [`FakeServer`]: crate::FakeServer

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::io::AsyncWriteExt as _;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use crate::server::{RecordedRequest, read_request};

/// Bytes per write, so a client sees the body arrive in several reads.
const WRITE_CHUNK: usize = 16 * 1024;

#[derive(Default)]
struct State {
    files: HashMap<String, Arc<Vec<u8>>>,
    redirects: HashMap<String, String>,
    ignore_ranges: bool,
    /// Close the next file response after this many body bytes.
    cut_next: Option<u64>,
    /// Stop sending the next file response after this many body bytes and keep it open.
    stall_next: Option<u64>,
    requests: Vec<RecordedRequest>,
}

/// A running file server; it stops when dropped.
pub struct FileServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FileServer {
    /// Start on a free port of 127.0.0.1.
    pub fn start() -> Self {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap_or_else(|e| panic!("file server: bind: {e}"));
        std_listener.set_nonblocking(true).unwrap_or_else(|e| panic!("file server: {e}"));
        let addr = std_listener.local_addr().unwrap_or_else(|e| panic!("file server: {e}"));
        let state = Arc::new(Mutex::new(State::default()));
        let (stop, stopped) = oneshot::channel();
        let thread_state = state.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap_or_else(|e| panic!("file server: runtime: {e}"));
            rt.block_on(async move {
                let listener = TcpListener::from_std(std_listener)
                    .unwrap_or_else(|e| panic!("file server: {e}"));
                tokio::select! {
                    _ = stopped => {}
                    () = accept_loop(listener, thread_state) => {}
                }
            });
        });
        Self { addr, state, stop: Some(stop), thread: Some(thread) }
    }

    /// The URL of `path` (`/files/m.gguf` → `http://127.0.0.1:PORT/files/m.gguf`).
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Serve `bytes` at `path`.
    pub fn serve(&self, path: &str, bytes: Vec<u8>) -> &Self {
        self.lock().files.insert(path.to_string(), Arc::new(bytes));
        self
    }

    /// Answer `from` with a 302 to `to` (a path on this server or an absolute URL).
    pub fn redirect(&self, from: &str, to: &str) -> &Self {
        self.lock().redirects.insert(from.to_string(), to.to_string());
        self
    }

    /// Ignore `Range` headers: always answer 200 with the whole file.
    pub fn ignore_ranges(&self, ignore: bool) -> &Self {
        self.lock().ignore_ranges = ignore;
        self
    }

    /// Close the next file response after `bytes` bytes of its body (the headers announce the
    /// whole length, as a real cut connection would).
    pub fn cut_next_after(&self, bytes: u64) -> &Self {
        self.lock().cut_next = Some(bytes);
        self
    }

    /// Send only `bytes` bytes of the next file response's body, then keep the connection
    /// open without sending more (until the server stops): a download stays in flight for as
    /// long as a test needs, e.g. to cancel it.
    pub fn stall_next_after(&self, bytes: u64) -> &Self {
        self.lock().stall_next = Some(bytes);
        self
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for FileServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

async fn accept_loop(listener: TcpListener, state: Arc<Mutex<State>>) {
    while let Ok((socket, _)) = listener.accept().await {
        let state = state.clone();
        tokio::spawn(async move {
            let _ = socket.set_nodelay(true);
            serve(socket, state).await;
        });
    }
}

/// How a file response ends.
#[derive(Clone, Copy)]
enum End {
    Whole,
    CutAfter(u64),
    StallAfter(u64),
}

/// What to answer one request with.
enum Answer {
    Redirect(String),
    NotFound,
    Unsatisfiable(u64),
    Body { status: u16, headers: Vec<(String, String)>, bytes: Arc<Vec<u8>>, from: usize, end: End },
}

async fn serve(mut socket: TcpStream, state: Arc<Mutex<State>>) {
    let Some(request) = read_request(&mut socket).await else { return };
    let answer = {
        let mut s = state.lock().unwrap_or_else(|p| p.into_inner());
        s.requests.push(request.clone());
        answer(&mut s, &request)
    };
    let _ = write_answer(&mut socket, answer).await;
    let _ = socket.shutdown().await;
}

fn answer(s: &mut State, request: &RecordedRequest) -> Answer {
    let path = request.path.split('?').next().unwrap_or_default();
    if let Some(to) = s.redirects.get(path) {
        return Answer::Redirect(to.clone());
    }
    let Some(bytes) = s.files.get(path).cloned() else { return Answer::NotFound };
    let len = bytes.len() as u64;
    let range_start = request
        .header("range")
        .filter(|_| !s.ignore_ranges)
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|n| n.parse::<u64>().ok());
    let end = match (s.cut_next.take(), s.stall_next.take()) {
        (Some(n), _) => End::CutAfter(n),
        (None, Some(n)) => End::StallAfter(n),
        (None, None) => End::Whole,
    };
    match range_start {
        Some(start) if start >= len => Answer::Unsatisfiable(len),
        Some(start) => Answer::Body {
            status: 206,
            headers: vec![
                ("Content-Range".into(), format!("bytes {start}-{}/{len}", len - 1)),
                ("Accept-Ranges".into(), "bytes".into()),
            ],
            bytes,
            from: start as usize,
            end,
        },
        None => Answer::Body { status: 200, headers: Vec::new(), bytes, from: 0, end },
    }
}

async fn write_answer(socket: &mut TcpStream, answer: Answer) -> std::io::Result<()> {
    match answer {
        Answer::Redirect(to) => {
            let head = format!(
                "HTTP/1.1 302 Found\r\nLocation: {to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            socket.write_all(head.as_bytes()).await
        }
        Answer::NotFound => {
            let head = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
            socket.write_all(head.as_bytes()).await
        }
        Answer::Unsatisfiable(len) => {
            let head = format!(
                "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            socket.write_all(head.as_bytes()).await
        }
        Answer::Body { status, headers, bytes, from, end } => {
            let body = &bytes[from..];
            let reason = if status == 206 { "Partial Content" } else { "OK" };
            let mut head = format!(
                "HTTP/1.1 {status} {reason}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
                body.len()
            );
            for (k, v) in headers {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            head.push_str("\r\n");
            socket.write_all(head.as_bytes()).await?;
            let send = match end {
                End::Whole => body.len(),
                End::CutAfter(n) | End::StallAfter(n) => (n as usize).min(body.len()),
            };
            for chunk in body[..send].chunks(WRITE_CHUNK) {
                socket.write_all(chunk).await?;
                socket.flush().await?;
            }
            if let End::StallAfter(_) = end {
                std::future::pending::<()>().await;
            }
            Ok(())
        }
    }
}
