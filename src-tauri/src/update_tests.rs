//! The updater against a loopback HTTPS server (a CA and a certificate for 127.0.0.1 made at
//! test time; the client trusts that CA through the plugin's root-certificate hook
//! `configure_client`, never by turning checks off) and a minisign key pair made at test time:
//! the plugin's own check, download, verification and install (an AppImage-style file install,
//! the kind a test binary gets: it was not bundled as a .deb), through this module's functions.

use std::sync::atomic::Ordering;

use tauri::test::{MockRuntime, mock_builder, mock_context, noop_assets};
use vibe_core::app::updates::{CheckDecision, UpdateChecks, decide};
use vibe_wire::command::{UpdateCheck, UpdateInstall, UpdateRefusal};

use super::tests_server::{Route, Server};
use super::*;

/// The running version of the mock app (`tauri::test::mock_context`).
const RUNNING: &str = "0.1.0";
const INSTALLED: &[u8] = b"\x7fELF the installed VibeLife";

/// A minisign key pair made for this test, in Tauri's encoding (base64 of the key file).
struct Keys {
    pk: minisign::PublicKey,
    sk: minisign::SecretKey,
}

impl Keys {
    fn new() -> Self {
        let pair = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        Self { pk: pair.pk, sk: pair.sk }
    }

    fn public(&self) -> String {
        b64(&self.pk.to_box().unwrap().into_string())
    }

    /// The `.sig` the Tauri bundler writes for `data` of `version`, base64-encoded.
    fn sign(&self, data: &[u8], version: &str) -> String {
        let trusted = format!("timestamp:1800000000\tfile:vibelife.AppImage\tversion:{version}");
        let sig = minisign::sign(
            Some(&self.pk),
            &self.sk,
            std::io::Cursor::new(data),
            Some(&trusted),
            Some("signature from tauri secret key"),
        )
        .unwrap();
        b64(&sig.into_string())
    }
}

fn b64(text: &str) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(text)
}

fn new_build(version: &str) -> Vec<u8> {
    let mut bytes = format!("\x7fELF VibeLife {version}").into_bytes();
    bytes.resize(64 * 1024, b'.');
    bytes
}

/// `latest.json` offering `version` at `url` for `platform`.
fn manifest(version: &str, platform: &str, url: &str, signature: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({
        "version": version,
        "notes": "Reminders arrive in the tray.",
        "pub_date": "2026-11-28T09:00:00Z",
        "platforms": { platform: { "url": url, "signature": signature } },
    }))
    .unwrap()
}

fn this_platform() -> String {
    tauri_plugin_updater::target().unwrap()
}

/// A mock app with the updater plugin configured as tauri.conf.json configures it, but with the
/// test's public key `pubkey` (its endpoint is never asked: the tests' endpoints come through
/// the `VIBELIFE_UPDATE_URL` path of [`builder`]).
fn mock_app(pubkey: &str) -> tauri::App<MockRuntime> {
    let conf: serde_json::Value =
        serde_json::from_str(include_str!("../../tauri.conf.json")).unwrap();
    let mut updater = conf["plugins"]["updater"].clone();
    assert_eq!(updater["requireSignedVersion"], true, "a signature names its version");
    updater["pubkey"] = pubkey.into();
    let mut context = mock_context(noop_assets());
    context.config_mut().plugins.0.insert("updater".into(), updater);
    mock_builder().plugin(tauri_plugin_updater::Builder::new().build()).build(context).unwrap()
}

/// A check's answer to come.
type Asked = std::pin::Pin<Box<dyn Future<Output = (UpdateCheck, Option<Update>)> + Send>>;

/// One update scenario: the server, the app, the installed file.
struct Scenario {
    server: Server,
    app: tauri::App<MockRuntime>,
    dir: tempfile::TempDir,
}

impl Scenario {
    fn new(keys: &Keys, routes: Vec<(&'static str, Route)>) -> Self {
        let server = tauri::async_runtime::block_on(Server::start(routes));
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("VibeLife.AppImage"), INSTALLED).unwrap();
        Self { server, app: mock_app(&keys.public()), dir }
    }

    /// A server offering a newer build (0.2.0) for this platform, signed by the key the app trusts.
    fn offering_a_signed_build() -> Self {
        let keys = Keys::new();
        let build = new_build("0.2.0");
        let sig = keys.sign(&build, "0.2.0");
        let s = Self::new(&keys, vec![("/vibelife.AppImage", Route::ok(build))]);
        s.server.route(
            "/latest.json",
            Route::ok(manifest(
                "0.2.0",
                &this_platform(),
                &s.server.url("/vibelife.AppImage"),
                &sig,
            )),
        );
        s
    }

    fn installed(&self) -> Vec<u8> {
        std::fs::read(self.dir.path().join("VibeLife.AppImage")).unwrap()
    }

