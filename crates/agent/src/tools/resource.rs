//! `load_resource`: reads a file of the active skill's folder through the skill registry,
//! which refuses paths leaving the folder and truncates big files with a marker
//! (docs/design.md#tools). Listing or caching resources is the registry's business.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;

use super::args::Args;
use super::{Tool, ToolContext, ToolOutput, active_skill, builtin_def, tool_def};

pub(crate) struct LoadResource;

impl Tool for LoadResource {
    fn name(&self) -> &str {
        "load_resource"
    }

    fn changes_state(&self) -> bool {
        false
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            tool_def(
                self.name(),
                "读取当前技能文件夹里的参考文件（路径相对技能文件夹）。\
                 例：{\"path\": \"rules/ethics.md\"}。只在需要细节时读；大文件会被截断并标明 [truncated]。\
                 不能读技能文件夹以外的文件（含 .. 或绝对路径会被拒绝）。",
                json!({
                    "type": "object",
                    "properties": {
                        "path": {"type": "string", "description": "相对技能文件夹的路径"}
                    },
                    "required": ["path"]
                }),
            )
        })
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let skill = match active_skill(ctx, self.name()) {
                Ok(s) => s,
                Err(out) => return out,
            };
            let path = match Args::new("load_resource", &args)
                .and_then(|a| a.text("path", "\"rules/ethics.md\""))
            {
                Ok(p) => p,
                Err(e) => return e.into(),
            };
            match ctx.skills.load_resource(skill, path) {
                Ok(r) => ToolOutput::ok(json!({
                    "status": "success",
                    "path": r.path,
                    "text": r.text,
                    "bytes": r.bytes,
                    "truncated": r.truncated,
                })),
                Err(e) => ToolOutput::error(e.to_string()),
            }
        })
    }
}
