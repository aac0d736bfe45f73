//! What `vibe chat` checks before it stores anything: the `chat` settings section and the
//! model endpoint. A configuration error (no model, a malformed base URL, a typo in
//! settings) is refused here with its fix, so no conversation, message or run is created
//! for a turn that could never reach a model. Running the turn is `chat`'s.

use anyhow::bail;
use vibe_core::chat::ChatConfig;
use vibe_llm::Endpoint;

use crate::ctx::{Ctx, SETTINGS_FILE};

/// The `chat` section. `chat.budgets.max_context_tokens` of earlier versions is refused with
/// where the one setting lives now.
pub fn chat_config(ctx: &Ctx) -> anyhow::Result<ChatConfig> {
    let section = ctx.settings_section("chat")?;
    if section.pointer("/budgets/max_context_tokens").is_some() {
        bail!(
            "{}: \"chat.budgets.max_context_tokens\" is no longer read: the model's context window is one setting, \"chat.context.max_context_tokens\" (default {}); move the value there",
            ctx.data_dir.join(SETTINGS_FILE).display(),
            vibe_core::context::ContextLimits::default().max_context_tokens
        );
    }
    ctx.section("chat")
}

/// Refuse an endpoint no request could use: a base URL that is not a valid http(s) URL, or
/// no model where the server needs one.
pub fn check_endpoint(endpoint: &Endpoint) -> anyhow::Result<()> {
    let base = &endpoint.base_url;
    if base.starts_with("scripted:") {
        return Ok(());
    }
    let fix = "set llm.base_url in settings.json, VIBE_LLM_BASE_URL or --base-url to the server's address, e.g. http://127.0.0.1:11434/v1";
    match url::Url::parse(base) {
        Ok(url) if url.host_str().is_some_and(|h| !h.is_empty()) => {}
        Ok(_) => bail!("the model endpoint {base:?} names no host; {fix}"),
        Err(e) => bail!("the model endpoint {base:?} is not a valid URL ({e}); {fix}"),
    }
    if endpoint.model.is_none() && !endpoint.preset.model_optional {
        bail!(
            "no model is set for {} ({base}); pass --model, set VIBE_LLM_MODEL or llm.model in settings.json (`vibe llm models` lists what the server offers)",
            endpoint.preset.label
        );
    }
    Ok(())
}
