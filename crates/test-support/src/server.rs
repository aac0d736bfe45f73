//! The fake OpenAI-compatible server: real HTTP/1.1 on 127.0.0.1, one request per
//! connection, replies taken in order from a queue, every request recorded. It runs on its
//! own thread and runtime, so sync tests (CLI) and async tests use it alike.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;

use crate::reply::{Part, Reply};

/// A request the server received.
#[derive(Debug, Clone)]
pub struct RecordedRequest {
    pub method: String,
    /// Path with query, e.g. `/v1/chat/completions`.
    pub path: String,
    /// Header names in lower case.
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// The body as JSON (`Null` when it is not JSON).
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(&name.to_ascii_lowercase()).map(String::as_str)
    }

    /// Panics with a clear message when a tool result lacks its tool call.
    pub fn assert_tool_pairs(&self) {
        if let Err(e) = crate::check::check_tool_pairs(&self.json()) {
            panic!("{} {}: {e}", self.method, self.path);
        }
    }
}

#[derive(Default)]
struct State {
    replies: VecDeque<Reply>,
    requests: Vec<RecordedRequest>,
    disconnects: usize,
}

/// A running fake server; it stops when dropped.
pub struct FakeServer {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FakeServer {
    /// Start on a free port of 127.0.0.1.
    pub fn start() -> Self {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap_or_else(|e| panic!("fake server: bind: {e}"));
        std_listener.set_nonblocking(true).unwrap_or_else(|e| panic!("fake server: {e}"));
        let addr = std_listener.local_addr().unwrap_or_else(|e| panic!("fake server: {e}"));
        let state = Arc::new(Mutex::new(State::default()));
        let (stop, stopped) = oneshot::channel();
        let thread_state = state.clone();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap_or_else(|e| panic!("fake server: runtime: {e}"));
            rt.block_on(async move {
                let listener = TcpListener::from_std(std_listener)
                    .unwrap_or_else(|e| panic!("fake server: {e}"));
                tokio::select! {
                    _ = stopped => {}
                    () = accept_loop(listener, thread_state) => {}
                }
            });
        });
        Self { addr, state, stop: Some(stop), thread: Some(thread) }
    }

    /// Base URL as a client wants it: `http://127.0.0.1:PORT/v1`.
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Queue a reply for the next request (replies are used in order, whatever the path).
    pub fn push(&self, reply: Reply) -> &Self {
        self.lock().replies.push_back(reply);
        self
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.lock().requests.clone()
    }

    /// How many replies are still queued.
    pub fn pending(&self) -> usize {
        self.lock().replies.len()
    }

    /// How many times a client hung up before its reply was complete.
    pub fn disconnects(&self) -> usize {
        self.lock().disconnects
    }

    /// Wait (at most `limit`) until `disconnects() >= n`; returns whether it happened.
    pub fn wait_for_disconnects(&self, n: usize, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.disconnects() >= n {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.disconnects() >= n
    }

    /// Async form of [`Self::wait_for_disconnects`], for tests on a tokio runtime (the
    /// client's connection task must keep running while we wait).
    pub async fn wait_for_disconnects_async(&self, n: usize, limit: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.disconnects() >= n {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        self.disconnects() >= n
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Drop for FakeServer {
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

async fn serve(mut socket: TcpStream, state: Arc<Mutex<State>>) {
    let Some(request) = read_request(&mut socket).await else { return };
    let reply = {
        let mut s = state.lock().unwrap_or_else(|p| p.into_inner());
        s.requests.push(request.clone());
        s.replies.pop_front()
    };
    let reply = reply.unwrap_or_else(|| {
        Reply::json(
            500,
            &serde_json::json!({"error": {"message": format!("fake server: no scripted reply left for {} {}", request.method, request.path)}}),
        )
    });
    if !write_reply(&mut socket, &reply).await {
        state.lock().unwrap_or_else(|p| p.into_inner()).disconnects += 1;
    }
}

/// Write the reply; `false` when the client hung up before it was complete.
async fn write_reply(socket: &mut TcpStream, reply: &Reply) -> bool {
    let leading = reply.parts.iter().take_while(|p| matches!(p, Part::Delay(_))).count();
    for part in &reply.parts[..leading] {
        if let Part::Delay(d) = part
            && !pause(socket, *d).await
        {
            return false;
        }
    }
    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if reply.chunked {
        head.push_str("transfer-encoding: chunked\r\n");
    } else if reply.sized {
        head.push_str(&format!("content-length: {}\r\n", reply.body_len()));
    }
    head.push_str("connection: close\r\n\r\n");
    if socket.write_all(head.as_bytes()).await.is_err() {
        return false;
    }
    for part in &reply.parts[leading..] {
        let ok = match part {
            Part::Bytes(b) if reply.chunked => {
                let mut framed = format!("{:x}\r\n", b.len()).into_bytes();
                framed.extend_from_slice(b);
                framed.extend_from_slice(b"\r\n");
                send(socket, &framed).await
            }
            Part::CutChunk { bytes, announced } => {
                let mut framed = format!("{announced:x}\r\n").into_bytes();
                framed.extend_from_slice(bytes);
                send(socket, &framed).await
            }
            Part::Bytes(b) => send(socket, b).await,
            Part::Delay(d) => pause(socket, *d).await,
        };
        if !ok {
            return false;
        }
    }
    if reply.reset {
        // SO_LINGER 0: dropping the socket sends RST instead of an orderly FIN.
        let _ = socket.set_zero_linger();
        return true;
    }
    let cut = reply.parts.iter().any(|p| matches!(p, Part::CutChunk { .. }));
    if reply.chunked && !reply.hang && !cut && !send(socket, b"0\r\n\r\n").await {
        return false;
    }
    if reply.hang {
        // Silent until the client leaves (the server's drop ends it otherwise).
        let mut buf = [0u8; 256];
        loop {
            match socket.read(&mut buf).await {
                Ok(0) | Err(_) => return false,
                Ok(_) => {}
            }
        }
    }
    let _ = socket.shutdown().await;
    true
}

async fn send(socket: &mut TcpStream, bytes: &[u8]) -> bool {
    socket.write_all(bytes).await.is_ok() && socket.flush().await.is_ok()
}

/// Sleep `d`, watching for the client hanging up; `false` when it did.
async fn pause(socket: &mut TcpStream, d: Duration) -> bool {
    let sleep = tokio::time::sleep(d);
    tokio::pin!(sleep);
    let mut buf = [0u8; 256];
    loop {
        tokio::select! {
            () = &mut sleep => return true,
            r = socket.read(&mut buf) => match r {
                Ok(0) | Err(_) => return false,
                Ok(_) => {}
            },
        }
    }
}

pub(crate) async fn read_request(socket: &mut TcpStream) -> Option<RecordedRequest> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split(' ');
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let headers: BTreeMap<String, String> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    let mut body = buf[head_end..].to_vec();
    while body.len() < len {
        let n = socket.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&chunk[..n]);
    }
    Some(RecordedRequest { method, path, headers, body })
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}
