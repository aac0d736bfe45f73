//! Real storage servers on 127.0.0.1 for the sync tests: Debian's `rclone serve webdav` (a
//! WebDAV folder with a user and password, its files in a temporary folder the test can read)
//! and moto's standalone S3 server (in the venv scripts/sync-env.sh makes). Each is started on a
//! free port and stopped when dropped. A server that cannot start fails the test, saying how
//! to install it; none is ever skipped.
// Test set-up: a server that cannot start, or a port that cannot be had, fails the test.
#![allow(clippy::expect_used)]

use std::io::Read as _;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The WebDAV server's user and password.
pub const DAV_USER: &str = "vibe-sync-user";
pub const DAV_PASSWORD: &str = "dav-Pa55word-for-tests";
/// The credentials the S3 tests use (moto accepts any unless started checking keys).
pub const S3_ACCESS_KEY_ID: &str = "AKIAVIBESYNCTEST";
pub const S3_SECRET_KEY: &str = "s3-Secret-Key-for-vibe-sync-tests";

pub(crate) fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("no free port on 127.0.0.1");
    listener.local_addr().expect("the listener's address").port()
}

/// Start `command`, wait until `port` accepts connections (30 s at most).
fn start(mut command: Command, port: u16, what: &str, install: &str) -> Child {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{what} cannot start ({e}): {install}"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            if let Some(mut stderr) = child.stderr.take() {
                let _ = stderr.read_to_string(&mut err);
            }
            panic!("{what} stopped at start ({status}): {err}\n{install}");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} did not listen on 127.0.0.1:{port} within 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child
}

/// `rclone serve webdav` over a temporary folder, with [`DAV_USER`] and [`DAV_PASSWORD`].
pub struct WebDavServer {
    child: Child,
    dir: tempfile::TempDir,
    /// The server's URL (`http://127.0.0.1:PORT`).
    pub url: String,
}

impl WebDavServer {
    pub fn start() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let port = free_port();
        let rclone = std::env::var("VIBE_RCLONE").unwrap_or_else(|_| "rclone".into());
        let mut command = Command::new(rclone);
        command
            .args(["serve", "webdav", "--addr", &format!("127.0.0.1:{port}")])
            .args(["--user", DAV_USER, "--pass", DAV_PASSWORD, "--config", "/dev/null"])
            .arg(dir.path());
        let install = "install Debian's rclone (`bash scripts/sync-env.sh`; scripts/test.sh does)";
        let child = start(command, port, "rclone serve webdav", install);
        Self { child, dir, url: format!("http://127.0.0.1:{port}") }
    }

    /// The folder the server stores its files in.
    pub fn stored(&self) -> &std::path::Path {
        self.dir.path()
    }
}

impl Drop for WebDavServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// moto's S3 server, with one bucket made.
pub struct S3Server {
    child: Child,
    port: u16,
    /// The endpoint URL (`http://127.0.0.1:PORT`).
    pub url: String,
}

/// moto's server binary: `VIBE_MOTO_SERVER`, else the venv scripts/sync-env.sh makes.
fn moto_server() -> PathBuf {
    if let Ok(path) = std::env::var("VIBE_MOTO_SERVER") {
        return PathBuf::from(path);
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    PathBuf::from(home).join(".cache/vibelife/moto-venv/bin/moto_server")
}

/// An access key moto made (an IAM user's), for a server that checks signatures.
pub struct S3Key {
    pub id: String,
    pub secret: String,
}

/// moto's IAM requests before its checks start: made up, parsed only for the service's name.
const IAM_UNCHECKED: &str = "AWS4-HMAC-SHA256 Credential=AKIASETUP/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=00";

/// `text` as one value of a form body.
fn form_value(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The text of `<tag>` in an XML answer.
fn xml_text(xml: &str, tag: &str) -> Option<String> {
    let (_, rest) = xml.split_once(&format!("<{tag}>"))?;
    rest.split_once(&format!("</{tag}>")).map(|(text, _)| text.to_string())
}

impl S3Server {
    pub fn start() -> Self {
        Self::spawn(None)
    }

    fn spawn(unchecked_actions: Option<u32>) -> Self {
        let port = free_port();
        let mut command = Command::new(moto_server());
        command.args(["-H", "127.0.0.1", "-p", &port.to_string()]);
        if let Some(n) = unchecked_actions {
            command.env("INITIAL_NO_AUTH_ACTION_COUNT", n.to_string());
        }
        let install = "install moto's server (`bash scripts/sync-env.sh`; scripts/test.sh does)";
        let child = start(command, port, "moto_server", install);
        Self { child, port, url: format!("http://127.0.0.1:{port}") }
    }

    /// moto checking every request's signature against the access keys it made: an IAM user
    /// allowed all of S3, its access key, and `bucket`, made by the four requests moto answers
    /// before its checks start (`INITIAL_NO_AUTH_ACTION_COUNT`). Only signed requests work
    /// after, so [`S3Server::keys`] does not.
    pub fn start_checking_keys(bucket: &str) -> (Self, S3Key) {
        let server = Self::spawn(Some(4));
        let iam = |form: &[(&str, &str)]| {
            let body: Vec<String> =
                form.iter().map(|(k, v)| format!("{k}={}", form_value(v))).collect();
            let (status, answer) = server.request_with(
                "POST",
                "/",
                &[
                    ("Authorization", IAM_UNCHECKED),
                    ("Content-Type", "application/x-www-form-urlencoded"),
                ],
                body.join("&").as_bytes(),
            );
            let answer = String::from_utf8_lossy(&answer).to_string();
            assert_eq!(status, 200, "moto's IAM refused {form:?}: {answer}");
            answer
        };
        let user = [("Version", "2010-05-08"), ("UserName", "vibe-sync")];
        iam(&[&user[..], &[("Action", "CreateUser")]].concat());
        let made = iam(&[&user[..], &[("Action", "CreateAccessKey")]].concat());
        let policy = r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:*","Resource":"*"}]}"#;
        iam(&[
            &user[..],
            &[("Action", "PutUserPolicy"), ("PolicyName", "s3"), ("PolicyDocument", policy)],
        ]
        .concat());
        server.make_bucket(bucket);
        let key = S3Key {
            id: xml_text(&made, "AccessKeyId").expect("moto's answer names the access key id"),
            secret: xml_text(&made, "SecretAccessKey").expect("moto's answer holds the secret"),
        };
        (server, key)
    }

    /// One plain HTTP request (moto answers unsigned ones): the status and the body.
    fn request(&self, method: &str, path: &str) -> (u16, Vec<u8>) {
        self.request_with(method, path, &[], &[])
    }

    fn request_with(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> (u16, Vec<u8>) {
        crate::raw_http::exchange(self.port, "HTTP/1.1", (method, path), headers, body)
    }

    /// Make bucket `name`.
    pub fn make_bucket(&self, name: &str) {
        let (status, body) = self.request("PUT", &format!("/{name}"));
        assert_eq!(
            status,
            200,
            "moto did not make bucket {name}: {}",
            String::from_utf8_lossy(&body)
        );
    }

    /// The keys of every object in bucket `name` (read them signed: moto refuses unsigned reads).
    pub fn keys(&self, name: &str) -> Vec<String> {
        let (status, listing) = self.request("GET", &format!("/{name}?list-type=2&max-keys=1000"));
        let listing = String::from_utf8_lossy(&listing);
        assert_eq!(status, 200, "{listing}");
        listing
            .split("<Key>")
            .skip(1)
            .filter_map(|s| s.split_once("</Key>").map(|(k, _)| k.to_string()))
            .collect()
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