    /// `update::check` as the command runs it, trusting the test CA and installing to the
    /// scenario's file.
    fn check(&self, decision: CheckDecision) -> (UpdateCheck, Option<Update>) {
        tauri::async_runtime::block_on(self.ask()(decision))
    }

    /// `update::check` for a decision still to be made (`update_runs::Checks::run`).
    fn ask(&self) -> impl FnOnce(CheckDecision) -> Asked {
        let endpoint = Some(self.server.url("/latest.json"));
        let ca = reqwest::Certificate::from_pem(self.server.ca_pem.as_bytes()).unwrap();
        let exe = self.dir.path().join("VibeLife.AppImage");
        let handle = self.app.handle().clone();
        move |decision| {
            Box::pin(async move {
                check(decision, move || {
                    Ok(builder(&handle, endpoint)?
                        .configure_client(move |c| c.tls_certs_only([ca.clone()]))
                        .executable_path(exe))
                })
                .await
            })
        }
    }

    fn requests(&self) -> usize {
        self.server.requests.load(Ordering::SeqCst)
    }
}

#[test]
fn a_newer_signed_build_is_offered_verified_and_installed() {
    let keys = Keys::new();
    let build = new_build("0.2.0");
    let sig = keys.sign(&build, "0.2.0");
    let s = Scenario::new(&keys, vec![("/vibelife.AppImage", Route::ok(build.clone()))]);
    s.server.route(
        "/latest.json",
        Route::ok(manifest("0.2.0", &this_platform(), &s.server.url("/vibelife.AppImage"), &sig)),
    );

    let (answer, found) = s.check(CheckDecision::Check);
    let UpdateCheck::Available { offer } = answer else { panic!("{answer:?}") };
    assert_eq!(offer.version, "0.2.0");
    assert_eq!(offer.current_version, RUNNING);
    assert_eq!(offer.notes.as_deref(), Some("Reminders arrive in the tray."));
    assert_eq!(offer.date.as_deref(), Some("2026-11-28T09:00:00Z"));
    let answer = tauri::async_runtime::block_on(install(found.unwrap()));
    assert_eq!(answer, UpdateInstall::Installed { version: "0.2.0".into() });
    assert_eq!(s.installed(), build, "the verified build replaced the installed one");
}

#[test]
fn a_tampered_build_is_refused_as_a_bad_signature_and_nothing_changes() {
    let keys = Keys::new();
    let build = new_build("0.2.0");
    let sig = keys.sign(&build, "0.2.0");
    let mut tampered = build.clone();
    tampered[100] ^= 0x01;
    let s = Scenario::new(&keys, vec![("/vibelife.AppImage", Route::ok(tampered))]);
    s.server.route(
        "/latest.json",
        Route::ok(manifest("0.2.0", &this_platform(), &s.server.url("/vibelife.AppImage"), &sig)),
    );

    let (answer, found) = s.check(CheckDecision::Check);
    assert!(matches!(answer, UpdateCheck::Available { .. }), "{answer:?}");
    let answer = tauri::async_runtime::block_on(install(found.unwrap()));
    let UpdateInstall::Refused { reason, .. } = answer else { panic!("{answer:?}") };
    assert_eq!(reason, UpdateRefusal::BadSignature);
    assert_eq!(s.installed(), INSTALLED, "nothing was installed");
}

#[test]
fn a_build_signed_by_another_key_is_refused() {
    let keys = Keys::new();
    let other = Keys::new();
    let build = new_build("0.2.0");
    let sig = other.sign(&build, "0.2.0");
    let s = Scenario::new(&keys, vec![("/vibelife.AppImage", Route::ok(build))]);
    s.server.route(
        "/latest.json",
        Route::ok(manifest("0.2.0", &this_platform(), &s.server.url("/vibelife.AppImage"), &sig)),
    );

    let (_, found) = s.check(CheckDecision::Check);
    let answer = tauri::async_runtime::block_on(install(found.unwrap()));
    assert!(
        matches!(answer, UpdateInstall::Refused { reason: UpdateRefusal::BadSignature, .. }),
        "{answer:?}"
    );
    assert_eq!(s.installed(), INSTALLED);
}

#[test]
fn a_truncated_download_is_refused_and_nothing_changes() {
    let keys = Keys::new();
    let build = new_build("0.2.0");
    let sig = keys.sign(&build, "0.2.0");
    let s = Scenario::new(&keys, vec![("/vibelife.AppImage", Route::truncated(build, 1000))]);
    s.server.route(
        "/latest.json",
        Route::ok(manifest("0.2.0", &this_platform(), &s.server.url("/vibelife.AppImage"), &sig)),
    );

    let (_, found) = s.check(CheckDecision::Check);
    let answer = tauri::async_runtime::block_on(install(found.unwrap()));
    let UpdateInstall::Refused { reason, .. } = answer else { panic!("{answer:?}") };
    assert_eq!(reason, UpdateRefusal::TruncatedDownload);
    assert_eq!(s.installed(), INSTALLED);
}

