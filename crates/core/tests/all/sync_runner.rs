//! Sync in the background (`vibe_core::app::run_sync_in_background`) with a real folder target
//! and short intervals: a change is sent after the debounce and a second device receives it at
//! its periodic run; nothing runs while paused or not set up; a failure is kept in the status
//! (a run never overlapping another is a unit test of `sync_runner.rs`). Waits are bounded
//! polls of the status (generous deadlines, no assertion on how fast anything is).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::sync::journal_add;
use vibe_core::app::{App, AppPaths, EphemeralKeys, Overrides, SyncTiming, run_sync_in_background};
use vibe_wire::command::{
    JournalListRequest, SyncJoinRequest, SyncPauseRequest, SyncSetupRequest, SyncStatusView,
};
use vibe_wire::settings::SyncTarget;

fn open(dir: &std::path::Path) -> Arc<App> {
    let overrides = Overrides {
        db_passphrase: Some(zeroize::Zeroizing::new("a runner test passphrase".to_string())),
        ..Overrides::default()
    };
    Arc::new(
        App::open_with_keys(AppPaths::new(dir), overrides, Arc::new(EphemeralKeys::default()))
            .unwrap(),
    )
}

fn folder(path: &std::path::Path) -> SyncTarget {
    SyncTarget::Folder { path: path.to_str().unwrap().into() }
}

fn quick(every: Duration) -> SyncTiming {
    SyncTiming { poll: Duration::from_millis(20), debounce: Duration::from_millis(100), every }
}

/// Polls the status until `done` holds (fails after a generous deadline).
async fn wait_for(app: &App, what: &str, done: impl Fn(&SyncStatusView) -> bool) -> SyncStatusView {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let status = app.sync_status().unwrap();
        if done(&status) {
            return status;
        }
        assert!(Instant::now() < deadline, "never {what}: {status:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_is_sent_after_the_debounce_and_another_device_receives_it_periodically() {
    let (target, a_dir, b_dir) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = open(a_dir.path());
    let setup = SyncSetupRequest { target: folder(target.path()), secret: None };
    let code = a.sync_setup(&setup).await.unwrap().code;
    let mut watch = a.sync_watch();
    let runner =
        tokio::spawn(run_sync_in_background(Arc::downgrade(&a), quick(Duration::from_secs(3600))));

    journal_add(&a, "written on the first device runner-marker");
    let sent =
        wait_for(&a, "sent", |s| s.pending_changes == 0 && s.activity.last_run_at.is_some()).await;
    let run = sent.activity.last_run.clone().expect("the run that worked");
    assert!(run.sent >= 1, "{run:?}");
    assert!(!sent.activity.running && sent.activity.last_error.is_none(), "{sent:?}");
    assert!(watch.has_changed().unwrap(), "watchers were told");
    watch.mark_unchanged();

    let b = open(b_dir.path());
    let join = SyncJoinRequest { target: folder(target.path()), secret: None, code };
    b.sync_join(&join).await.unwrap();
    // No change on B: only the periodic run brings A's entry.
    let b_runner =
        tokio::spawn(run_sync_in_background(Arc::downgrade(&b), quick(Duration::from_millis(200))));
    wait_for(&b, "received", |s| s.activity.last_run.as_ref().is_some_and(|r| r.received >= 1))
        .await;
    let list = b.journal_list(&JournalListRequest::default()).unwrap();
    assert_eq!(list.entries.len(), 1);
    assert!(list.entries[0].text.contains("runner-marker"));
    runner.abort();
    b_runner.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nothing_runs_while_paused_or_not_set_up_and_resuming_sends() {
    let (target, a_dir, plain_dir) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plain = open(plain_dir.path());
    let plain_runner = tokio::spawn(run_sync_in_background(
        Arc::downgrade(&plain),
        quick(Duration::from_millis(50)),
    ));
    let a = open(a_dir.path());
    a.sync_setup(&SyncSetupRequest { target: folder(target.path()), secret: None }).await.unwrap();
    let paused = a.sync_pause(&SyncPauseRequest { paused: true }).unwrap();
    assert!(paused.paused);
    let runner =
        tokio::spawn(run_sync_in_background(Arc::downgrade(&a), quick(Duration::from_millis(50))));
    journal_add(&a, "kept here while paused");
    // Many polls, debounces and periods go by.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let status = a.sync_status().unwrap();
    assert_eq!(status.pending_changes, 1, "{status:?}");
    assert!(status.activity.last_run_at.is_none(), "{status:?}");
    assert!(plain.sync_status().unwrap().activity.last_run_at.is_none());
    let settings = std::fs::read_to_string(a_dir.path().join("settings.json")).unwrap();
    assert!(settings.contains("\"paused\": true"), "{settings}");

    assert!(!a.sync_pause(&SyncPauseRequest { paused: false }).unwrap().paused);
    wait_for(&a, "sent after resuming", |s| s.pending_changes == 0).await;
    runner.abort();
    plain_runner.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_background_run_is_kept_in_the_status_and_a_later_one_clears_it() {
    let (target, a_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let a = open(a_dir.path());
    a.sync_setup(&SyncSetupRequest { target: folder(target.path()), secret: None }).await.unwrap();
    // The folder's key check is gone (as if the sync tool had not brought it yet).
    let check = target.path().join("key-check.vlsync");
    let kept = std::fs::read(&check).unwrap();
    std::fs::remove_file(&check).unwrap();
    let runner =
        tokio::spawn(run_sync_in_background(Arc::downgrade(&a), quick(Duration::from_millis(100))));
    journal_add(&a, "waits for the folder");
    let failed = wait_for(&a, "failed", |s| s.activity.last_error.is_some()).await;
    let error = failed.activity.last_error.unwrap();
    assert!(!error.message.is_empty(), "{error:?}");
    assert_eq!(failed.pending_changes, 1);

    std::fs::write(&check, kept).unwrap();
    let fixed = wait_for(&a, "recovered", |s| s.activity.last_error.is_none()).await;
    assert!(fixed.activity.last_run.is_some_and(|r| r.sent >= 1));
    runner.abort();
}
