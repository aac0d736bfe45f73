//! [`ToolRegistry`]: the built-in handlers by name, and what the `tools` settings section (a
//! wire type) gives them (script limits, [`ToolsSettingsExt`]). Choosing a skill's tool set is `toolset`; each handler
//! lives in its own file.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

use vibe_protocol::{Clock, system_clock};
use vibe_sandbox::{Policy, ScriptLimits};
pub use vibe_wire::settings::ToolsSettings;

use super::Tool;
use super::chart::{ComputeChart, ShowChart};
use super::plan::UpdatePlan;
use super::protocol_tools::protocol_tools;
use super::resource::LoadResource;
use super::script::RunScript;
use super::state::{AppendToList, ReadState, WriteState};
use super::tarot::DrawTarot;
use super::use_connection::UseConnection;
use super::use_skill::UseSkill;
use super::wellbeing::FlagWellbeingConcern;

/// What the `tools` section of `settings.json` (a wire type) gives the sandbox. The defaults of
/// absent keys live in [`ScriptLimits::default`].
pub trait ToolsSettingsExt {
    /// The script limits these settings give (0 is read as "use the default").
    fn script_limits(&self) -> ScriptLimits;
}

impl ToolsSettingsExt for ToolsSettings {
    fn script_limits(&self) -> ScriptLimits {
        let default = ScriptLimits::default();
        ScriptLimits {
            timeout: self
                .script_timeout_secs
                .filter(|s| *s > 0)
                .map_or(default.timeout, Duration::from_secs),
            max_output_bytes: self
                .script_output_bytes
                .filter(|b| *b > 0)
                .unwrap_or(default.max_output_bytes),
            max_processes: self
                .script_max_processes
                .filter(|n| *n > 0)
                .unwrap_or(default.max_processes),
            max_memory_bytes: self
                .script_memory_mib
                .filter(|m| *m > 0)
                .map_or(default.max_memory_bytes, |m| m.saturating_mul(1 << 20)),
            ..default
        }
    }
}

/// The handlers the app provides, by tool name. Cheap to clone.
#[derive(Clone)]
pub struct ToolRegistry {
    pub(crate) handlers: BTreeMap<String, Arc<dyn Tool>>,
    pub(crate) limits: ScriptLimits,
    /// Skills marked trusted (`tools.trusted_skills`).
    pub(crate) trusted: Arc<BTreeSet<String>>,
    /// Scripts are treated as unconfinable for this reason ([`ToolRegistry::without_sandbox`]).
    pub(crate) no_sandbox: Option<String>,
}

impl ToolRegistry {
    /// Every built-in handler with the default script limits.
    pub fn with_builtins() -> ToolRegistry {
        Self::with_limits(ScriptLimits::default())
    }

    /// Every built-in handler; scripts run under `limits`.
    pub fn with_limits(limits: ScriptLimits) -> ToolRegistry {
        let mut tools: Vec<Arc<dyn Tool>> = vec![
            Arc::new(UseSkill),
            Arc::new(ReadState),
            Arc::new(WriteState),
            Arc::new(AppendToList),
            Arc::new(UpdatePlan),
            Arc::new(LoadResource),
            Arc::new(RunScript { limits, policy: Policy::default() }),
            Arc::new(ComputeChart),
            Arc::new(ShowChart),
            Arc::new(DrawTarot),
            Arc::new(FlagWellbeingConcern),
            Arc::new(UseConnection::default()),
        ];
        tools.extend(protocol_tools(&system_clock()));
        let handlers = tools.into_iter().map(|t| (t.name().to_string(), t)).collect();
        ToolRegistry { handlers, limits, trusted: Arc::default(), no_sandbox: None }
    }

    /// The same registry with the protocol tools on `clock` (tests, evals).
    pub fn with_protocol_clock(mut self, clock: Clock) -> Self {
        for tool in protocol_tools(&clock) {
            self.handlers.insert(tool.name().to_string(), tool);
        }
        self
    }

    /// Every built-in handler, configured by the `tools` settings section (limits, trusted
    /// skills).
    pub fn from_settings(settings: &ToolsSettings) -> ToolRegistry {
        let mut registry = Self::with_limits(settings.script_limits());
        registry.trusted = Arc::new(settings.trusted_skills.iter().cloned().collect());
        registry
    }

    /// The sandbox policy for `skill`'s scripts: network when its tools.yaml asks for it,
    /// trusted when the settings say so.
    pub fn script_policy(&self, skill: &str, network: bool) -> Policy {
        Policy {
            network,
            trusted: self.trusted.contains(skill),
            unsupported: self.no_sandbox.clone(),
        }
    }

    /// The same registry on a computer treated as unable to sandbox scripts (for `why`): an
    /// untrusted skill's scripts are refused, a trusted skill's run unconfined and their
    /// approval says so. How tests (and a host that distrusts its sandbox) meet those modes
    /// where the sandbox works; nothing in settings turns it on.
    pub fn without_sandbox(mut self, why: impl Into<String>) -> ToolRegistry {
        let why = why.into();
        let policy = Policy { unsupported: Some(why.clone()), ..Policy::default() };
        self.handlers.insert(
            "run_script".to_string(),
            Arc::new(RunScript { limits: self.limits, policy }) as Arc<dyn Tool>,
        );
        self.no_sandbox = Some(why);
        self
    }

    /// The built-in handler called `name`.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.handlers.get(name).cloned()
    }

    /// Names of the built-in handlers, sorted.
    pub fn names(&self) -> Vec<&str> {
        self.handlers.keys().map(String::as_str).collect()
    }

    /// The limits scripts run under.
    pub fn script_limits(&self) -> ScriptLimits {
        self.limits
    }
}

#[cfg(test)]
mod tests {
    use vibe_skills::BUILTIN_TOOLS;

    use super::*;

    #[test]
    fn every_builtin_name_has_a_handler() {
        let registry = ToolRegistry::with_builtins();
        for name in BUILTIN_TOOLS {
            assert!(registry.get(name).is_some(), "{name} has no handler");
        }
        for name in registry.names() {
            assert!(BUILTIN_TOOLS.contains(&name), "{name} is not in vibe_skills::BUILTIN_TOOLS");
        }
    }

    #[test]
    fn every_definition_is_an_object_schema_named_like_its_handler() {
        let registry = ToolRegistry::with_builtins();
        for name in registry.names() {
            let def = registry.get(name).unwrap().definition();
            assert_eq!(def.name, name);
            assert_eq!(def.parameters["type"], "object", "{name}");
            assert!(
                def.description.contains("例：{"),
                "{name}: no example call in the description"
            );
        }
    }

    #[test]
    fn only_tools_that_change_nothing_say_so() {
        let registry = ToolRegistry::with_builtins();
        let read_only: Vec<&str> = registry
            .names()
            .into_iter()
            .filter(|n| !registry.get(n).unwrap().changes_state())
            .collect();
        assert_eq!(read_only, ["draw_tarot", "load_resource", "read_state", "show_chart"]);
    }

    #[test]
    fn settings_give_limits_with_defaults() {
        let s: ToolsSettings = serde_json::from_str("{\"script_timeout_secs\": 5}").unwrap();
        let limits = s.script_limits();
        assert_eq!(limits.timeout, Duration::from_secs(5));
        assert_eq!(limits.max_output_bytes, ScriptLimits::default().max_output_bytes);
        assert_eq!(ToolsSettings::default().script_limits(), ScriptLimits::default());
    }
}
