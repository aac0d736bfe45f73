//! Script tools: `run_script` (any file under the active skill's `scripts/`, named by the
//! model) and [`ScriptTool`] (a tool a skill declares in `tools.yaml` and backs with
//! `scripts/<name>.*`; its arguments go to the script as JSON on stdin). Both always need the
//! person's approval, whose reason says what the script may touch, and run through
//! `vibe-sandbox` under [`ScriptLimits`] and the skill's sandbox [`Policy`]. Paths are resolved here and
//! must stay inside `scripts/`.

use std::path::{Component, Path, PathBuf};

use futures::future::BoxFuture;
use serde_json::{Value, json};
use vibe_llm::ToolDef;
use vibe_sandbox::{Invocation, Policy, ScriptLimits, ScriptRun};

use super::args::Args;
use super::{Tool, ToolContext, ToolKind, ToolOutput, active_skill, tool_def};

const SCRIPTS: &str = "scripts";
const MAX_STDIN_BYTES: usize = 1024 * 1024;
const MAX_ARGS: usize = 64;

/// Resolves `script` (relative to `scripts/`, with or without the `scripts/` prefix) to a file
/// inside `<skill_dir>/scripts`, following symlinks only when they stay inside.
pub(crate) fn resolve(skill_dir: &Path, script: &str) -> Result<PathBuf, String> {
    let rel = script.trim().trim_start_matches("./");
    let rel = rel.strip_prefix("scripts/").unwrap_or(rel);
    let rel_path = Path::new(rel);
    if rel.is_empty() || !rel_path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(format!(
            "refused to run `{script}`: give a file name under the skill's scripts/ folder, \
             without `..` or an absolute path (e.g. \"report.py\")"
        ));
    }
    let scripts = skill_dir.join(SCRIPTS).canonicalize().map_err(|_| {
        format!("this skill has no {SCRIPTS}/ folder, so there is no script to run")
    })?;
    let not_found = || {
        let known = list(skill_dir);
        let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
        format!("no script `{rel}` in {SCRIPTS}/ (available: {known})")
    };
    let path = scripts.join(rel_path).canonicalize().map_err(|_| not_found())?;
    if !path.starts_with(&scripts) {
        return Err(format!(
            "refused to run `{script}`: it points outside the skill's {SCRIPTS}/ folder"
        ));
    }
    if !path.is_file() {
        return Err(not_found());
    }
    Ok(path)
}

/// File names directly under `<skill_dir>/scripts`, sorted (hidden files left out).
pub(crate) fn list(skill_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(skill_dir.join(SCRIPTS)) else { return Vec::new() };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The script backing a declared tool `name`: `scripts/<name>.py`, then `.sh`, then any
/// other `scripts/<name>` or `scripts/<name>.*` (first by name).
pub(crate) fn find_for_tool(skill_dir: &Path, name: &str) -> Option<String> {
    let candidates: Vec<String> = list(skill_dir)
        .into_iter()
        .filter(|f| f == name || Path::new(f).file_stem().and_then(|s| s.to_str()) == Some(name))
        .collect();
    let rank = |f: &String| match Path::new(f).extension().and_then(|e| e.to_str()) {
        Some("py") => 0,
        Some("sh") => 1,
        _ => 2,
    };
    candidates.into_iter().min_by_key(|f| (rank(f), f.clone()))
}

/// The observation for a finished run; non-zero exits and timeouts are error observations.
fn observation(script: &str, run: ScriptRun) -> ToolOutput {
    let status = if run.timed_out {
        "timed_out"
    } else if run.exit_code == Some(0) {
        "success"
    } else {
        "failed"
    };
    let result = json!({
        "status": status,
        "script": format!("{SCRIPTS}/{script}"),
        "exit_code": run.exit_code,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "timed_out": run.timed_out,
        "truncated": run.truncated,
    });
    ToolOutput { result, is_error: status != "success", effect: None, write: None }
}

async fn execute(
    ctx: &ToolContext,
    tool: &str,
    script: &str,
    args: Vec<String>,
    stdin: Option<Vec<u8>>,
    limits: ScriptLimits,
    policy: &Policy,
) -> ToolOutput {
    let skill = match active_skill(ctx, tool) {
        Ok(s) => s,
        Err(out) => return out,
    };
    let dir = match ctx.skills.skill(skill) {
        Ok(entry) => entry.dir,
        Err(e) => return ToolOutput::error(e.to_string()),
    };
    let path = match resolve(&dir, script) {
        Ok(p) => p,
        Err(message) => return ToolOutput::field_error("script", message),
    };
    let shown = path
        .strip_prefix(dir.join(SCRIPTS).canonicalize().unwrap_or_default())
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_else(|_| script.to_string());
    match vibe_sandbox::run(Invocation { script: path, cwd: dir, args, stdin }, limits, policy)
        .await
    {
        Ok(run) => observation(&shown, run),
        Err(message) => ToolOutput::error(message),
    }
}

/// `run_script`: runs a script of the active skill named by the model. The registry's
/// instance has the default policy; a skill's tool set gets one with the skill's policy.
pub(crate) struct RunScript {
    pub limits: ScriptLimits,
    pub policy: Policy,
}

impl Tool for RunScript {
    fn name(&self) -> &str {
        "run_script"
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Script
    }

    fn needs_approval(&self, args: &Value) -> Option<String> {
        let script = args.get("script").and_then(Value::as_str).unwrap_or("?");
        let extra = args.get("args").map(|a| format!(" with arguments {a}")).unwrap_or_default();
        Some(format!(
            "run the skill script {SCRIPTS}/{}{extra} on this computer, {}",
            script.trim_start_matches("scripts/"),
            self.policy.describe(&self.limits)
        ))
    }

    fn definition(&self) -> ToolDef {
        let secs = self.limits.timeout.as_secs();
        tool_def(
            self.name(),
            &format!(
                "运行当前技能 scripts/ 文件夹里的脚本（每次都需要用户批准）。script 为文件名。\
                 例：{{\"script\": \"report.py\", \"args\": [\"--week\", \"3\"]}}；stdin 可传入文本。\
                 返回 exit_code、stdout、stderr；超过 {secs} 秒会被终止（timed_out），输出过长会被截断。\
                 用户拒绝时不要重复请求，改用其他方式。"
            ),
            json!({
                "type": "object",
                "properties": {
                    "script": {"type": "string", "description": "scripts/ 下的文件名"},
                    "args": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_ARGS},
                    "stdin": {"type": "string", "description": "传给脚本标准输入的文本"}
                },
                "required": ["script"]
            }),
        )
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            let parsed = Args::new("run_script", &args).and_then(|a| {
                let script = a.text("script", "\"report.py\"")?;
                let list = a.opt_text_list("args")?.unwrap_or_default();
                if list.len() > MAX_ARGS {
                    return Err(a.error("args", format!("at most {MAX_ARGS} arguments")));
                }
                let stdin = a.opt_text("stdin")?.map(|s| s.as_bytes().to_vec());
                if stdin.as_ref().is_some_and(|s| s.len() > MAX_STDIN_BYTES) {
                    return Err(a.error("stdin", format!("at most {MAX_STDIN_BYTES} bytes")));
                }
                Ok((script, list, stdin))
            });
            match parsed {
                Ok((script, list, stdin)) => {
                    execute(ctx, "run_script", script, list, stdin, self.limits, &self.policy).await
                }
                Err(e) => e.into(),
            }
        })
    }
}

