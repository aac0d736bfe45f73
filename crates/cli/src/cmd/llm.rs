//! `vibe llm probe|models`: one chat request against the configured (or given) endpoint,
//! printed as the client reconstructed it, and the endpoint's model list, through the app's
//! endpoint commands. Settings come from the `llm` section of settings.json, then
//! `VIBE_LLM_*`, then the flags.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::Value;
use vibe_core::app::{App, Overrides};
use vibe_wire::command::{ListModelsRequest, ProbeError, ProbeRequest, ProbeResponse};

use crate::ctx::Ctx;
use crate::output::print;

#[derive(Debug, Args)]
pub struct LlmArgs {
    #[command(subcommand)]
    command: LlmCommand,
}

#[derive(Debug, Subcommand)]
enum LlmCommand {
    /// Send one chat request and print what came back (text, reasoning, tool calls, usage).
    Probe(ProbeArgs),
    /// List the models the endpoint offers (GET {base_url}/models).
    Models(EndpointArgs),
}

#[derive(Debug, Args)]
pub(crate) struct EndpointArgs {
    /// Endpoint base URL (e.g. http://127.0.0.1:11434/v1, or scripted:PATH). Overrides
    /// settings and VIBE_LLM_BASE_URL.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Model name. Overrides settings and VIBE_LLM_MODEL.
    #[arg(long, value_name = "M")]
    model: Option<String>,
}

#[derive(Debug, Args)]
struct ProbeArgs {
    #[command(flatten)]
    endpoint: EndpointArgs,
    /// The user message.
    #[arg(long, value_name = "TEXT", default_value = "Say hello in one short sentence.")]
    message: String,
    /// A system message to send first.
    #[arg(long, value_name = "TEXT")]
    system: Option<String>,
    /// A JSON file holding an OpenAI `tools` array.
    #[arg(long, value_name = "FILE")]
    tools: Option<PathBuf>,
    /// Retries before the first delta (0: report the first error at once).
    #[arg(long, value_name = "N")]
    retries: Option<u32>,
    /// Send a tiny tool-call probe with native tools and report whether they work.
    #[arg(long)]
    detect: bool,
}

pub fn run(ctx: &Ctx, args: LlmArgs) -> anyhow::Result<()> {
    match args.command {
        LlmCommand::Probe(args) => probe(ctx, args),
        LlmCommand::Models(args) => models(ctx, &args),
    }
}

impl EndpointArgs {
    /// The environment's overrides with these flags on top.
    pub(crate) fn overrides(&self) -> Overrides {
        let mut o = Overrides::from_env();
        if let Some(url) = &self.base_url {
            o.base_url = Some(url.clone());
        }
        if let Some(model) = &self.model {
            o.model_name = Some(model.clone());
        }
        o
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Runtime::new().context("cannot start the async runtime")
}

fn print_notices(app: &App) {
    for notice in app.notices() {
        crate::output::err_line(&format!("notice: {notice}"));
    }
}

fn models(ctx: &Ctx, args: &EndpointArgs) -> anyhow::Result<()> {
    let app = ctx.open_app(args.overrides())?;
    let list = runtime()?.block_on(app.list_models(&ListModelsRequest::default()));
    print_notices(&app);
    let list = list?;
    let value = serde_json::to_value(&list)?;
    print(ctx, &value, || list.models.iter().map(|m| m.id.clone()).collect::<Vec<_>>().join("\n"));
    Ok(())
}

fn probe(ctx: &Ctx, args: ProbeArgs) -> anyhow::Result<()> {
    let response = match probe_request(&args).and_then(|r| {
        let app = ctx.open_app(args.endpoint.overrides())?;
        Ok((app, r))
    }) {
        Ok((app, request)) => {
            let response = runtime()?.block_on(app.probe(&request));
            print_notices(&app);
            response
        }
        // Set-up failures are reported in the same shape, so scripts parse one thing.
        Err(e) => ProbeResponse {
            text: String::new(),
            reasoning: None,
            tool_calls: Vec::new(),
            finish_reason: None,
            usage: None,
            error: Some(ProbeError {
                kind: vibe_wire::ErrorKind::Config,
                message: crate::output::message(&e),
                retry_after_s: None,
            }),
            detect: None,
        },
    };
    let value = serde_json::to_value(&response)?;
    print(ctx, &value, || human(&response));
    if let Some(e) = &response.error {
        if !ctx.json {
            crate::output::err_line(&format!("error: {}", e.message));
        }
        std::process::exit(1);
    }
    Ok(())
}

/// The probe as asked on the command line (the tools file read here).
fn probe_request(args: &ProbeArgs) -> anyhow::Result<ProbeRequest> {
    let tools = args.tools.as_deref().map(read_tools).transpose()?;
    Ok(ProbeRequest {
        base_url: None,
        model: None,
        message: args.message.clone(),
        system: args.system.clone(),
        tools,
        retries: args.retries,
        detect: args.detect,
    })
}

fn read_tools(path: &std::path::Path) -> anyhow::Result<Value> {
    let text = vibe_core::input::read_text(path, "--tools file", vibe_core::input::FILE_CAP)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not valid JSON: {e} (--tools wants an OpenAI tools array)",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    // Checked here, so a bad file names the file.
    vibe_core::app::check_probe_tools(&value, &path.display().to_string())?;
    Ok(value)
}

fn human(r: &ProbeResponse) -> String {
    let mut lines = Vec::new();
    if let Some(reasoning) = &r.reasoning {
        lines.push(format!("[reasoning] {reasoning}"));
    }
    if !r.text.is_empty() {
        lines.push(r.text.clone());
    }
    for c in &r.tool_calls {
        let args = match &c.arguments {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        lines.push(format!("[tool call {}] {}({args})", c.id, c.name));
    }
    let mut meta = Vec::new();
    if let Some(f) = &r.finish_reason {
        meta.push(format!("finish: {f}"));
    }
    if let Some(u) = r.usage {
        meta.push(format!(
            "tokens: {} prompt + {} completion = {}",
            u.prompt_tokens, u.completion_tokens, u.total_tokens
        ));
    }
    if let Some(d) = &r.detect {
        meta.push(format!(
            "native tools: {} (recommended tool_mode: \"{}\")",
            d.native_tools, d.recommended_tool_mode
        ));
    }
    if !meta.is_empty() {
        lines.push(format!("[{}]", meta.join(" · ")));
    }
    lines.join("\n")
}
