//! Quitting on a signal: a session's logout (SIGTERM), Ctrl-C in a terminal (SIGINT) or a closed
//! terminal (SIGHUP) quits the app the way the tray's Quit does, so the exit path runs (the run
//! log written, the database's session closed: `main`'s `RunEvent::Exit`). Owns only the signal
//! wiring; what quitting does is `main`'s.

/// Waits for the first quitting signal, then asks the app to exit.
#[cfg(unix)]
pub async fn on_signal(handle: tauri::AppHandle) {
    use tokio::signal::unix::{Signal, SignalKind, signal};
    let listen = |kind: SignalKind, name: &str| {
        signal(kind)
            .map_err(|e| tracing::warn!("{name} will end the app without closing its files: {e}"))
            .ok()
    };
    async fn next(stream: &mut Option<Signal>) {
        match stream {
            Some(stream) => drop(stream.recv().await),
            None => std::future::pending().await,
        }
    }
    let mut term = listen(SignalKind::terminate(), "SIGTERM");
    let mut int = listen(SignalKind::interrupt(), "SIGINT");
    let mut hup = listen(SignalKind::hangup(), "SIGHUP");
    let name = tokio::select! {
        () = next(&mut term) => "SIGTERM",
        () = next(&mut int) => "SIGINT",
        () = next(&mut hup) => "SIGHUP",
    };
    tracing::info!(signal = name, "quitting on a signal");
    handle.exit(0);
}

/// Other platforms end the process as their default says.
#[cfg(not(unix))]
pub async fn on_signal(_handle: tauri::AppHandle) {}
