//! Test fixtures of the context module: builders over the repo's built-in skills or a temp
//! skill root, and generated skills. Test-only.

use std::path::Path;
use std::sync::Arc;

use vibe_skills::{Registry, RegistryConfig};
use vibe_store::Store;

use super::{BuiltPrompt, ContextBuilder, ContextLimits};

/// A builder over an in-memory store and the given skill roots.
pub(crate) fn builder_with(
    project: Option<&Path>,
    builtin: bool,
    limits: ContextLimits,
) -> (ContextBuilder, Arc<Store>) {
    let config = RegistryConfig {
        project: project.map(Path::to_path_buf),
        builtin: if builtin { vibe_skills::builtin_dir() } else { None },
        ..RegistryConfig::default()
    };
    let store = Arc::new(Store::open_in_memory().unwrap());
    let skills = Arc::new(Registry::open(config));
    (ContextBuilder::new(store.clone(), skills, limits).unwrap(), store)
}

/// A builder over the repo's built-in skills with the default limits.
pub(crate) fn builtin() -> (ContextBuilder, Arc<Store>) {
    builder_with(None, true, ContextLimits::default())
}

/// Write a skill folder `root/name` with a SKILL.md of the given frontmatter lines and body.
pub(crate) fn write_skill(root: &Path, name: &str, frontmatter: &str, body: &str) {
    vibe_test_support::write_skill(root, name, frontmatter, body);
}

/// Write `count` plausible skills (long descriptions, many triggers) into `root`.
pub(crate) fn write_many_skills(root: &Path, count: usize) {
    for i in 0..count {
        let name = format!("skill-{i:02}");
        let triggers: Vec<String> = (0..12).map(|t| format!("话题{i}-{t}")).collect();
        let frontmatter = format!(
            "description: 第 {i} 号技能：帮助用户梳理生活中第 {i} 类问题，提供结构化的提问、练习和复盘方法，\
             适合在用户感到困惑、想要改变或需要陪伴时使用。Skill number {i} helps with topic {i}.\n\
             triggers: [{}]\nexpert_persona: 第 {i} 号专家",
            triggers.join(", ")
        );
        write_skill(root, &name, &frontmatter, &format!("# 第 {i} 号专家\n\n你是第 {i} 号专家。"));
    }
}

/// A stored message with id 1 in conversation "c", for tests that need a row.
pub(crate) fn row(role: vibe_store::Role, content: &str) -> vibe_store::Message {
    vibe_store::Message {
        id: 1,
        conversation_id: "c".into(),
        role,
        content: content.into(),
        tool_calls: None,
        tool_call_id: None,
        token_count: 0,
        run_id: None,
        interrupted: false,
        created_at: String::new(),
        safety: None,
    }
}

/// The whole prompt text a model reads: the system prompt, then the turn's sections (which
/// ride with the latest user message).
pub(crate) fn full_text(p: &BuiltPrompt) -> String {
    p.text()
}
