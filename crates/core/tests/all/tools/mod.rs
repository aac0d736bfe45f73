//! The tool registry and every built-in tool, against a real temp-file store, the repo's
//! built-in skills and temp skill folders.

#![allow(clippy::unwrap_used, clippy::expect_used)] // helpers outside #[test] fns unwrap too

mod charts;
mod sandbox;
mod sandbox_limits;
mod sandbox_metadata;
mod sandbox_off;
mod scripts;
mod state;
mod toolset;
mod use_skill;

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tempfile::TempDir;
use vibe_agent::tools::{ToolContext, ToolOutput, ToolRegistry};
use vibe_runlog::emit::{CollectSink, Emitter};
use vibe_skills::{Registry, RegistryConfig};
use vibe_store::{LOCAL_USER, Store};

/// A store file, the built-in skills plus a project root for temp skills, and a conversation.
pub(crate) struct Fixture {
    pub dir: TempDir,
    pub store: Arc<Store>,
    pub skills: Arc<Registry>,
    pub tools: ToolRegistry,
    pub sink: Arc<CollectSink>,
    pub conversation: String,
}

impl Fixture {
    pub fn new() -> Self {
        Self::with_tools(ToolRegistry::with_builtins())
    }

    pub fn with_tools(tools: ToolRegistry) -> Self {
        let dir = TempDir::new().unwrap();
        let project = dir.path().join("project-skills");
        std::fs::create_dir_all(&project).unwrap();
        let store = Arc::new(Store::open(&dir.path().join("vibe.db")).unwrap());
        let config = RegistryConfig {
            project: Some(project),
            builtin: vibe_skills::builtin_dir(),
            ..RegistryConfig::default()
        };
        let skills = Arc::new(Registry::open(config));
        let conversation = store.create_conversation(LOCAL_USER, None).unwrap().id;
        Self { dir, store, skills, tools, sink: Arc::new(CollectSink::default()), conversation }
    }

    /// Writes a skill into the project root (SKILL.md plus `files`) and rescans.
    pub fn add_skill(
        &self,
        name: &str,
        frontmatter_extra: &str,
        files: &[(&str, &str)],
    ) -> PathBuf {
        let dir = self.dir.path().join("project-skills").join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let skill_md = format!(
            "---\nname: {name}\ndescription: A test skill called {name}.\n{frontmatter_extra}---\n\n# {name}\n"
        );
        std::fs::write(dir.join("SKILL.md"), skill_md).unwrap();
        for (path, text) in files {
            let path = dir.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        self.skills.refresh();
        self.skills.skill(name).unwrap();
        dir
    }

    pub fn ctx(&self, active_skill: Option<&str>) -> ToolContext {
        ToolContext {
            store: self.store.clone(),
            skills: self.skills.clone(),
            user: LOCAL_USER.to_string(),
            conversation_id: self.conversation.clone(),
            run_id: "run-test".into(),
            active_skill: active_skill.map(str::to_string),
            run_dir: None,
            emitter: Emitter::new("run-test", vec![self.sink.clone()]),
            seed: None,
            // Handlers called directly: approval is the caller's business (the loop's gate
            // is tested through turns).
            approved: true,
            approval_checked: false,
            connections: None,
            cancel: Default::default(),
            language: None,
        }
    }

    /// Calls the built-in handler `tool` with `args` as `active_skill`, and applies a staged
    /// state write on its own (the loop would with the result message).
    pub async fn call(&self, active_skill: Option<&str>, tool: &str, args: Value) -> ToolOutput {
        let handler = self.tools.get(tool).unwrap_or_else(|| panic!("no handler {tool}"));
        let ctx = self.ctx(active_skill);
        handler.call(&ctx, args).await.settle(&ctx).await
    }

    /// Calls `tool` as the skill's tool set offers it (declared definitions, script tools),
    /// applying a staged write as [`Self::call`] does.
    pub async fn call_offered(&self, skill: &str, tool: &str, args: Value) -> ToolOutput {
        let set = self.tools.tools_for(&self.skills, Some(skill));
        let handler = set
            .get(tool)
            .unwrap_or_else(|| panic!("{skill} does not offer {tool}: {:?}", set.names()));
        let ctx = self.ctx(Some(skill));
        handler.call(&ctx, args).await.settle(&ctx).await
    }
}
