//! `fake-llm`: a stand-alone fake OpenAI-compatible server on 127.0.0.1 for tests that drive a
//! whole program (the desktop app's real-window test). It routes by path: `GET …/models` lists
//! `--model`; `POST …/chat/completions` streams `--reply` as SSE text deltas of `--chunk`
//! characters, `--delay-ms` apart, then `[DONE]`; anything else is 404. With `--script FILE`
//! (a JSON array of `{"when": "…", "text": "…"}` or `{"when": "…", "tool_calls": [{"name": …,
//! "arguments": {…}}]}`), a chat request takes the first unused entry whose `when` is part of
//! the last user message (so a turn's tool call and the answer after its result are two
//! entries with the same `when`); a request no entry matches gets `--reply`, so a test may send
//! as many other turns as it likes. It prints `listening on http://127.0.0.1:PORT/v1` when
//! ready and runs until killed. Test use only.

use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::{TcpListener, TcpStream};
use vibe_test_support::{ev_finish, ev_role, ev_text, ev_tool_call, ev_usage};

struct Options {
    port: u16,
    model: String,
    reply: String,
    chunk: usize,
    delay: Duration,
    /// `--script` entries not used yet.
    script: Mutex<Vec<Entry>>,
}

/// One scripted answer.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    when: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    tool_calls: Vec<Call>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Call {
    name: String,
    arguments: Value,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        port: 0,
        model: "fake-model".into(),
        reply: "Hello from the fake model.".into(),
        chunk: 8,
        delay: Duration::from_millis(50),
        script: Mutex::new(Vec::new()),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--port" => o.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
            "--model" => o.model = value()?,
            "--reply" => o.reply = value()?,
            "--script" => {
                let file = value()?;
                let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
                let entries: Vec<Entry> =
                    serde_json::from_str(&text).map_err(|e| format!("{file}: {e}"))?;
                o.script = Mutex::new(entries);
            }
            "--chunk" => {
                o.chunk = value()?.parse().map_err(|e| format!("--chunk: {e}"))?;
                if o.chunk == 0 {
                    return Err("--chunk must be at least 1".into());
                }
            }
            "--delay-ms" => {
                o.delay = Duration::from_millis(
                    value()?.parse().map_err(|e| format!("--delay-ms: {e}"))?,
                );
            }
            other => {
                return Err(format!("unknown argument {other}; see the header of fake-llm.rs"));
            }
        }
    }
    Ok(o)
}

fn main() {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("fake-llm: {e}");
            std::process::exit(2);
        }
    };
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build();
    let runtime = runtime.unwrap_or_else(|e| {
        eprintln!("fake-llm: cannot start a runtime: {e}");
        std::process::exit(1);
    });
    if let Err(e) = runtime.block_on(serve(options)) {
        eprintln!("fake-llm: {e}");
        std::process::exit(1);
    }
}

async fn serve(o: Options) -> std::io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", o.port)).await?;
    println!("listening on http://{}/v1", listener.local_addr()?);
    let o = std::sync::Arc::new(o);
    loop {
        let (stream, _) = listener.accept().await?;
        let o = o.clone();
        tokio::spawn(async move {
            if let Err(e) = answer(stream, &o).await {
                eprintln!("fake-llm: connection: {e}");
            }
        });
    }
}

/// Reads one request (head and body by Content-Length) and answers it.
async fn answer(mut stream: TcpStream, o: &Options) -> std::io::Result<()> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            return Ok(());
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let length = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse::<usize>().ok())
        .unwrap_or(0);
    while buf.len() < head_end + length {
        let n = stream.read(&mut chunk).await?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let mut request_line = head.lines().next().unwrap_or("").split(' ');
    let method = request_line.next().unwrap_or("");
    let path = request_line.next().unwrap_or("");
    eprintln!("fake-llm: {method} {path}");
    if method == "GET" && path.ends_with("/models") {
        let body = serde_json::json!({
            "object": "list",
            "data": [{"id": o.model, "object": "model", "owned_by": "fake"}],
        })
        .to_string();
        let reply = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        return stream.write_all(reply.as_bytes()).await;
    }
    if method == "POST" && path.ends_with("/chat/completions") {
        stream
            .write_all(b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n")
            .await?;
        stream.write_all(frame(&ev_role()).as_bytes()).await?;
        let entry = scripted(o, &buf[head_end..]);
        if let Some(Entry { tool_calls, .. }) = entry.as_ref().filter(|e| !e.tool_calls.is_empty())
        {
            for (i, call) in tool_calls.iter().enumerate() {
                let id = format!("call_{i}");
                let args = call.arguments.to_string();
                stream
                    .write_all(frame(&ev_tool_call(i as u64, &id, &call.name, &args)).as_bytes())
                    .await?;
            }
            stream.write_all(frame(&ev_finish("tool_calls")).as_bytes()).await?;
            stream.write_all(frame(&ev_usage(12, 8)).as_bytes()).await?;
            return stream.write_all(b"data: [DONE]\n\n").await;
        }
        let reply = entry.and_then(|e| e.text).unwrap_or_else(|| o.reply.clone());
        let chars: Vec<char> = reply.chars().collect();
        for piece in chars.chunks(o.chunk) {
            tokio::time::sleep(o.delay).await;
            let text: String = piece.iter().collect();
            stream.write_all(frame(&ev_text(&text)).as_bytes()).await?;
            stream.flush().await?;
        }
        stream.write_all(frame(&ev_finish("stop")).as_bytes()).await?;
        stream.write_all(frame(&ev_usage(12, chars.len() as u64 / 4 + 1)).as_bytes()).await?;
        return stream.write_all(b"data: [DONE]\n\n").await;
    }
    stream
        .write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
        .await
}

/// The first unused script entry whose `when` is part of the request's last user message.
fn scripted(o: &Options, body: &[u8]) -> Option<Entry> {
    let request: Value = serde_json::from_slice(body).ok()?;
    let last_user = request["messages"]
        .as_array()?
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())?
        .to_string();
    let mut script = o.script.lock().unwrap_or_else(|e| e.into_inner());
    let at = script.iter().position(|e| last_user.contains(&e.when))?;
    Some(script.remove(at))
}

fn frame(event: &serde_json::Value) -> String {
    format!("data: {event}\n\n")
}
