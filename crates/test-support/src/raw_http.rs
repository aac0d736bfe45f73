//! One plain HTTP request to a server on 127.0.0.1, read to the end of the connection: for the
//! real servers the tests start and drive (moto's S3 API, Syncthing's REST API). No client
//! library: each request says `Connection: close`, so the answer ends with the connection.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;

/// `method path` to 127.0.0.1:`port` with `headers` and `body` as `version` (`HTTP/1.1`, or
/// `HTTP/1.0` for a server that would otherwise answer in chunks): the status and the body.
///
/// # Panics
/// When the server does not take the connection or the request.
pub(crate) fn exchange(
    port: u16,
    version: &str,
    (method, path): (&str, &str),
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, Vec<u8>) {
    try_exchange(port, version, (method, path), headers, body)
        .unwrap_or_else(|e| panic!("{method} {path} to 127.0.0.1:{port} failed: {e}"))
}

/// [`exchange`], with a failure answered instead of a panic (for a `Drop`, which must not
/// panic while a failing test unwinds).
pub(crate) fn try_exchange(
    port: u16,
    version: &str,
    (method, path): (&str, &str),
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    let extra: String = headers.iter().map(|(k, v)| format!("{k}: {v}\r\n")).collect();
    let head = format!(
        "{method} {path} {version}\r\nHost: 127.0.0.1:{port}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer)?;
    let end = answer.windows(4).position(|w| w == b"\r\n\r\n").map_or(answer.len(), |i| i + 4);
    let head = String::from_utf8_lossy(&answer[..end]);
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Ok((status, answer[end..].to_vec()))
}