#[test]
fn a_manifest_without_this_platform_is_refused_naming_it() {
    let keys = Keys::new();
    let s = Scenario::new(&keys, vec![]);
    s.server.route(
        "/latest.json",
        Route::ok(manifest(
            "0.2.0",
            "windows-x86_64",
            &s.server.url("/x.msi"),
            &keys.sign(b"x", "0.2.0"),
        )),
    );

    let (answer, found) = s.check(CheckDecision::Check);
    assert!(found.is_none());
    let UpdateCheck::Refused { reason, message } = answer else { panic!("{answer:?}") };
    assert_eq!(reason, UpdateRefusal::NoBuildForPlatform);
    assert!(message.contains(&this_platform()), "{message}");
}

#[test]
fn a_lower_or_equal_version_is_ignored() {
    let keys = Keys::new();
    for version in ["0.0.9", RUNNING] {
        let build = new_build(version);
        let sig = keys.sign(&build, version);
        let s = Scenario::new(&keys, vec![("/vibelife.AppImage", Route::ok(build))]);
        s.server.route(
            "/latest.json",
            Route::ok(manifest(
                version,
                &this_platform(),
                &s.server.url("/vibelife.AppImage"),
                &sig,
            )),
        );
        let (answer, found) = s.check(CheckDecision::Check);
        assert_eq!(answer, UpdateCheck::UpToDate, "{version}");
        assert!(found.is_none());
        assert_eq!(s.requests(), 1, "the manifest only, no download");
    }
}

#[test]
fn off_or_undecided_makes_no_request_at_all() {
    let s = Scenario::offering_a_signed_build();
    let now = std::time::SystemTime::now();
    for choice in [UpdateChecks::Off, UpdateChecks::Undecided] {
        for manual in [false, true] {
            let (answer, found) = s.check(decide(choice, None, now, manual));
            assert_eq!(answer, UpdateCheck::NotAllowed);
            assert!(found.is_none());
        }
    }
    let (answer, _) = s.check(decide(UpdateChecks::Ask, Some(now), now, false));
    assert_eq!(answer, UpdateCheck::NotDue);
    assert_eq!(s.requests(), 0, "no request reached the server");
    // The same server answers once allowed: the count above is not a dead server's.
    let (answer, _) = s.check(decide(UpdateChecks::Ask, None, now, false));
    assert!(matches!(answer, UpdateCheck::Available { .. }), "{answer:?}");
    assert_eq!(s.requests(), 1);
}

#[test]
fn a_running_app_checks_one_at_a_time_and_again_a_day_later() {
    use crate::update_runs::{Asker, Checks};
    let s = Scenario::offering_a_signed_build();
    let data = tempfile::tempdir().unwrap();
    let core = vibe_core::app::App::open_with_keys(
        vibe_core::app::AppPaths::new(data.path()),
        vibe_core::app::Overrides::default(),
        std::sync::Arc::new(vibe_core::app::EphemeralKeys::default()),
    )
    .unwrap();
    let choose = |updates: &str| {
        let change = vibe_wire::command::SettingChange {
            key: "preferences.updates".into(),
            value: updates.into(),
        };
        core.update_settings(vibe_wire::command::UpdateSettingsRequest { changes: vec![change] })
            .unwrap();
    };
    let at = |hours: u64| {
        std::time::SystemTime::UNIX_EPOCH
            + std::time::Duration::from_secs(1_800_000_000 + hours * 3600)
    };
    let checks = Checks::<Update>::default();
    choose("ask");
    tauri::async_runtime::block_on(async {
        // The clock and a window starting at the same moment: one request.
        let (clock, window) = tokio::join!(
            checks.run(&core, at(0), Asker::Clock, s.ask()),
            checks.run(&core, at(0), Asker::Window, s.ask()),
        );
        assert!(matches!(clock.unwrap(), UpdateCheck::Available { .. }));
        assert!(matches!(window.unwrap(), UpdateCheck::Available { .. }), "handed the offer");
        assert_eq!(s.requests(), 1, "never two checks at once");
        let soon = checks.run(&core, at(5), Asker::Clock, s.ask()).await;
        assert_eq!(soon.unwrap(), UpdateCheck::NotDue);
        assert_eq!(s.requests(), 1);
        let next_day = checks.run(&core, at(24), Asker::Clock, s.ask()).await;
        assert!(matches!(next_day.unwrap(), UpdateCheck::Available { .. }));
        assert_eq!(s.requests(), 2, "a day later the running app asks again");
        // The update found is the one installed; then checks go off: none at all.
        assert_eq!(checks.update().map(|u| u.version), Some("0.2.0".to_string()));
        choose("off");
        for day in 2..10 {
            let off = checks.run(&core, at(24 * day), Asker::Clock, s.ask()).await;
            assert_eq!(off.unwrap(), UpdateCheck::NotAllowed);
        }
        assert_eq!(s.requests(), 2, "off: no request");
        assert!(checks.update().is_none());
    });
}
