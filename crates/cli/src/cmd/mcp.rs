//! `vibe mcp list|add|rm|enable|disable|tools|test|import`: MCP servers (docs/mcp.md) through
//! the app's MCP commands. Adapts only: parses, makes folders absolute, reads a secret given
//! by name alone from this shell's environment, calls the app, prints (with `--json`, the
//! wire DTO as one JSON object). A failed `test` exits non-zero.

use std::path::PathBuf;

use anyhow::{Context as _, bail};
use clap::{Args, Subcommand};
use vibe_core::app::Overrides;
use vibe_wire::command::{
    AddMcpServerRequest, ImportMcpServersRequest, McpSecret, McpServerRequest, McpServerView,
    SetMcpServerEnabledRequest, SetMcpServerGrantRequest,
};
use vibe_wire::settings::McpSandbox;

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    command: McpCommand,
}

#[derive(Debug, Subcommand)]
enum McpCommand {
    /// The servers, whether they are on, and what each may touch.
    List,
    /// Add a server: `vibe mcp add NAME [--allow-network] [--read DIR]… -- COMMAND ARGS…`
    /// (started by the app, sandboxed) or `vibe mcp add NAME --url URL [--header K=V]…`.
    Add(AddArgs),
    /// Change what a server may touch, without removing and adding it again: `vibe mcp edit
    /// NAME [--allow-network] [--read DIR]… [--write DIR]… [--unconfined]` (the grant becomes
    /// exactly what the flags say; no flag: confined, no network, no folders).
    Edit(EditArgs),
    /// Remove a server and its secrets from the keychain.
    Rm(NameArg),
    /// Turn a server on.
    Enable(NameArg),
    /// Turn a server off (kept, not connected).
    Disable(NameArg),
    /// Connect and list the server's tools.
    Tools(NameArg),
    /// Connect, list the tools, say whether it works (non-zero exit when not).
    Test(NameArg),
    /// Add the servers of a Claude Desktop or Cursor config file (`mcpServers`); secrets go
    /// to the keychain.
    Import(ImportArgs),
}

#[derive(Debug, Args)]
struct NameArg {
    /// The server's name (see `vibe mcp list`).
    name: String,
}

#[derive(Debug, Args)]
struct ImportArgs {
    /// e.g. ~/.config/Claude/claude_desktop_config.json or ~/.cursor/mcp.json
    file: PathBuf,
}

