//! A loopback HTTPS server for the update tests: a CA and a certificate for 127.0.0.1 made at
//! start (rcgen), TLS by rustls (ring), one response per path, a count of the requests that
//! reached it. HTTP/1.1, one request per connection; a `truncated` response announces the whole
//! length and closes the connection early.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::{self, pki_types::PrivateKeyDer, pki_types::PrivatePkcs8KeyDer};

/// What one path answers.
#[derive(Clone)]
pub struct Route {
    body: Vec<u8>,
    /// Bytes actually sent (the rest is announced but never comes).
    sent: usize,
}

impl Route {
    pub fn ok(body: Vec<u8>) -> Self {
        let sent = body.len();
        Self { body, sent }
    }

    /// Announces `body`'s length, sends `sent` bytes of it and closes the connection.
    pub fn truncated(body: Vec<u8>, sent: usize) -> Self {
        Self { body, sent }
    }
}

pub struct Server {
    port: u16,
    /// The test CA's certificate (PEM): what the client trusts.
    pub ca_pem: String,
    /// Requests that reached the server (TLS handshake done, request read).
    pub requests: Arc<AtomicUsize>,
    routes: Arc<Mutex<HashMap<String, Route>>>,
}

impl Server {
    pub async fn start(routes: Vec<(&'static str, Route)>) -> Self {
        let (ca_pem, config) = tls_config();
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let requests = Arc::new(AtomicUsize::new(0));
        let routes: HashMap<String, Route> =
            routes.into_iter().map(|(p, r)| (p.to_string(), r)).collect();
        let routes = Arc::new(Mutex::new(routes));
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let (count, table) = (requests.clone(), routes.clone());
        tauri::async_runtime::spawn(async move {
            loop {
                let Ok((tcp, _)) = listener.accept().await else { return };
                let (acceptor, count, table) = (acceptor.clone(), count.clone(), table.clone());
                tauri::async_runtime::spawn(async move {
                    let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                    let Some(path) = read_request_path(&mut tls).await else { return };
                    count.fetch_add(1, Ordering::SeqCst);
                    let route = table.lock().unwrap().get(&path).cloned();
                    let head = match &route {
                        Some(r) => format!(
                            "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                            r.body.len()
                        ),
                        None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".into(),
                    };
                    let _ = tls.write_all(head.as_bytes()).await;
                    if let Some(r) = route {
                        let _ = tls.write_all(&r.body[..r.sent]).await;
                    }
                    let _ = tls.flush().await;
                    let _ = tls.shutdown().await;
                });
            }
        });
        Self { port, ca_pem, requests, routes }
    }

    /// `https://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("https://127.0.0.1:{}{path}", self.port)
    }

    /// Sets (or replaces) what `path` answers.
    pub fn route(&self, path: &str, route: Route) {
        self.routes.lock().unwrap().insert(path.to_string(), route);
    }
}

/// Reads the request head; its path.
async fn read_request_path<S: tokio::io::AsyncRead + Unpin>(stream: &mut S) -> Option<String> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&head).lines().next()?.to_string();
    line.split_whitespace().nth(1).map(str::to_string)
}

/// A CA made now and a server certificate for 127.0.0.1 it signed: the CA's PEM and the
/// server's rustls configuration.
fn tls_config() -> (String, rustls::ServerConfig) {
    use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
    let ca_key = KeyPair::generate().unwrap();
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name.push(DnType::CommonName, "VibeLife update test CA");
    let ca_cert = ca.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca, ca_key);
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap();
    let leaf_cert = leaf.signed_by(&leaf_key, &issuer).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![leaf_cert.der().clone()], key)
        .unwrap();
    (ca_cert.pem(), config)
}
