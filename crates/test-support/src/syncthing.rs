//! Two real Syncthing instances (Debian's `syncthing`) on 127.0.0.1 for the sync tests, sharing
//! one folder between two places as a person's Syncthing shares a sync folder between two
//! machines. Each has its own home (`syncthing generate`), its REST API on a free port with
//! its API key, listens on 127.0.0.1 only and knows the other by address; no discovery, relays,
//! NAT, usage or crash reports, upgrades or browser. Both stop when dropped. One that cannot
//! start fails the test, saying how to install syncthing; nothing is ever skipped. It knows
//! nothing of VibeLife's files: the tests write and read them through the app.
// Test set-up: an instance that cannot start or a folder that cannot be read fails the test.
#![allow(clippy::expect_used)]

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::poll::within;
use crate::sync_servers::free_port;

/// The id of the folder both instances share.
pub const SYNCTHING_FOLDER: &str = "vibelife-sync";

/// How to get syncthing, said when it is missing.
const INSTALL: &str = "install Debian's syncthing (`apt-get install syncthing`; scripts/sync-env.sh, which scripts/test.sh sources, does it when missing)";

/// How long starting, connecting and carrying files may take before the test fails.
const DEADLINE: Duration = Duration::from_secs(90);

/// One running Syncthing.
pub struct Syncthing {
    child: Child,
    home: tempfile::TempDir,
    gui_port: u16,
    api_key: String,
    /// Its device id.
    pub id: String,
    folder: PathBuf,
}

/// A Syncthing home made by `syncthing generate`, before it runs.
struct Generated {
    home: tempfile::TempDir,
    id: String,
    api_key: String,
    /// The config format this syncthing writes (`<configuration version="N">`).
    version: String,
    gui_port: u16,
    listen_port: u16,
}

fn syncthing() -> String {
    std::env::var("VIBE_SYNCTHING").unwrap_or_else(|_| "syncthing".into())
}

/// The text between `start` and the next `end` in `text`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let (_, rest) = text.split_once(start)?;
    rest.split_once(end).map(|(inside, _)| inside)
}

fn generate() -> Generated {
    let home = tempfile::tempdir().expect("a temporary folder");
    let made = Command::new(syncthing())
        .args(["generate", "--no-default-folder", "--skip-port-probing", "--home"])
        .arg(home.path())
        .output()
        .unwrap_or_else(|e| panic!("syncthing cannot start ({e}): {INSTALL}"));
    let out =
        String::from_utf8_lossy(&made.stdout).to_string() + &String::from_utf8_lossy(&made.stderr);
    assert!(made.status.success(), "`syncthing generate` failed: {out}\n{INSTALL}");
    let config = fs::read_to_string(home.path().join("config.xml")).expect("the generated config");
    let id = between(&out, "Device ID: ", "\n").map(str::trim);
    let id = id.unwrap_or_else(|| panic!("`syncthing generate` named no device id: {out}"));
    let api_key = between(&config, "<apikey>", "</apikey>").expect("the generated API key");
    let version = between(&config, "<configuration version=\"", "\"").expect("a config version");
    Generated {
        id: id.to_string(),
        api_key: api_key.to_string(),
        version: version.to_string(),
        home,
        gui_port: free_port(),
        listen_port: free_port(),
    }
}

/// `<device>` entries for the devices `(id, name, port)`.
fn devices(all: &[(&str, &str, u16)]) -> String {
    all.iter()
        .map(|(id, name, port)| {
            format!(
                r#"    <device id="{id}" name="{name}" compression="metadata" introducer="false">
        <address>tcp://127.0.0.1:{port}</address>
        <autoAcceptFolders>false</autoAcceptFolders>
    </device>
"#
            )
        })
        .collect()
}

