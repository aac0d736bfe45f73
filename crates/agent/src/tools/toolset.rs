//! Which tools the model is offered: [`ToolRegistry::tools_for`] applies the rules of
//! docs/tools.md (phase 1: `use_skill` and `flag_wellbeing_concern`; phase 2: those two, then
//! the skill's `tools.yaml` or a default set) and says in `notices` what it left out and why.
//! Running the tools is the handlers'.

use std::sync::Arc;

use vibe_llm::ToolDef;
use vibe_skills::{Registry, SkillEntry, ToolRef};

use super::Tool;
use super::described::{Described, declared_def};
use super::registry::ToolRegistry;
use super::script::{RunScript, ScriptTool, find_for_tool};

/// Phase-2 tools of a skill without `tools.yaml` (besides `use_skill`).
pub(crate) const DEFAULT_TOOLS: [&str; 5] =
    ["read_state", "write_state", "append_to_list", "update_plan", "load_resource"];

/// The tools offered for one model call, and what was left out.
#[derive(Clone, Default)]
pub struct ToolSet {
    /// In the order they are offered; `use_skill` first, `flag_wellbeing_concern` second.
    pub tools: Vec<Arc<dyn Tool>>,
    /// One line per tool left out (or per problem with `tools.yaml`), for the `model_request`
    /// event and the audit.
    pub notices: Vec<String>,
}

impl ToolSet {
    /// The offered tool called `name`.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name).cloned()
    }

    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name()).collect()
    }

    /// The definitions sent to the model, in order.
    pub fn definitions(&self) -> Vec<ToolDef> {
        self.tools.iter().map(|t| t.definition()).collect()
    }

    /// Offer `tool` too, unless a tool of its name is offered already.
    pub(crate) fn push(&mut self, tool: Arc<dyn Tool>) {
        if self.get(tool.name()).is_none() {
            self.tools.push(tool);
        }
    }
}

impl ToolRegistry {
    /// The tools for a model call with `active_skill` active (`None`: phase 1).
    pub fn tools_for(&self, skills: &Registry, active_skill: Option<&str>) -> ToolSet {
        let mut set = ToolSet::default();
        // Always offered: the skill catalog and the coach's own wellbeing judgement.
        for name in ["use_skill", super::FLAG_WELLBEING_CONCERN] {
            if let Some(tool) = self.get(name) {
                set.push(tool);
            }
        }
        let Some(skill) = active_skill else { return set };
        let entry = match skills.skill(skill) {
            Ok(entry) => entry,
            Err(e) => {
                set.notices.push(format!(
                    "active skill `{skill}` is not available ({e}); only use_skill is offered"
                ));
                return set;
            }
        };
        match skills.tools(skill) {
            Ok(Some(spec)) => {
                for tool in &spec.tools {
                    self.add(&mut set, &entry, tool, spec.network);
                }
            }
            Ok(None) => self.add_defaults(&mut set),
            Err(e) => {
                set.notices.push(format!(
                    "tools.yaml of skill `{skill}` cannot be used ({e}); offering the default tools instead"
                ));
                self.add_defaults(&mut set);
            }
        }
        set
    }

    fn add_defaults(&self, set: &mut ToolSet) {
        for tool in DEFAULT_TOOLS.iter().filter_map(|name| self.get(name)) {
            set.push(tool);
        }
    }

    fn add(&self, set: &mut ToolSet, entry: &SkillEntry, tool: &ToolRef, network: bool) {
        let name = tool.name();
        let skill = &entry.name;
        if name == "use_skill" || name == super::FLAG_WELLBEING_CONCERN {
            return; // always offered first, as the app defines them
        }
        let policy = self.script_policy(skill, network);
        let handler = if name == "run_script" {
            // Bound to this skill's sandbox policy, so the approval says what it may touch.
            Some(Arc::new(RunScript { limits: self.limits, policy: policy.clone() })
                as Arc<dyn Tool>)
        } else {
            self.get(name)
        };
        match (tool, handler) {
            // Offered by the loop, from the connections (`driver::offer_connections`).
            (ToolRef::Mcp(_), _) => {}
            (ToolRef::Builtin { .. }, Some(handler)) => set.push(handler),
            (ToolRef::Declared(declared), Some(handler)) => {
                set.push(Arc::new(Described { definition: declared_def(declared), handler }));
            }
            (ToolRef::Declared(declared), None) => match find_for_tool(&entry.dir, name) {
                Some(file) => set.push(Arc::new(ScriptTool::new(
                    declared_def(declared),
                    skill,
                    file,
                    self.limits,
                    policy,
                ))),
                None => set.notices.push(format!(
                    "tool `{name}` of skill `{skill}` left out: the app has no handler for it and the skill has no scripts/{name}.* to run"
                )),
            },
            (ToolRef::Builtin { .. }, None) => set.notices.push(format!(
                "tool `{name}` of skill `{skill}` left out: this version of the app does not provide it"
            )),
        }
    }
}
