//! The order of update checks, with a real core over a temporary data folder, a clock passed in
//! and a fake server that answers as `crate::update::check` does (no request unless the
//! decision is `Check`): at most daily, not even once while not allowed, a restart does not
//! check early, never two at once, an update the clock found shown to a window once.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::oneshot;
use vibe_core::app::{AppPaths, EphemeralKeys, Overrides};
use vibe_wire::command::{SettingChange, UpdateSettingsRequest};

use super::*;

const HOUR: Duration = Duration::from_secs(60 * 60);

fn at(hours: u32) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000) + HOUR * hours
}

fn open(dir: &std::path::Path) -> App {
    open_with(dir, Arc::new(EphemeralKeys::default()))
}

/// The app over `dir` with `keys` (the same keys again: a restart on the same machine).
fn open_with(dir: &std::path::Path, keys: Arc<EphemeralKeys>) -> App {
    App::open_with_keys(AppPaths::new(dir), Overrides::default(), keys).unwrap()
}

fn choose(core: &App, updates: &str) {
    core.update_settings(UpdateSettingsRequest {
        changes: vec![SettingChange { key: "preferences.updates".into(), value: updates.into() }],
    })
    .unwrap();
}

type Answer = Pin<Box<dyn Future<Output = (UpdateCheck, Option<u32>)> + Send>>;

/// Counts the requests that reach it and how many ran at once.
#[derive(Default)]
struct Server {
    requests: Arc<AtomicUsize>,
    in_flight: Arc<AtomicUsize>,
    most_at_once: Arc<AtomicUsize>,
}

impl Server {
    /// `crate::update::check` against this server offering `version` (none: up to date); a
    /// request waits for `hold` when given.
    fn ask(
        &self,
        version: Option<&str>,
        hold: Option<oneshot::Receiver<()>>,
    ) -> impl FnOnce(CheckDecision) -> Answer {
        let (requests, in_flight, most) =
            (self.requests.clone(), self.in_flight.clone(), self.most_at_once.clone());
        let version = version.map(str::to_string);
        move |decision| {
            Box::pin(async move {
                match decision {
                    CheckDecision::NotAllowed => return (UpdateCheck::NotAllowed, None),
                    CheckDecision::NotDue => return (UpdateCheck::NotDue, None),
                    CheckDecision::Check => {}
                }
                requests.fetch_add(1, Ordering::SeqCst);
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                if let Some(hold) = hold {
                    hold.await.unwrap();
                }
                in_flight.fetch_sub(1, Ordering::SeqCst);
                match version {
                    Some(version) => {
                        let offer = UpdateOffer {
                            version,
                            current_version: "0.1.0".into(),
                            notes: None,
                            date: None,
                        };
                        (UpdateCheck::Available { offer }, Some(2))
                    }
                    None => (UpdateCheck::UpToDate, None),
                }
            })
        }
    }

    fn requests(&self) -> usize {
        self.requests.load(Ordering::SeqCst)
    }
}

/// Lets a held request go once the other checks had their turns to run.
async fn release_soon(release: oneshot::Sender<()>) {
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    release.send(()).unwrap();
}

#[tokio::test]
async fn nothing_is_asked_while_the_person_has_not_allowed_it() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path());
    let (checks, server) = (Checks::default(), Server::default());
    for choice in ["undecided", "off"] {
        if choice != "undecided" {
            choose(&core, choice);
        }
        for (hours, asker) in [(0, Asker::Clock), (1, Asker::Window), (2, Asker::Manual)] {
            let answer =
                checks.run(&core, at(hours + 48), asker, server.ask(Some("0.2.0"), None)).await;
            assert_eq!(answer.unwrap(), UpdateCheck::NotAllowed, "{choice} {asker:?}");
        }
        for day in 1..=30 {
            let answer =
                checks.run(&core, at(24 * day), Asker::Clock, server.ask(Some("0.2.0"), None));
            assert_eq!(answer.await.unwrap(), UpdateCheck::NotAllowed);
        }
    }
    assert_eq!(server.requests(), 0, "no request at all");
    assert_eq!(core.last_update_check(), None, "nothing recorded either");
}

#[tokio::test]
async fn the_clock_checks_once_a_day_and_a_restart_does_not_check_early() {
    let dir = tempfile::tempdir().unwrap();
    let (server, keys) = (Server::default(), Arc::new(EphemeralKeys::default()));
    {
        let core = open_with(dir.path(), keys.clone());
        choose(&core, "ask");
        let checks = Checks::default();
        let up_to_date = checks.run(&core, at(0), Asker::Clock, server.ask(None, None)).await;
        assert_eq!(up_to_date.unwrap(), UpdateCheck::UpToDate);
        for hours in [1, 12, 23] {
            let answer = checks.run(&core, at(hours), Asker::Clock, server.ask(None, None)).await;
            assert_eq!(answer.unwrap(), UpdateCheck::NotDue, "{hours} h");
        }
        assert_eq!(server.requests(), 1);
        core.close();
    }
    // The app restarted (a new core and new checks over the same folder) 23 hours later.
    let core = open_with(dir.path(), keys);
    let checks = Checks::default();
    let answer = checks.run(&core, at(23), Asker::Window, server.ask(None, None)).await;
    assert_eq!(answer.unwrap(), UpdateCheck::NotDue);
    assert_eq!(server.requests(), 1, "the time of the last check survived the restart");
    // A day after the last check, the clock of the app kept running asks again.
    let answer = checks.run(&core, at(24), Asker::Clock, server.ask(Some("0.2.0"), None)).await;
    assert!(matches!(answer.unwrap(), UpdateCheck::Available { .. }));
    assert_eq!(server.requests(), 2);
    assert_eq!(core.last_update_check(), Some(at(24)));
}