/// The whole config of `me`, sharing `folder` with `peer`: written before it first runs, so it
/// never reaches beyond 127.0.0.1.
fn config(me: &Generated, name: &str, peer: &Generated, folder: &Path) -> String {
    let (version, key, gui, listen) = (&me.version, &me.api_key, me.gui_port, me.listen_port);
    let path = folder.to_str().expect("a UTF-8 folder path");
    let devices = devices(&[(&me.id, name, listen), (&peer.id, "peer", peer.listen_port)]);
    format!(
        r#"<configuration version="{version}">
    <folder id="{SYNCTHING_FOLDER}" label="VibeLife" path="{path}" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="true" fsWatcherDelayS="1">
        <device id="{me_id}"></device>
        <device id="{peer_id}"></device>
    </folder>
{devices}    <gui enabled="true" tls="false">
        <address>127.0.0.1:{gui}</address>
        <apikey>{key}</apikey>
    </gui>
    <options>
        <listenAddress>tcp://127.0.0.1:{listen}</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <startBrowser>false</startBrowser>
        <urAccepted>-1</urAccepted>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <crashReportingEnabled>false</crashReportingEnabled>
        <reconnectionIntervalS>1</reconnectionIntervalS>
    </options>
</configuration>
"#,
        me_id = me.id,
        peer_id = peer.id,
    )
}

impl Syncthing {
    /// Run `me` with `config` (its shared folder `folder`).
    fn run(me: Generated, config: &str, folder: &Path) -> Self {
        fs::create_dir_all(folder.join(".stfolder")).expect("the shared folder and its marker");
        let home = me.home.path();
        fs::write(home.join("config.xml"), config).expect("the config");
        let log = fs::File::create(home.join("syncthing.log")).expect("the log file");
        let child = Command::new(syncthing())
            .args(["serve", "--no-browser", "--no-restart", "--no-upgrade", "--home"])
            .arg(home)
            .env("STNOUPGRADE", "1")
            .env("STNODEFAULTFOLDER", "1")
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("the log file"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("syncthing cannot start ({e}): {INSTALL}"));
        let (gui_port, api_key, id) = (me.gui_port, me.api_key, me.id);
        Self { child, home: me.home, gui_port, api_key, id, folder: folder.to_path_buf() }
    }

    /// A REST request (`HTTP/1.0`: Syncthing's Go server answers it unchunked); `None` when
    /// it does not answer.
    fn rest(&self, method: &str, path: &str) -> Option<(u16, String)> {
        let key = [("X-API-Key", self.api_key.as_str())];
        let answer =
            crate::raw_http::try_exchange(self.gui_port, "HTTP/1.0", (method, path), &key, &[]);
        answer.ok().map(|(status, body)| (status, String::from_utf8_lossy(&body).to_string()))
    }

    /// The JSON a REST `GET path` answers, `None` until it answers 200.
    fn get(&self, path: &str) -> Option<serde_json::Value> {
        let (status, body) = self.rest("GET", path)?;
        (status == 200).then(|| serde_json::from_str(&body).ok()).flatten()
    }

    /// Whether it runs (or panic with its log, when it stopped).
    fn alive(&mut self) {
        if let Ok(Some(status)) = self.child.try_wait() {
            panic!("syncthing stopped ({status}):\n{}", self.log());
        }
    }

    /// Whether it is connected to device `id`.
    fn connected_to(&self, id: &str) -> bool {
        let connections = self.get("/rest/system/connections");
        connections.is_some_and(|c| c["connections"][id]["connected"] == true)
    }

    /// Ask it to scan the shared folder now (answered when the scan is done), as its watcher
    /// would a moment later.
    pub fn scan(&self) {
        let answer = self.rest("POST", &format!("/rest/db/scan?folder={SYNCTHING_FOLDER}"));
        let (status, body) =
            answer.unwrap_or_else(|| panic!("syncthing did not answer:\n{}", self.log()));
        assert_eq!(status, 200, "syncthing refused the scan: {body}");
    }