/// A tool declared in a skill's `tools.yaml` and backed by `scripts/<file>`: the call's
/// arguments are checked against the declared schema, then written to the script's stdin as
/// one JSON object.
pub(crate) struct ScriptTool {
    definition: ToolDef,
    skill: String,
    /// File name under `scripts/`.
    file: String,
    limits: ScriptLimits,
    policy: Policy,
    /// `None` when the declared schema cannot be compiled (`vibe skills check` reports it).
    validator: Option<jsonschema::Validator>,
}

impl ScriptTool {
    pub fn new(
        definition: ToolDef,
        skill: &str,
        file: String,
        limits: ScriptLimits,
        policy: Policy,
    ) -> Self {
        let validator = jsonschema::draft202012::new(&definition.parameters).ok();
        Self { definition, skill: skill.to_string(), file, limits, policy, validator }
    }
}

impl Tool for ScriptTool {
    fn name(&self) -> &str {
        &self.definition.name
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Script
    }

    fn needs_approval(&self, _args: &Value) -> Option<String> {
        Some(format!(
            "run the script {SCRIPTS}/{} of skill {} (tool {}) on this computer, {}",
            self.file,
            self.skill,
            self.definition.name,
            self.policy.describe(&self.limits)
        ))
    }

    fn definition(&self) -> ToolDef {
        self.definition.clone()
    }

    fn call<'a>(&'a self, ctx: &'a ToolContext, args: Value) -> BoxFuture<'a, ToolOutput> {
        Box::pin(async move {
            if ctx.active_skill.as_deref() != Some(self.skill.as_str()) {
                return ToolOutput::error(format!(
                    "{} belongs to skill {}, which is not the active skill",
                    self.definition.name, self.skill
                ));
            }
            let input = if args.is_null() { json!({}) } else { args };
            if let Some(Err(e)) = self.validator.as_ref().map(|v| v.validate(&input)) {
                let at = e.instance_path().to_string();
                let field = if at.is_empty() { "arguments".to_string() } else { at };
                return ToolOutput::field_error(
                    field,
                    format!("{}: the arguments do not match its schema: {e}", self.definition.name),
                );
            }
            let stdin = serde_json::to_vec(&input).unwrap_or_default();
            execute(
                ctx,
                &self.definition.name,
                &self.file,
                Vec::new(),
                Some(stdin),
                self.limits,
                &self.policy,
            )
            .await
        })
    }
}
