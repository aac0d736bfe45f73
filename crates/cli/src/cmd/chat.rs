//! `vibe chat`: one turn (or a REPL when no message is given) through the chat service, the
//! reply streaming to stdout as it comes. With `--json`, one event per line on stdout and
//! nothing else. Approvals are asked on the terminal (`terminal`: the one reader of stdin),
//! or decided by `--approve all|none`. Ctrl-C cancels a turn, or ends the REPL at its
//! prompt. The app (`vibe_core::app::App`) checks the settings and the endpoint before
//! anything is stored.

use std::io::{IsTerminal as _, Write as _};
use std::sync::Arc;

use anyhow::Context as _;
use clap::{Args, ValueEnum};
use tokio_util::sync::CancellationToken;
use vibe_core::app::App;
use vibe_core::approvals::{ApprovalPolicy, Approver};
use vibe_core::emit::EventSink;
use vibe_wire::command::{SendMessageRequest, TurnInput};
use vibe_wire::{StopReason, VoiceMode};

use crate::cmd::llm::EndpointArgs;
use crate::cmd::terminal::{Terminal, TerminalApprover};
use crate::ctx::Ctx;
use crate::output::AlreadyReported;
use crate::render::{EventPrinter, PrinterSink};

/// The REPL's message prompt (on stderr, so stdout keeps only the reply or the events).
const PROMPT: &str = "› ";

#[derive(Debug, Args)]
pub struct ChatArgs {
    /// What to say. Without it, a REPL reads one message per line (Ctrl-D to end).
    message: Option<String>,
    /// Continue this conversation (see `vibe conversations list`).
    #[arg(long, value_name = "ID")]
    conversation: Option<String>,
    /// Activate this skill first (e.g. bazi), as if picked by the person.
    #[arg(long, value_name = "S")]
    skill: Option<String>,
    /// Scenario of the skill (default: the skill's default_scenario).
    #[arg(long, value_name = "X", requires = "skill")]
    scenario: Option<String>,
    /// Voice mode: warm, direct or playful.
    #[arg(long, value_name = "MODE", value_parser = voice_mode)]
    voice_mode: Option<VoiceMode>,
    /// Answer the conversation's last message again (needs --conversation).
    #[arg(long, conflicts_with = "message")]
    retry: bool,
    /// How tool calls that need approval are decided. Default: ask on a terminal, else none.
    #[arg(long, value_enum)]
    approve: Option<ApproveMode>,
    /// Extra skills folder (highest precedence).
    #[arg(long, value_name = "DIR")]
    skills_dir: Option<std::path::PathBuf>,
    /// Seed for random draws (tarot), for reproducible runs.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Show the model's reasoning text (stderr).
    #[arg(long)]
    show_reasoning: bool,
    #[command(flatten)]
    endpoint: EndpointArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ApproveMode {
    Ask,
    All,
    None,
}

/// Remembers the last `error` event of a run, for the closing error line.
#[derive(Default)]
struct LastError(std::sync::Mutex<Option<String>>);

impl LastError {
    fn get(&self) -> Option<String> {
        self.0.lock().ok().and_then(|g| g.clone())
    }
}

impl EventSink for LastError {
    fn send(&self, envelope: &vibe_wire::Envelope) {
        if let vibe_wire::Event::Error { error } = &envelope.event
            && let Ok(mut slot) = self.0.lock()
        {
            *slot = Some(format!("{}: {}", error.kind, error.message));
        }
    }
}

/// `--voice-mode`: one of the modes, refused with the list otherwise.
fn voice_mode(text: &str) -> Result<VoiceMode, String> {
    VoiceMode::parse(text.trim()).ok_or_else(|| {
        let known: Vec<&str> = VoiceMode::ALL.iter().map(|m| m.as_str()).collect();
        format!("unknown voice mode `{text}` (use {})", known.join(", "))
    })
}

pub fn run(ctx: &Ctx, args: ChatArgs) -> anyhow::Result<()> {
    let repl = args.message.is_none() && !args.retry;
    let mut overrides = args.endpoint.overrides();
    overrides.skills_dir = crate::cmd::skills::absolute(args.skills_dir.clone())?;
    overrides.seed = args.seed;
    // A session of many turns: run folders made ahead, skill folders watched.
    overrides.long_lived = repl;
    let app = Arc::new(ctx.open_app(overrides)?);
    // Settings and the model first: a configuration error stores nothing.
    for notice in app.prepare_chat()? {
        crate::output::err_line(&format!("notice: {notice}"));
    }
    let recovered = app.recovered();
    if !recovered.runs_closed.is_empty() && !ctx.json {
        eprintln!(
            "notice: closed {} interrupted run(s) from an earlier crash",
            recovered.runs_closed.len()
        );
    }
    if repl && args.skill.is_none() {
        // The prompt is read while the person types the first line (the embedded model only).
        app.warm_up_at_start(args.conversation.clone());
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let outcome = session(ctx, &app, &args).await;
        // Memory passes a reply made due run after it was shown: done before the process ends.
        app.settle().await;
        outcome
    })
}

