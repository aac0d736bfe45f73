//! `vibe llm probe|models`: one chat request against the configured (or given) endpoint,
//! printed as the client reconstructed it, and the endpoint's model list. Settings come
//! from the `llm` section of settings.json, then `VIBE_LLM_*`, then the flags.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use vibe_llm::{ChatRequest, ChatResponse, LlmError, LlmSettings, Message, ToolDef, ToolMode};

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

pub(crate) fn settings(ctx: &Ctx, endpoint: &EndpointArgs) -> anyhow::Result<LlmSettings> {
    let mut s = ctx.section::<LlmSettings>("llm")?.with_env(|k| std::env::var(k).ok());
    if let Some(url) = &endpoint.base_url {
        s.base_url = Some(url.clone());
        s.preset = None; // an explicit URL names its own preset
    }
    if let Some(model) = &endpoint.model {
        s.model = Some(model.clone());
    }
    Ok(s)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Runtime::new().context("cannot start the async runtime")
}

fn env_key() -> Option<String> {
    std::env::var(vibe_llm::API_KEY_ENV).ok()
}

fn models(ctx: &Ctx, args: &EndpointArgs) -> anyhow::Result<()> {
    let settings = settings(ctx, args)?;
    let setup = vibe_llm::build_model(&settings, env_key())?;
    for notice in &setup.notices {
        eprintln!("notice: {notice}");
    }
    let list = runtime()?.block_on(setup.model.list_models())?;
    let value = json!({"base_url": setup.endpoint.base_url, "models": list});
    print(ctx, &value, || list.iter().map(|m| m.id.clone()).collect::<Vec<_>>().join("\n"));
    Ok(())
}

/// The probe tool of `--detect`.
fn detect_tool() -> ToolDef {
    ToolDef {
        name: "echo".into(),
        description: "Repeat the given text back. Call it when asked to.".into(),
        parameters: json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    }
}

fn probe(ctx: &Ctx, args: ProbeArgs) -> anyhow::Result<()> {
    let (response, error) = match prepare(ctx, &args) {
        Ok((model, request)) => runtime()?.block_on(vibe_llm::collect(model.stream(request))),
        // Set-up failures are reported in the same shape, so scripts parse one thing.
        Err(e) => (ChatResponse::default(), Some(e)),
    };
    let mut value = probe_json(&response, error.as_ref());
    if args.detect {
        let native = error.is_none() && !response.tool_calls.is_empty();
        value["detect"] = json!({
            "native_tools": native,
            "recommended_tool_mode": if native { "native" } else { "structured" },
        });
    }
    print(ctx, &value, || human(&response, &value));
    if let Some(e) = error {
        if !ctx.json {
            eprintln!("error: {e}");
        }
        std::process::exit(1);
    }
    Ok(())
}

/// Settings, tools and model for the probe; every failure here is a `config` error.
fn prepare(
    ctx: &Ctx,
    args: &ProbeArgs,
) -> Result<(std::sync::Arc<dyn vibe_llm::ChatModel>, ChatRequest), LlmError> {
    let config = |e: anyhow::Error| LlmError::Config { message: format!("{e:#}") };
    let mut settings = settings(ctx, &args.endpoint).map_err(config)?;
    if let Some(n) = args.retries {
        settings.retries = n;
    }
    let mut tools = match &args.tools {
        Some(path) => read_tools(path).map_err(config)?,
        None => Vec::new(),
    };
    let mut message = args.message.clone();
    if args.detect {
        settings.tool_mode = ToolMode::Native;
        if tools.is_empty() {
            tools.push(detect_tool());
            message = "Call the tool `echo` with the text \"ping\". Do not answer in words.".into();
        }
    }
    let setup = vibe_llm::build_model(&settings, env_key())?;
    for notice in &setup.notices {
        eprintln!("notice: {notice}");
    }
    let mut messages = Vec::new();
    if let Some(system) = &args.system {
        messages.push(Message::system(system.clone()));
    }
    messages.push(Message::user(message));
    Ok((setup.model, ChatRequest { messages, tools, ..ChatRequest::default() }))
}

fn read_tools(path: &std::path::Path) -> anyhow::Result<Vec<ToolDef>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read --tools {} (give a JSON file with an OpenAI tools array)",
            path.display()
        )
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "{}:{}:{}: not valid JSON: {e} (--tools wants an OpenAI tools array)",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    Ok(ToolDef::from_openai_tools(&value, &path.display().to_string())?)
}

/// The stable `--json` shape of `vibe llm probe`.
fn probe_json(r: &ChatResponse, error: Option<&LlmError>) -> Value {
    let calls: Vec<Value> = r
        .tool_calls
        .iter()
        .map(|c| {
            let arguments = serde_json::from_str::<Value>(&c.arguments)
                .ok()
                .filter(Value::is_object)
                .unwrap_or_else(|| Value::String(c.arguments.clone()));
            json!({"id": c.id, "name": c.name, "arguments": arguments})
        })
        .collect();
    json!({
        "text": r.text,
        "reasoning": r.reasoning,
        "tool_calls": calls,
        "finish_reason": r.finish_reason,
        "usage": r.usage.map(|u| json!({
            "prompt_tokens": u.prompt_tokens, "completion_tokens": u.completion_tokens, "total_tokens": u.total_tokens,
        })),
        "error": error.map(|e| json!({"kind": e.kind(), "message": e.to_string(), "retry_after_s": e.retry_after_s()})),
    })
}

fn human(r: &ChatResponse, value: &Value) -> String {
    let mut lines = Vec::new();
    if let Some(reasoning) = &r.reasoning {
        lines.push(format!("[reasoning] {reasoning}"));
    }
    if !r.text.is_empty() {
        lines.push(r.text.clone());
    }
    for c in &r.tool_calls {
        lines.push(format!("[tool call {}] {}({})", c.id, c.name, c.arguments));
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
    if let Some(d) = value.get("detect") {
        meta.push(format!(
            "native tools: {} (recommended tool_mode: {})",
            d["native_tools"], d["recommended_tool_mode"]
        ));
    }
    if !meta.is_empty() {
        lines.push(format!("[{}]", meta.join(" · ")));
    }
    lines.join("\n")
}
