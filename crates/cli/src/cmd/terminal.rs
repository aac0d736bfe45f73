//! The terminal of `vibe chat`: one reader owns stdin and hands its lines out in order — to
//! the REPL for messages, to the approver for answers — and Ctrl-C presses arrive as a queue,
//! so every prompt (a message or an approval, the first turn or a later one) can be
//! interrupted. Nothing else in the process reads stdin. What a line or a Ctrl-C means is the
//! chat command's decision, not this module's.

use std::io::Write as _;
use std::sync::Arc;

use futures::future::BoxFuture;
use tokio::sync::{Mutex, mpsc};
use vibe_core::app::App;
use vibe_core::approvals::{ApprovalDecision, ApprovalRequest, Approver};
use vibe_core::input::{CappedLines, LINE_CAP};

/// Lines of stdin and Ctrl-C presses, each taken by one waiter at a time.
pub struct Terminal {
    /// `None` until the first line is asked for: stdin is read only when something needs it
    /// (a background `vibe chat "…" &` is not stopped by the terminal for reading it).
    lines: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
    interrupts: Mutex<mpsc::UnboundedReceiver<()>>,
    /// Why the input ended early (a line over the cap, a read error): the REPL then ends
    /// with this error, not as if the input had simply ended.
    failed: Arc<std::sync::Mutex<Option<String>>>,
}

impl Terminal {
    /// Start listening for Ctrl-C (from now on it no longer ends the process: each press is
    /// queued for [`Terminal::interrupted`]). Needs a running tokio runtime.
    pub fn start() -> Arc<Self> {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if tx.send(()).is_err() {
                    break;
                }
            }
        });
        Arc::new(Self {
            lines: Mutex::new(None),
            interrupts: Mutex::new(rx),
            failed: Arc::default(),
        })
    }

    /// The next line of stdin (without its line end); `None` at end of input.
    pub async fn next_line(&self) -> Option<String> {
        let mut lines = self.lines.lock().await;
        let rx = lines.get_or_insert_with(|| spawn_reader(self.failed.clone()));
        rx.recv().await
    }

    /// Why the input ended early, when it did not simply end (see [`Terminal::next_line`]).
    pub fn input_error(&self) -> Option<String> {
        self.failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// Wait for the next Ctrl-C press (presses made while nobody waited are kept in order).
    pub async fn interrupted(&self) {
        if self.interrupts.lock().await.recv().await.is_none() {
            // The listener is gone (no signal support): never interrupted.
            std::future::pending::<()>().await;
        }
    }
}

/// A thread that reads stdin line by line until its end and sends each line; an error ends
/// the input and is kept in `failed`.
fn spawn_reader(failed: Arc<std::sync::Mutex<Option<String>>>) -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    let started = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let stdin = std::io::stdin().lock();
        for line in CappedLines::new(stdin, "stdin", LINE_CAP) {
            let line = match line {
                Ok(line) => line,
                Err(e) => {
                    let why = format!("{e}; input ends here");
                    *failed.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(why);
                    break;
                }
            };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    if let Err(e) = started {
        tracing::warn!(error = %e, "cannot start the stdin reader; input reads as ended");
    }
    rx
}

/// Asks the person on the terminal: the question on stderr, the answer the next line of stdin
/// (`y` or `yes` approves; anything else, or the end of input, denies). A connection's tool
/// also offers `a` / `always`: approved, and that tool of that server always allowed from now
/// on (written to the server's `always_allow`, as the app's "Always allow" does).
pub struct TerminalApprover {
    terminal: Arc<Terminal>,
    app: Arc<App>,
}

impl TerminalApprover {
    pub fn new(terminal: Arc<Terminal>, app: Arc<App>) -> Self {
        Self { terminal, app }
    }
}

/// What a line answers to an approval question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Yes,
    No,
    Always,
}

/// `always` is only an answer where it was offered (a connection's tool).
fn answer(line: &str, always_offered: bool) -> Answer {
    match line.trim().to_lowercase().as_str() {
        "y" | "yes" => Answer::Yes,
        "a" | "always" if always_offered => Answer::Always,
        _ => Answer::No,
    }
}

impl Approver for TerminalApprover {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        Box::pin(async move {
            let ask = match &request.connection {
                Some(c) => format!(
                    "allow {} of the connection {} ({}) — {}? [y]es / [n]o / [a]lways ",
                    c.tool,
                    c.server,
                    crate::render::connection_hints(c),
                    request.reason
                ),
                None => format!("allow {} — {}? [y/N] ", request.tool, request.reason),
            };
            eprint!("{}", crate::render::terminal_safe(&ask));
            let _ = std::io::stderr().flush();
            let line = self.terminal.next_line().await.unwrap_or_default();
            let answer = answer(&line, request.connection.is_some());
            if answer == Answer::Always
                && let Some(c) = &request.connection
            {
                // The call goes ahead either way; a setting that cannot be written is said
                // (the next call asks again).
                match self.app.always_allow_mcp_tool(&c.server, &c.tool) {
                    Ok(()) => eprintln!(
                        "{}",
                        crate::render::terminal_safe(&format!(
                            "{} of {} is always allowed from now on (mcp.servers.{}.always_allow)",
                            c.tool, c.server, c.server
                        ))
                    ),
                    Err(e) => eprintln!("warning: cannot save \"always allow\": {e}"),
                }
            }
            ApprovalDecision { approved: answer != Answer::No, by: vibe_wire::ApprovalSource::User }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Answer, answer};

    #[test]
    fn always_is_an_answer_only_where_it_was_offered() {
        assert_eq!(answer(" A ", true), Answer::Always);
        assert_eq!(answer("always", true), Answer::Always);
        assert_eq!(answer("always", false), Answer::No);
        assert_eq!(answer("Yes", false), Answer::Yes);
        assert_eq!(answer("", true), Answer::No);
        assert_eq!(answer("nope", true), Answer::No);
    }
}