/// One turn (a message or `--retry`), or the REPL: one message per line until the end of
/// input or a Ctrl-C at the message prompt. Every prompt reads through one [`Terminal`].
async fn session(ctx: &Ctx, app: &Arc<App>, args: &ChatArgs) -> anyhow::Result<()> {
    let terminal = Terminal::start();
    let ask = || Arc::new(TerminalApprover::new(terminal.clone(), Arc::clone(app)));
    let approver: Arc<dyn Approver> = match args.approve {
        Some(ApproveMode::All) => Arc::new(ApprovalPolicy::ApproveAll),
        Some(ApproveMode::None) => Arc::new(ApprovalPolicy::DenyAll),
        Some(ApproveMode::Ask) => ask(),
        None if std::io::stdin().is_terminal() => ask(),
        None => Arc::new(ApprovalPolicy::DenyAll),
    };
    let mut conversation = args.conversation.clone();
    if args.message.is_some() || args.retry {
        let input = match &args.message {
            Some(text) if !args.retry => TurnInput::Say { text: text.clone() },
            _ => TurnInput::Retry,
        };
        let first = SendMessageRequest {
            conversation_id: conversation,
            input,
            skill: args.skill.clone(),
            scenario: args.scenario.clone(),
            voice_mode: args.voice_mode,
            run_id: None,
        };
        return turn(ctx, app, first, approver, args.show_reasoning, &terminal).await.map(|_| ());
    }
    // REPL: one message per line. Skill folders edited meanwhile are picked up by the
    // watcher the app started (and served from memory between edits).
    let mut pending_skill = args.skill.clone();
    if !ctx.json {
        eprintln!("vibe chat — one message per line, Ctrl-D or Ctrl-C to end");
    }
    loop {
        eprint!("{PROMPT}");
        let _ = std::io::stderr().flush();
        let line = tokio::select! {
            line = terminal.next_line() => line,
            () = terminal.interrupted() => {
                eprintln!();
                break;
            }
        };
        let Some(line) = line else {
            // A line over the cap (or a read error) ended the input: a failure, not an end.
            if let Some(why) = terminal.input_error() {
                return Err(anyhow::anyhow!(why));
            }
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        let request = SendMessageRequest {
            conversation_id: conversation.clone(),
            input: TurnInput::Say { text: line },
            skill: pending_skill.take(),
            scenario: args.scenario.clone(),
            voice_mode: args.voice_mode,
            run_id: None,
        };
        let result =
            turn(ctx, app, request, approver.clone(), args.show_reasoning, &terminal).await;
        match result {
            Ok(id) => conversation = Some(id),
            Err(e) => crate::output::err_line(&format!("error: {}", crate::output::message(&e))),
        }
    }
    Ok(())
}

/// Run one turn; returns the conversation id. Ctrl-C cancels the turn (at an approval
/// prompt too); a second Ctrl-C before it has wound down ends the process. A run that ended
/// on a model or internal error is an error (exit 1) after its events were printed.
async fn turn(
    ctx: &Ctx,
    app: &App,
    request: SendMessageRequest,
    approver: Arc<dyn Approver>,
    show_reasoning: bool,
    terminal: &Terminal,
) -> anyhow::Result<String> {
    let printer =
        Arc::new(PrinterSink::new(EventPrinter::new(ctx.json).show_reasoning(show_reasoning)));
    let cancel = CancellationToken::new();
    let last_error = Arc::new(LastError::default());
    let sinks: Vec<Arc<dyn EventSink>> = vec![printer.clone(), last_error.clone()];
    let run = app.send_message_with(request, sinks, approver, cancel.clone());
    tokio::pin!(run);
    let result = loop {
        tokio::select! {
            result = &mut run => break result,
            () = terminal.interrupted() => {
                if cancel.is_cancelled() {
                    printer.finish();
                    eprintln!("stopped");
                    // The run's log is not closed: write what waits in it first.
                    vibe_core::audit::write_waiting(std::time::Duration::from_secs(1));
                    std::process::exit(130);
                }
                cancel.cancel();
            }
        }
    };
    printer.finish();
    let result = result?;
    match result.stop_reason {
        // A set-up problem found only at the call (e.g. a model script that ran out): the
        // message is kept, but retrying the same set-up cannot help.
        StopReason::ModelError if last_error.get().is_some_and(|e| e.starts_with("config:")) => {
            Err(anyhow::Error::new(AlreadyReported(format!(
                "the model could not be used (see the error above); fix the set-up, then send the message again with `vibe chat --retry --conversation {}`",
                result.conversation_id
            ))))
        }
        StopReason::ModelError => Err(anyhow::Error::new(AlreadyReported(format!(
            "the model did not answer{}; your message is saved — retry with `vibe chat --retry --conversation {}`",
            last_error.get().map(|e| format!(" ({e})")).unwrap_or_default(),
            result.conversation_id
        )))),
        StopReason::Failed => Err(anyhow::Error::new(AlreadyReported(format!(
            "the run failed{}",
            last_error.get().map(|e| format!(": {e}")).unwrap_or_default()
        )))),
        _ => Ok(result.conversation_id),
    }
}