#[derive(Debug, Args)]
struct AddArgs {
    /// The name tools reach the model under (`mcp__NAME__TOOL`): letters, digits, `-`, `_`.
    name: String,
    /// A streamable HTTP server's URL (instead of a command).
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// An HTTP header `K=V` (its value goes to the keychain); `K` alone takes the value of
    /// the environment variable K.
    #[arg(long = "header", value_name = "K=V")]
    headers: Vec<String>,
    /// An environment variable `K=V` for the server (its value goes to the keychain); `K`
    /// alone takes the value of K from this shell.
    #[arg(long = "env", value_name = "K=V")]
    env: Vec<String>,
    #[command(flatten)]
    grant: GrantArgs,
    /// The command and its arguments, after `--`.
    #[arg(last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// What a stdio server may touch (`add`, and `edit`, which replaces the grant whole).
#[derive(Debug, Args)]
struct GrantArgs {
    /// Let the server use the network.
    #[arg(long)]
    allow_network: bool,
    /// A folder the server may read (repeatable).
    #[arg(long = "read", value_name = "DIR")]
    read: Vec<PathBuf>,
    /// A folder the server may read and write (repeatable).
    #[arg(long = "write", value_name = "DIR")]
    write: Vec<PathBuf>,
    /// Run it without the sandbox, with all your rights.
    #[arg(long)]
    unconfined: bool,
}

impl GrantArgs {
    /// The grant, its folders made absolute.
    fn sandbox(self) -> anyhow::Result<McpSandbox> {
        let absolute = |dirs: Vec<PathBuf>| -> anyhow::Result<Vec<String>> {
            dirs.iter()
                .map(|d| {
                    std::path::absolute(d)
                        .map(|p| p.display().to_string())
                        .with_context(|| format!("cannot resolve {}", d.display()))
                })
                .collect()
        };
        Ok(McpSandbox {
            network: self.allow_network,
            read: absolute(self.read)?,
            write: absolute(self.write)?,
            unconfined: self.unconfined,
        })
    }
}

#[derive(Debug, Args)]
struct EditArgs {
    /// The server's name (see `vibe mcp list`).
    name: String,
    #[command(flatten)]
    grant: GrantArgs,
}

pub fn run(ctx: &Ctx, args: McpArgs) -> anyhow::Result<()> {
    let app = ctx.open_app(Overrides::from_env())?;
    let runtime = || tokio::runtime::Runtime::new().context("cannot start the async runtime");
    match args.command {
        McpCommand::List => {
            let list = app.list_mcp_servers();
            print(ctx, &serde_json::to_value(&list)?, || {
                if list.servers.is_empty() {
                    return "no MCP servers yet: `vibe mcp add NAME -- COMMAND ARGS…` or `vibe mcp import FILE`".into();
                }
                list.servers.iter().map(server_text).collect::<Vec<_>>().join("\n")
            });
        }
        McpCommand::Add(args) => {
            let request = add_request(args)?;
            let view = app.add_mcp_server(request)?;
            print(ctx, &serde_json::to_value(&view)?, || {
                let mut text = format!("added {}\n", view.name);
                text.push_str(&server_text(&view));
                text.push_str(&format!("\ntry it: `vibe mcp test {}`", view.name));
                text
            });
        }
        McpCommand::Edit(args) => {
            let request =
                SetMcpServerGrantRequest { name: args.name, sandbox: args.grant.sandbox()? };
            let view = app.set_mcp_server_grant(&request)?;
            print(ctx, &serde_json::to_value(&view)?, || {
                format!("changed what {} may touch\n{}", view.name, server_text(&view))
            });
        }
        McpCommand::Rm(arg) => {
            let removed = app.remove_mcp_server(&McpServerRequest { name: arg.name })?;
            print(ctx, &serde_json::to_value(&removed)?, || format!("removed {}", removed.name));
        }
        McpCommand::Enable(arg) => enable(ctx, &app, arg.name, true)?,
        McpCommand::Disable(arg) => enable(ctx, &app, arg.name, false)?,
        McpCommand::Tools(arg) => {
            let list =
                runtime()?.block_on(app.mcp_server_tools(&McpServerRequest { name: arg.name }))?;
            print(ctx, &serde_json::to_value(&list)?, || {
                let mut lines = vec![format!("{} tools of {}:", list.tools.len(), list.server)];
                for t in &list.tools {
                    let mut hints = Vec::new();
                    if t.read_only == Some(true) {
                        hints.push("read-only");
                    }
                    if t.destructive == Some(true) {
                        hints.push("destructive");
                    }
                    if t.always_allow {
                        hints.push("always allowed");
                    }
                    let hints = if hints.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", hints.join(", "))
                    };
                    let about = t.description.as_deref().unwrap_or("").lines().next().unwrap_or("");
                    lines.push(format!("  {}{hints}  {about}", t.name));
                }
                lines.join("\n")
            });
        }
        McpCommand::Test(arg) => {
            let report =
                runtime()?.block_on(app.test_mcp_server(&McpServerRequest { name: arg.name }))?;
            print(ctx, &serde_json::to_value(&report)?, || match &report.error {
                None => {
                    let who = match (&report.server_name, &report.server_version) {
                        (Some(n), Some(v)) => format!(" ({n} {v})"),
                        (Some(n), None) => format!(" ({n})"),
                        _ => String::new(),
                    };
                    format!("{}{who} works: {} tools", report.server, report.tools)
                }
                Some(e) => format!("{} does not work: {}", report.server, e.message),
            });
            if !report.ok {
                std::process::exit(1);
            }
        }
        McpCommand::Import(args) => {
            let json = std::fs::read_to_string(&args.file)
                .with_context(|| format!("cannot read {}", args.file.display()))?;
            let report = app.import_mcp_servers(&ImportMcpServersRequest { json })?;
            print(ctx, &serde_json::to_value(&report)?, || {
                let mut lines = Vec::new();
                for s in &report.added {
                    lines.push(format!("added {}", s.name));
                    lines.push(server_text(s));
                }
                for s in &report.skipped {
                    lines.push(format!("skipped {}: {}", s.name, s.reason));
                }
                if lines.is_empty() {
                    lines.push("the file lists no servers".into());
                }
                lines.join("\n")
            });
        }
    }
    Ok(())
}

fn enable(ctx: &Ctx, app: &vibe_core::app::App, name: String, enabled: bool) -> anyhow::Result<()> {
    let view = app.set_mcp_server_enabled(&SetMcpServerEnabledRequest { name, enabled })?;
    let word = if enabled { "on" } else { "off" };
    print(ctx, &serde_json::to_value(&view)?, || format!("{} is {word}", view.name));
    Ok(())
}

fn add_request(args: AddArgs) -> anyhow::Result<AddMcpServerRequest> {
    let (command, rest) = match args.command.split_first() {
        Some((c, rest)) => (Some(c.clone()), rest.to_vec()),
        None => (None, Vec::new()),
    };
    if command.is_some() == args.url.is_some() {
        bail!(
            "give either the command after `--` (vibe mcp add {} -- npx -y PACKAGE) or --url URL",
            args.name
        );
    }
    Ok(AddMcpServerRequest {
        name: args.name,
        command,
        args: rest,
        env: secrets(&args.env, "--env")?,
        url: args.url,
        headers: secrets(&args.headers, "--header")?,
        sandbox: args.grant.sandbox()?,
    })
}

/// `K=V`, or `K` alone for the value of the environment variable K.
fn secrets(pairs: &[String], flag: &str) -> anyhow::Result<Vec<McpSecret>> {
    pairs
        .iter()
        .map(|p| match p.split_once('=') {
            Some((k, v)) => Ok(McpSecret { name: k.trim().to_string(), value: v.to_string() }),
            None => match std::env::var(p) {
                Ok(v) => Ok(McpSecret { name: p.clone(), value: v }),
                Err(_) => bail!("{flag} {p}: give K=V, or set {p} in this shell's environment"),
            },
        })
        .collect()
}

fn server_text(s: &McpServerView) -> String {
    let state = if s.enabled { "on" } else { "off" };
    let what = match (&s.command, &s.url) {
        (Some(c), _) => std::iter::once(c.as_str())
            .chain(s.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" "),
        (None, Some(u)) => u.clone(),
        (None, None) => String::new(),
    };
    let mut text = format!("{}  [{state}]  {what}\n  {}", s.name, s.permissions);
    if !s.missing_secrets.is_empty() {
        text.push_str(&format!(
            "\n  missing from the keychain: {} (add the server again with them)",
            s.missing_secrets.join(", ")
        ));
    }
    text
}
