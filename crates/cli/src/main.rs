//! `vibe`: entry point. Parses the command line, resolves the data dir, dispatches to one
//! command module, and reports errors as one line on stderr (non-zero exit).

mod cli;
mod cmd;
mod ctx;
mod global;
mod output;
mod passphrase;
mod render;

use clap::Parser;

use crate::cli::{Cli, Command};
use crate::ctx::Ctx;

/// mimalloc instead of glibc's malloc: a chat turn allocates and frees small strings and JSON
/// values by the thousand, and glibc's allocator was a quarter of its instructions
/// (docs/performance.md, "How the turn got here").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    quiet_on_closed_pipe();
    let cli = Cli::parse();
    init_tracing(cli.global.verbose);
    let ctx = Ctx::new(&cli.global);
    let result = match cli.command {
        Command::State(args) => cmd::state::run(&ctx, args),
        Command::Profile(args) => cmd::profile::run(&ctx, args),
        Command::Db(args) => cmd::db::run(&ctx, args),
        Command::Skills(args) => cmd::skills::run(&ctx, args),
        Command::Llm(args) => cmd::llm::run(&ctx, args),
        Command::Models(args) => cmd::models::run(&ctx, args),
        Command::Mcp(args) => cmd::mcp::run(&ctx, args),
        Command::Runs(args) => cmd::runs::run(&ctx, args),
        Command::Chat(args) => cmd::chat::run(&ctx, args),
        Command::Conversations(args) => cmd::conversations::run(&ctx, args),
        Command::Eval(args) => cmd::eval::run(&ctx, args),
        Command::Bench(args) => cmd::bench::run(&ctx, args),
        Command::Protocol(args) => cmd::protocol::run(&ctx, args),
        Command::Safety(args) => cmd::safety::run(&ctx, args),
        Command::Memory(args) => cmd::memory::run(&ctx, args),
        Command::Checkin(args) => cmd::journal::checkin(&ctx, args),
        Command::Journal(args) => cmd::journal::run(&ctx, args),
        Command::Today(args) => cmd::today::run(&ctx, args),
        Command::Insights(args) => cmd::insights::run(&ctx, args),
        Command::Backup(args) => cmd::backup::run(&ctx, args),
        Command::Export(args) => cmd::backup::export(&ctx, args),
        Command::Erase(args) => cmd::backup::erase(&ctx, args),
        Command::Sync(args) => cmd::sync::run(&ctx, args),
    };
    if let Err(err) = result {
        output::report_error(&ctx, &err);
        std::process::exit(1);
    }
}

/// `vibe … | head` (stdout) or `vibe … 2>&1 | head` (stderr too): once the reader is gone, the
/// next `print!`/`eprint!` panics ("failed printing to stdout: Broken pipe"). That is no
/// error of vibe's: end quietly, as `output::out_line` does, after writing what a run's log
/// still holds. Any other panic is reported as before.
fn quiet_on_closed_pipe() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or_default();
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            vibe_core::audit::write_waiting(std::time::Duration::from_secs(1));
            std::process::exit(0);
        }
        report(info);
    }));
}

fn init_tracing(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("VIBE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).init();
}
