//! The generic skill-state tools (docs/design.md#state-semantics): `read_state`, `write_state` and
//! `append_to_list`, always bound to the active skill (the model never names a skill). The
//! semantics (deep merge, newest-first lists, trimming, cache invalidation) are the store's;
//! this file only reads arguments, refuses writes to the state the protocol engine owns,
//! asks for approval when a write would remove stored data (docs/tools.md#writes-that-remove-data:
//! an append that would drop entries included; a list has no cap unless the model gives one or
//! the skill declares one), and shapes the observations. Writes are recorded in
//! the undo history as the model's, with the run id, from the blocking pool (`store_io`): a
//! write may wait for another process's lock.

use std::sync::OnceLock;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_protocol::engine_owned;
use vibe_store::{AppendCap, ChangeBy, StateStatus, StateWrite};

use super::args::Args;
use super::{Tool, ToolContext, ToolOutput, active_skill, builtin_def, state_changed, tool_def};
use crate::store_io::blocking;

/// Longest list `append_to_list` may keep.
const MAX_ITEMS_LIMIT: u64 = 1000;

pub(crate) struct ReadState;
pub(crate) struct WriteState;
pub(crate) struct AppendToList;

impl Tool for ReadState {
    fn name(&self) -> &str {
        "read_state"
    }

    fn changes_state(&self) -> bool {
        false
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            tool_def(
                self.name(),
                "读取当前技能保存的用户数据（无需传技能名）。sections 只读其中几部分，不传则读全部。\
                 例：{\"sections\": [\"goals\"]}。没有数据时返回 status=empty，这不是错误，照常继续对话。",
                json!({
                    "type": "object",
                    "properties": {
                        "sections": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "要读取的部分，如 [\"goals\", \"journal\"]；不传读全部"
                        }
                    }
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
            let sections =
                match Args::new("read_state", &args).and_then(|a| a.opt_text_list("sections")) {
                    Ok(s) => s,
                    Err(e) => return e.into(),
                };
            match ctx.store.read_state(&ctx.user, skill, sections.as_deref()) {
                Ok(read) => {
                    let mut out = json!({
                        "status": read.status,
                        "data": read.data,
                        "skill_id": read.skill_id,
                    });
                    if read.status == StateStatus::Empty {
                        out["message"] = json!(format!("尚未建立 {skill} 数据"));
                    }
                    if !read.warnings.is_empty() {
                        out["warnings"] = json!(read.warnings);
                    }
                    ToolOutput::ok(out)
                }
                Err(e) => ToolOutput::error(e.to_string()),
            }
        })
    }
}

/// The approval reason for a write to `skill` that removes `losses` (none: no approval).
fn removal_reason(skill: &str, losses: Vec<String>) -> Option<String> {
    if losses.is_empty() {
        return None;
    }
    Some(format!(
        "change the saved data of skill {skill} in a way that removes data: {}. \
         If approved, it can be undone from the skill's history.",
        losses.join("; ")
    ))
}

/// The error observation of a write that removes data the person was not asked about (an
/// earlier call of the same round created it).
fn unapproved(reason: String) -> ToolOutput {
    ToolOutput::error(format!(
        "not written: this would {reason} The person was not asked, because the data appeared \
         during this round; call it again on its own so they can approve it"
    ))
}

/// The error observation of a write to state the protocol engine owns (nothing is written).
fn engine_owned_refusal(field: &str, path: &str, skill: &str) -> ToolOutput {
    let first = path.split('.').next().unwrap_or(path);
    ToolOutput::field_error(
        field,
        format!(
            "not written: `{first}` of skill {skill} is kept by the protocol engine, not written by \
             tools. To invite the person call show_protocol_invitation; a protocol starts only \
             when they choose to; advance_protocol_step saves a step, cancel_protocol stops it"
        ),
    )
}

/// The model's name in the undo history.
fn by_model(ctx: &ToolContext) -> ChangeBy {
    ChangeBy::Model { run_id: ctx.run_id.clone() }
}

impl Tool for WriteState {
    fn name(&self) -> &str {
        "write_state"
    }

    fn approval_in(&self, ctx: &ToolContext, args: &Value) -> Option<String> {
        let skill = ctx.active_skill.as_deref()?;
        let section = args.get("section")?.as_str().filter(|s| !engine_owned(s))?;
        let data = args.get("data").filter(|d| d.is_object())?;
        let sections = [section.to_string()];
        // An unreadable state fails the call itself with a clear error; nothing to ask then.
        let current = ctx.store.read_state(&ctx.user, skill, Some(&sections)).ok()?;
        let patch =
            Value::Object(serde_json::Map::from_iter([(section.to_string(), data.clone())]));
        removal_reason(skill, vibe_store::losses_of_merge(&current.data, &patch))
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            tool_def(
                self.name(),
                "把 data 深度合并进当前技能数据的 section（如 goals、resume），未提到的字段保持不变；\
                 某字段设为 null 即删除。只保存用户说过或确认过的信息。\
                 例：{\"section\": \"goals\", \"data\": {\"this_year\": \"转行做产品经理\"}}。\
                 data 必须是对象；section 不含点号、不以 _ 开头。一条条的记录（日记、洞察）用 append_to_list。",
                json!({
                    "type": "object",
                    "properties": {
                        "section": {"type": "string", "description": "顶层部分名，如 goals"},
                        "data": {"type": "object", "description": "要合并的数据"}
                    },
                    "required": ["section", "data"]
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
            let parsed = Args::new("write_state", &args).and_then(|a| {
                let section = a.text("section", "\"goals\"")?;
                let data = a.object("data", "{\"this_year\": \"...\"}")?;
                Ok((section, data))
            });
            let (section, data) = match parsed {
                Ok(p) => p,
                Err(e) => return e.into(),
            };
            if engine_owned(section) {
                return engine_owned_refusal("section", section, skill);
            }
            if !ctx.approved
                && !ctx.approval_checked
                && let Some(reason) = self.approval_in(ctx, &args)
            {
                return unapproved(reason);
            }
            let data = Value::Object(data.clone());
            // Applied by the loop with the result message (`ToolOutput::write`).
            match StateWrite::new(&ctx.user, skill, section, data, by_model(ctx)) {
                Ok(write) => ToolOutput::staged(
                    json!({
                        "status": "success",
                        "message": format!("已保存 {section}"),
                        "skill_id": skill,
                    }),
                    write,
                ),
                Err(e) => ToolOutput::error(e.to_string()),
            }
        })
    }
}

impl Tool for AppendToList {
    fn name(&self) -> &str {
        "append_to_list"
    }

