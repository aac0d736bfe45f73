//! Printing run events in the terminal, the same way for `vibe chat` (live) and
//! `vibe runs replay` (from events.jsonl). With `--json` every event is one JSON line on stdout
//! and nothing else goes there. Otherwise the reply streams to stdout as it comes and short
//! status lines (see `status`) go to stderr. What a run does is not decided here.

mod protocol;
pub(crate) use protocol::{bar, protocol_lines};
mod sanitize;
pub(crate) use sanitize::terminal_safe;
mod status;
pub(crate) use status::{notice_lines, safety_lines};

/// What a connected server says of a tool, in words ("only reads, reaches the internet").
pub(crate) fn connection_hints(c: &vibe_wire::ApprovalConnection) -> String {
    let hints: Vec<&str> = [
        (c.read_only == Some(true), "only reads"),
        (c.destructive == Some(true), "may delete or overwrite"),
        (c.open_world == Some(true), "reaches the internet or other services"),
    ]
    .into_iter()
    .filter_map(|(on, words)| on.then_some(words))
    .collect();
    if hints.is_empty() { "it says nothing of what it changes".into() } else { hints.join(", ") }
}
#[cfg(test)]
mod tests;

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

use vibe_core::emit::EventSink;
use vibe_wire::{Envelope, Event};

const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

type Out = Box<dyn Write + Send>;

/// Prints the events of runs, one after another. Write errors (a closed pipe) are ignored:
/// printing never stops a run.
pub struct EventPrinter {
    json: bool,
    show_reasoning: bool,
    /// Dim reasoning text (stderr is a terminal and `NO_COLOR` is unset).
    color: bool,
    out: Out,
    err: Out,
    /// stdout holds reply text not yet ended by a newline.
    out_open: bool,
    /// stderr holds streamed reasoning not yet ended by a newline.
    err_open: bool,
}

impl EventPrinter {
    /// A printer on stdout / stderr.
    pub fn new(json: bool) -> Self {
        let color = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Self::with_writers(json, color, Box::new(std::io::stdout()), Box::new(std::io::stderr()))
    }

    fn with_writers(json: bool, color: bool, out: Out, err: Out) -> Self {
        Self { json, show_reasoning: false, color, out, err, out_open: false, err_open: false }
    }

    /// Also stream the model's reasoning (dimmed, on stderr). Off by default.
    pub fn show_reasoning(mut self, show: bool) -> Self {
        self.show_reasoning = show;
        self
    }

    pub fn print(&mut self, envelope: &Envelope) {
        if self.json {
            if let Ok(line) = serde_json::to_string(envelope) {
                let _ = writeln!(self.out, "{line}");
                let _ = self.out.flush();
            }
            return;
        }
        match &envelope.event {
            Event::AssistantDelta { text } => self.reply_text(text),
            Event::ReasoningDelta { text } if self.show_reasoning => self.reasoning_text(text),
            event => {
                if matches!(event, Event::RunFinished { .. }) {
                    self.end_lines();
                }
                let lines = status::status_lines(event);
                if !lines.is_empty() {
                    self.end_lines();
                    for line in lines {
                        let _ = writeln!(self.err, "{}", terminal_safe(&line));
                    }
                    let _ = self.err.flush();
                }
            }
        }
    }

    /// End any line left open and flush. Call once the run is over.
    pub fn finish(&mut self) {
        self.end_lines();
        let _ = self.out.flush();
        let _ = self.err.flush();
    }

    fn reply_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.end_reasoning();
        let text = terminal_safe(text);
        let _ = self.out.write_all(text.as_bytes());
        let _ = self.out.flush();
        self.out_open = !text.ends_with('\n');
    }

    fn reasoning_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        self.end_reply();
        let text = terminal_safe(text);
        let _ = if self.color {
            write!(self.err, "{DIM}{text}{RESET}")
        } else {
            write!(self.err, "{text}")
        };
        let _ = self.err.flush();
        self.err_open = !text.ends_with('\n');
    }

    fn end_lines(&mut self) {
        self.end_reply();
        self.end_reasoning();
    }

    fn end_reply(&mut self) {
        if self.out_open {
            let _ = writeln!(self.out);
            let _ = self.out.flush();
            self.out_open = false;
        }
    }

    fn end_reasoning(&mut self) {
        if self.err_open {
            let _ = writeln!(self.err);
            let _ = self.err.flush();
            self.err_open = false;
        }
    }
}

/// An [`EventPrinter`] as a sink of an [`Emitter`](vibe_core::emit::Emitter), for `vibe chat`.
#[allow(dead_code, reason = "used by `vibe chat` (cmd/chat.rs) once it is wired in")]
pub struct PrinterSink(Mutex<EventPrinter>);

#[allow(dead_code, reason = "used by `vibe chat` (cmd/chat.rs) once it is wired in")]
impl PrinterSink {
    pub fn new(printer: EventPrinter) -> Self {
        Self(Mutex::new(printer))
    }

    /// End open lines and flush (see [`EventPrinter::finish`]).
    pub fn finish(&self) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).finish();
    }
}

impl EventSink for PrinterSink {
    fn send(&self, envelope: &Envelope) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).print(envelope);
    }
}