#[tokio::test]
async fn two_checks_never_run_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path());
    choose(&core, "ask");
    let (checks, server) = (Checks::default(), Server::default());
    let (release, hold) = oneshot::channel();
    let clock = checks.run(&core, at(0), Asker::Clock, server.ask(Some("0.2.0"), Some(hold)));
    // The window starts while the clock's request is out.
    let window = checks.run(&core, at(0), Asker::Window, server.ask(Some("0.2.0"), None));
    let release = release_soon(release);
    let (clock, window, ()) = tokio::join!(clock, window, release);
    assert!(matches!(clock.unwrap(), UpdateCheck::Available { .. }));
    assert_eq!(server.requests(), 1, "the window's check waited and was not due");
    assert_eq!(server.most_at_once.load(Ordering::SeqCst), 1);
    // It is shown what the clock found, without a request of its own.
    let UpdateCheck::Available { offer } = window.unwrap() else { panic!("no offer") };
    assert_eq!(offer.version, "0.2.0");
    // "Check now" while the next day's clock check is out: it asks too, but after it.
    let (release, hold) = oneshot::channel();
    let clock = checks.run(&core, at(30), Asker::Clock, server.ask(None, Some(hold)));
    let manual = checks.run(&core, at(30), Asker::Manual, server.ask(Some("0.2.1"), None));
    let release = release_soon(release);
    let (clock, manual, ()) = tokio::join!(clock, manual, release);
    assert_eq!(clock.unwrap(), UpdateCheck::UpToDate);
    assert!(matches!(manual.unwrap(), UpdateCheck::Available { .. }));
    assert_eq!(server.requests(), 3);
    assert_eq!(server.most_at_once.load(Ordering::SeqCst), 1, "one after the other");
}

#[tokio::test]
async fn an_update_the_clock_found_is_shown_to_a_window_once_and_kept_for_the_install() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path());
    choose(&core, "ask");
    let (checks, server) = (Checks::default(), Server::default());
    assert_eq!(checks.update(), None);
    let found = checks.run(&core, at(0), Asker::Clock, server.ask(Some("0.2.0"), None)).await;
    assert!(matches!(found.unwrap(), UpdateCheck::Available { .. }));
    assert_eq!((checks.update(), checks.available().as_deref()), (Some(2), Some("0.2.0")));
    // The window opened from the tray an hour later: shown once, no request.
    let shown = checks.run(&core, at(1), Asker::Window, server.ask(None, None)).await;
    assert!(matches!(shown.unwrap(), UpdateCheck::Available { .. }));
    let again = checks.run(&core, at(2), Asker::Window, server.ask(None, None)).await;
    assert_eq!(again.unwrap(), UpdateCheck::NotDue, "\"Later\" is not asked again");
    assert_eq!(checks.update(), Some(2), "still there to install (Settings, the tray)");
    assert_eq!(server.requests(), 1);
    // Checks turned off: the update found is let go, nothing to install.
    choose(&core, "off");
    let off = checks.run(&core, at(3), Asker::Window, server.ask(None, None)).await;
    assert_eq!(off.unwrap(), UpdateCheck::NotAllowed);
    assert_eq!((checks.update(), checks.available()), (None, None));
}

#[tokio::test]
async fn a_check_that_finds_nothing_lets_go_of_an_older_offer() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path());
    choose(&core, "ask");
    let (checks, server) = (Checks::default(), Server::default());
    checks.run(&core, at(0), Asker::Clock, server.ask(Some("0.2.0"), None)).await.unwrap();
    // "Check now" a little later: the server no longer offers it (withdrawn).
    let now = checks.run(&core, at(1), Asker::Manual, server.ask(None, None)).await;
    assert_eq!(now.unwrap(), UpdateCheck::UpToDate);
    assert_eq!(checks.update(), None);
    assert_eq!(server.requests(), 2);
}

#[tokio::test]
async fn the_trays_update_item_shows_the_update_found_again() {
    let dir = tempfile::tempdir().unwrap();
    let core = open(dir.path());
    choose(&core, "ask");
    let (checks, server) = (Checks::default(), Server::default());
    let found = checks.run(&core, at(0), Asker::Window, server.ask(Some("0.2.0"), None)).await;
    assert!(matches!(found.unwrap(), UpdateCheck::Available { .. }), "shown at the start");
    let later = checks.run(&core, at(1), Asker::Window, server.ask(None, None)).await;
    assert_eq!(later.unwrap(), UpdateCheck::NotDue);
    checks.show_again();
    let again = checks.run(&core, at(2), Asker::Window, server.ask(None, None)).await;
    assert!(matches!(again.unwrap(), UpdateCheck::Available { .. }), "the tray asked for it");
    assert_eq!(server.requests(), 1);
}