    /// An append whose cap (the model's `max_items`, else the skill's declared one) is at or
    /// below the list's current length drops existing entries; that needs approval.
    fn approval_in(&self, ctx: &ToolContext, args: &Value) -> Option<String> {
        let skill = ctx.active_skill.as_deref()?;
        let path = args.get("path")?.as_str().filter(|p| !engine_owned(p))?;
        let max = cap_of(ctx, skill, path, args.get("max_items").and_then(Value::as_u64))?;
        let first = path.split('.').next()?.to_string();
        let current = ctx.store.read_state(&ctx.user, skill, Some(&[first])).ok()?;
        let len = path.split('.').try_fold(&current.data, |v, s| v.get(s))?.as_array()?.len();
        if max > len {
            return None;
        }
        let dropped = len + 1 - max;
        removal_reason(
            skill,
            vec![format!(
                "trims {path} from {len} to {max} entries (drops the {dropped} oldest) to add one"
            )],
        )
    }

    fn definition(&self) -> ToolDef {
        static DEF: OnceLock<ToolDef> = OnceLock::new();
        builtin_def(&DEF, || {
            tool_def(
                self.name(),
                "向当前技能数据里的列表追加一条记录（最新的在最前，自动加 _created_at），用于日记、洞察、\
                 面试记录等。path 可用点号：\"journal\" 或 \"progress.milestones\"。\
                 例：{\"path\": \"insights\", \"entry\": {\"topic\": \"事业\", \"insight\": \"...\"}}。\
                 entry 必须是对象；不传 max_items 则全部保留。",
                json!({
                    "type": "object",
                    "properties": {
                        "path": {"type": "string", "description": "列表路径，如 journal"},
                        "entry": {"type": "object", "description": "要追加的条目"},
                        "max_items": {
                            "type": "integer", "minimum": 1, "maximum": MAX_ITEMS_LIMIT,
                            "description": "最多保留几条（删旧条目需用户同意）"
                        }
                    },
                    "required": ["path", "entry"]
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
            let parsed = Args::new("append_to_list", &args).and_then(|a| {
                let path = a.text("path", "\"journal\"")?;
                let entry = a.object("entry", "{\"text\": \"...\"}")?;
                let max = a.opt_u64("max_items", 1, MAX_ITEMS_LIMIT)?;
                Ok((path, entry, max))
            });
            let (path, entry, max) = match parsed {
                Ok(p) => p,
                Err(e) => return e.into(),
            };
            if engine_owned(path) {
                return engine_owned_refusal("path", path, skill);
            }
            // Dropping entries only with the person's approval; the store refuses otherwise
            // (also when an earlier call of this round filled the list up meanwhile).
            let cap =
                AppendCap { max_items: cap_of(ctx, skill, path, max), may_drop: ctx.approved };
            if !ctx.approved
                && !ctx.approval_checked
                && let Some(reason) = self.approval_in(ctx, &args)
            {
                return unapproved(reason);
            }
            let entry = Value::Object(entry.clone());
            let (user, owned_skill, owned_path, by) =
                (ctx.user.clone(), skill.to_string(), path.to_string(), by_model(ctx));
            let appended = blocking(&ctx.store, move |s| {
                s.append_to_list_by(&user, &owned_skill, &owned_path, entry, cap, &by)
            })
            .await;
            match appended {
                Ok(outcome) => {
                    state_changed(&ctx.emitter, Some(skill), [path.to_string()]);
                    ToolOutput::ok(json!({
                        "status": "success",
                        "message": format!("已添加到 {path}"),
                        "skill_id": skill,
                        "length": outcome.length,
                        "dropped": outcome.dropped,
                    }))
                }
                Err(e) => ToolOutput::error(e.to_string()),
            }
        })
    }
}

/// The cap of an append to `path`: the model's `max_items`, else the one the skill declares
/// for that list (`lists:` in its SKILL.md), else none.
fn cap_of(ctx: &ToolContext, skill: &str, path: &str, given: Option<u64>) -> Option<usize> {
    if let Some(m) = given {
        return usize::try_from(m).ok();
    }
    let entry = ctx.skills.skill(skill).ok()?;
    entry.meta.lists.get(path)?.max_items.map(|m| m as usize)
}