    /// The end of its log, and what it says of the shared folder, for a failure's message.
    pub fn log(&self) -> String {
        let text = fs::read_to_string(self.home.path().join("syncthing.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(40)..].join("\n");
        let status = self.get(&format!("/rest/db/status?folder={SYNCTHING_FOLDER}"));
        format!("{tail}\nfolder status: {status:?}")
    }
}

impl Drop for Syncthing {
    /// Asked to shut down through its API: `syncthing serve` is a monitor process running
    /// Syncthing as its child, which killing the monitor would leave behind. Killed when it
    /// does not stop in time.
    fn drop(&mut self) {
        let _ = self.rest("POST", "/rest/system/shutdown");
        let stopped =
            within(Duration::from_secs(10), || matches!(self.child.try_wait(), Ok(Some(_))));
        if !stopped {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Every file under `dir` (relative path → bytes) but Syncthing's own (its folder marker and
/// temporary files); nested folders are walked.
pub fn folder_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        let Ok(entries) = fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            if name == ".stfolder"
                || name.starts_with(".syncthing.")
                || name.starts_with("~syncthing~")
            {
                continue;
            }
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if let Ok(bytes) = fs::read(&path) {
                let relative = path.strip_prefix(root).expect("under the root");
                out.insert(relative.to_string_lossy().replace('\\', "/"), bytes);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Two Syncthing instances sharing [`SYNCTHING_FOLDER`]: `a`'s copy of it in one place, `b`'s
/// in another.
pub struct SyncthingPair {
    pub a: Syncthing,
    pub b: Syncthing,
}

impl SyncthingPair {
    /// Start both, sharing `a_folder` (on `a`) with `b_folder` (on `b`), and wait until they
    /// are connected to each other.
    ///
    /// # Panics
    /// When syncthing is missing, stops, or the two do not connect within the deadline.
    pub fn start(a_folder: &Path, b_folder: &Path) -> Self {
        let (a, b) = (generate(), generate());
        let a_config = config(&a, "device-a", &b, a_folder);
        let b_config = config(&b, "device-b", &a, b_folder);
        let a = Syncthing::run(a, &a_config, a_folder);
        let b = Syncthing::run(b, &b_config, b_folder);
        let mut pair = Self { a, b };
        let connected = within(DEADLINE, || {
            pair.a.alive();
            pair.b.alive();
            pair.a.connected_to(&pair.b.id) && pair.b.connected_to(&pair.a.id)
        });
        assert!(connected, "the two syncthings did not connect:\n{}", pair.logs());
        pair
    }

    /// Wait until both copies of the folder hold the same files (Syncthing carried what either
    /// side wrote), asking both to scan first; answers them. A conflict copy fails the test:
    /// each device writes only its own files, so Syncthing never has one to make.
    ///
    /// # Panics
    /// When the copies still differ after the deadline, or a conflict copy appears.
    pub fn wait_until_carried(&mut self) -> BTreeMap<String, Vec<u8>> {
        self.a.scan();
        self.b.scan();
        let mut last = (BTreeMap::new(), BTreeMap::new());
        let same = within(DEADLINE, || {
            self.a.alive();
            self.b.alive();
            last = (folder_files(&self.a.folder), folder_files(&self.b.folder));
            last.0 == last.1
        });
        let names = |files: &BTreeMap<String, Vec<u8>>| files.keys().cloned().collect::<Vec<_>>();
        let (a, b) = (names(&last.0), names(&last.1));
        assert!(
            same,
            "syncthing did not carry the files: a has {a:?}, b has {b:?}\n{}",
            self.logs()
        );
        let conflicts: Vec<&String> = a.iter().filter(|n| n.contains(".sync-conflict-")).collect();
        assert!(conflicts.is_empty(), "syncthing made conflict copies: {conflicts:?}");
        last.0
    }

    fn logs(&self) -> String {
        format!("--- syncthing a:\n{}\n--- syncthing b:\n{}", self.a.log(), self.b.log())
    }
}
