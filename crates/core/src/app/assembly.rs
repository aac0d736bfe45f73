//! Assembly resolved once: the settings in force, the person's overrides (flags and
//! environment, [`Overrides`]) and the test injections ([`Injections`]) folded into one
//! [`Assembly`] — the endpoint and model, the chat settings with the budgets fitted to the
//! context window the settings name, the tool limits, the skills roots, the catalogue location, the clock. The app
//! resolves it at open and again whenever the settings change, and every consumer (the chat
//! service, the model set-up, the skill registry, the catalogue) reads it rather than asking
//! the settings and overrides themselves. It reads no file and contacts nothing.

use std::path::Path;
use std::sync::Arc;

use vibe_context::ContextLimitsExt as _;
use vibe_llm::{ChatModel, LlmSettings};
use vibe_protocol::Clock;
use vibe_skills::RegistryConfig;

use crate::app::{Injections, LocalWrap, Overrides, Settings};
use vibe_agent::chat::ChatConfig;
use vibe_agent::tools::ToolsSettings;

/// What is in force for this app: see the module header.
#[derive(Clone)]
pub struct Assembly {
    /// The `llm` settings with the overrides' base URL and model applied: the endpoint and
    /// model in force.
    pub llm: LlmSettings,
    /// A ready model in place of the one `llm` describes (an injection).
    pub ready_model: Option<Arc<dyn ChatModel>>,
    /// The `chat` settings with the seed, budgets and memory triggers in force, the budgets
    /// fitted to the context limits.
    pub chat: ChatConfig,
    /// The limits skill scripts run under.
    pub tools: ToolsSettings,
    /// The skill folders, highest precedence first (the `--skills-dir` flag over the
    /// settings' `skills.extra_dir`).
    pub skills: RegistryConfig,
    /// Where the model catalogue is read from (`VIBE_MODELS_CATALOG`, else `models.catalog`;
    /// `None`: the shipped one).
    pub catalog: Option<String>,
    /// The clock protocols (and protocol tools) read.
    pub clock: Clock,
    /// A long-lived host: run folders are made ahead of turns.
    pub long_lived: bool,
    /// The limits of MCP connections.
    pub mcp_limits: vibe_mcp::Limits,
    /// What wraps the embedded engine's model (an injection: `vibe bench local`).
    pub local_wrap: Option<LocalWrap>,
}

impl Assembly {
    /// Fold `settings`, `overrides` and `injections` for the data folder `data_dir`.
    pub fn resolve(
        data_dir: &Path,
        settings: &Settings,
        overrides: &Overrides,
        injections: &Injections,
    ) -> Assembly {
        let mut llm = settings.llm.clone();
        if let Some(url) = &overrides.base_url {
            llm.base_url = Some(url.trim().to_string());
            llm.preset = None; // an explicit URL names its own preset
        }
        if let Some(model) = &overrides.model_name {
            llm.model = Some(model.clone());
        }
        let mut chat = settings.chat.clone();
        if overrides.seed.is_some() {
            chat.seed = overrides.seed;
        }
        if let Some(budgets) = injections.budgets {
            chat.budgets = budgets;
        }
        if let Some(memory) = injections.memory {
            chat.memory = memory;
        }
        // The budgets follow the context window the settings name (docs/local-model.md,
        // "Budgets follow the model"); limits that cannot be fitted stay as set, and building
        // the context refuses them with what to change.
        if let Ok(fitted) = chat.context.fitted_to(chat.context.max_context_tokens) {
            chat.context = fitted;
        }
        chat.budgets = chat.budgets.for_context(&chat.context);
        Assembly {
            llm,
            ready_model: injections.model.clone(),
            chat,
            tools: settings.tools.clone(),
            skills: RegistryConfig::for_data_dir(
                data_dir,
                &settings.skills,
                overrides.skills_dir.clone(),
            ),
            catalog: overrides.models_catalog.clone().or_else(|| settings.models.catalog.clone()),
            clock: injections.protocol_clock.clone().unwrap_or_else(vibe_protocol::system_clock),
            long_lived: overrides.long_lived,
            mcp_limits: injections.mcp_limits.unwrap_or_default(),
            local_wrap: injections.local_wrap.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_win_over_settings_and_budgets_are_fitted_to_the_context() {
        let mut settings = Settings::default();
        settings.llm.model = Some("from-settings".into());
        settings.models.catalog = Some("/from/settings.json".into());
        let overrides = Overrides {
            model_name: Some("from-flag".into()),
            seed: Some(7),
            skills_dir: Some("/project/skills".into()),
            models_catalog: Some("/from/env.json".into()),
            ..Overrides::default()
        };
        let resolved =
            Assembly::resolve(Path::new("/data"), &settings, &overrides, &Injections::default());
        assert_eq!(resolved.llm.model.as_deref(), Some("from-flag"));
        assert_eq!(resolved.chat.seed, Some(7));
        assert_eq!(resolved.skills.project.as_deref(), Some(Path::new("/project/skills")));
        assert_eq!(resolved.catalog.as_deref(), Some("/from/env.json"));
        let fitted = settings.chat.budgets.for_context(&settings.chat.context);
        assert_eq!(resolved.chat.budgets, fitted);
        assert!(resolved.ready_model.is_none());
    }

    #[test]
    fn a_4k_window_in_the_settings_fits_the_prompt_budgets_to_it() {
        let mut settings = Settings::default();
        settings.chat.context.max_context_tokens = 4096;
        let resolved = Assembly::resolve(
            Path::new("/data"),
            &settings,
            &Overrides::default(),
            &Injections::default(),
        );
        let context = &resolved.chat.context;
        assert_eq!(context.max_context_tokens, 4096);
        assert_eq!((context.phase2_prompt_tokens, context.reply_reserve_tokens), (1843, 1024));
        assert_eq!(resolved.chat.budgets.max_context_tokens, 4096 - 1024);
    }
}
