//! Reading and writing `settings.json`, whose one typed [`Settings`] (every section) is
//! declared in `vibe_wire::settings` (its TypeScript is generated from there). Read one way:
//! every section with `serde(default)`, a key no section knows refused with the file and the
//! key named (a typo never silently does nothing), a value of the wrong type refused likewise. Changes are
//! validated by the same types before anything is written, then written atomically (a
//! temporary file renamed over the old one). What the settings mean belongs to each crate's
//! own type; the environment and flags that win over them are `paths::Overrides`.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use vibe_protocol::ReminderSettingsExt;
use vibe_wire::command::SettingChange;
pub use vibe_wire::settings::{Language, Preferences, Settings};

use crate::app::AppError;
use vibe_agent::input::InputError;

/// Where the keys are documented, for messages.
const KEYS_DOC: &str = "the keys are in docs/architecture.md, \"Settings\"";

/// Reading the settings file into its types.
pub trait SettingsFile: Sized {
    /// Read `file` (missing: the defaults). Returns the typed settings and the document as
    /// written (what a change is applied to, so untouched keys stay as the person wrote them).
    fn load(file: &Path) -> Result<(Self, Value), AppError>;
    /// The settings a document describes; `file` names it in errors.
    fn from_document(doc: &Value, file: &Path) -> Result<Self, AppError>;
}

impl SettingsFile for Settings {
    fn load(file: &Path) -> Result<(Settings, Value), AppError> {
        let text = match vibe_agent::input::read_text(
            file,
            "settings file",
            vibe_agent::input::FILE_CAP,
        ) {
            Ok(text) => text,
            Err(InputError::Read { err, .. }) if err.kind() == std::io::ErrorKind::NotFound => {
                return Ok((Settings::default(), Value::Object(Map::new())));
            }
            Err(InputError::Read { err, .. }) => {
                return Err(AppError::SettingsIo { path: file.to_path_buf(), err });
            }
            Err(other) => return Err(setting_error(file, None, &other.to_string())),
        };
        let doc: Value = serde_json::from_str(&text).map_err(|e| AppError::SettingsJson {
            file: file.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let settings = Self::from_document(&doc, file)?;
        Ok((settings, doc))
    }

    fn from_document(doc: &Value, file: &Path) -> Result<Settings, AppError> {
        let Some(map) = doc.as_object() else {
            if doc.is_null() {
                return Ok(Settings::default());
            }
            return Err(setting_error(file, None, "the settings file must hold a JSON object"));
        };
        if let Some(key) = map.keys().find(|k| !Settings::SECTIONS.contains(&k.as_str())) {
            return Err(setting_error(
                file,
                Some(key),
                &format!(
                    "unknown key \"{key}\" (the sections are {}; check its spelling, or remove it; {KEYS_DOC})",
                    Settings::SECTIONS.join(", ")
                ),
            ));
        }
        let chat = map.get("chat").unwrap_or(&Value::Null);
        if chat.pointer("/budgets/max_context_tokens").is_some() {
            return Err(setting_error(
                file,
                Some("chat.budgets.max_context_tokens"),
                &format!(
                    "\"chat.budgets.max_context_tokens\" is no longer read: the model's context window is one setting, \"chat.context.max_context_tokens\" (default {}); move the value there",
                    vibe_context::ContextLimits::default().max_context_tokens
                ),
            ));
        }
        if let Some((key, problem)) = mcp_transport_key(map) {
            return Err(setting_error(file, Some(&key), &problem));
        }
        let settings = Settings {
            llm: section(map, "llm", file)?,
            skills: section(map, "skills", file)?,
            tools: section(map, "tools", file)?,
            chat: section(map, "chat", file)?,
            preferences: section(map, "preferences", file)?,
            storage: section(map, "storage", file)?,
            backups: section(map, "backups", file)?,
            models: section(map, "models", file)?,
            sync: section(map, "sync", file)?,
            mcp: section(map, "mcp", file)?,
        };
        for name in settings.mcp.servers.keys() {
            if let Err(problem) = vibe_mcp::check_server_name(name) {
                let key = format!("mcp.servers.{name}");
                return Err(setting_error(file, Some(&key), &problem));
            }
        }
        if let Some(problem) = settings.preferences.reminders.problem() {
            let key = "preferences.reminders.quiet_hours";
            return Err(setting_error(file, Some(key), &format!("\"{key}\": {problem}")));
        }
        Ok(settings)
    }
}

/// A server's `"type"` (`mcp.servers.NAME.type`), which Claude Code, Cursor and VS Code
/// write and these settings do not take, with what to do: a server with `url` is streamable
/// HTTP here, and the older HTTP+SSE transport cannot be used at all (docs/mcp.md).
fn mcp_transport_key(map: &Map<String, Value>) -> Option<(String, String)> {
    let servers = map.get("mcp")?.get("servers")?.as_object()?;
    servers.iter().find_map(|(name, server)| {
        let kind = server.get("type")?;
        let key = format!("mcp.servers.{name}.type");
        let problem = if kind.as_str().is_some_and(|k| k.eq_ignore_ascii_case("sse")) {
            let url = server.get("url").and_then(Value::as_str).unwrap_or("its URL");
            let url = vibe_llm::redact_url(url);
            vibe_mcp::McpError::OldSse { server: name.clone(), url }.to_string()
        } else {
            format!(
                "\"{key}\" is not read: a server with \"command\" is a program VibeLife starts \
                 (stdio) and one with \"url\" is reached over streamable HTTP; remove \"type\" \
                 (`vibe mcp import FILE` reads a config that has it)"
            )
        };
        Some((key, problem))
    })
}

/// Section `name` into its type (absent or `null`: the defaults).
fn section<T: DeserializeOwned + Default>(
    map: &Map<String, Value>,
    name: &str,
    file: &Path,
) -> Result<T, AppError> {
    let Some(value) = map.get(name).filter(|v| !v.is_null()) else { return Ok(T::default()) };
    let mut unknown = Vec::new();
    let parsed: T = serde_ignored::deserialize(value.clone(), |path| {
        unknown.push(path.to_string());
    })
    .map_err(|e| {
        let message = e.to_string();
        // serde names an unknown field of a `deny_unknown_fields` struct, not where it is:
        // find it in the section to name the whole key.
        if let Some(field) = unknown_field(&message)
            && let Some(path) = find_key(value, field)
        {
            let key = format!("{name}.{path}");
            return setting_error(
                file,
                Some(&key),
                &format!("unknown key \"{key}\" ({message}; check its spelling, or remove it; {KEYS_DOC})"),
            );
        }
        setting_error(
            file,
            Some(name),
            &format!("the \"{name}\" section is invalid: {message} (fix or remove it; {KEYS_DOC})"),
        )
    })?;
    if let Some(key) = unknown.first() {
        let key = format!("{name}.{key}");
        return Err(setting_error(
            file,
            Some(&key),
            &format!("unknown key \"{key}\" (check its spelling, or remove it; {KEYS_DOC})"),
        ));
    }
    Ok(parsed)
}

/// The dotted path of the first key named `field` in `value`.
fn find_key(value: &Value, field: &str) -> Option<String> {
    let map = value.as_object()?;
    if map.contains_key(field) {
        return Some(field.to_string());
    }
    map.iter().find_map(|(k, v)| find_key(v, field).map(|p| format!("{k}.{p}")))
}

fn unknown_field(message: &str) -> Option<&str> {
    message.strip_prefix("unknown field `")?.split('`').next()
}

fn setting_error(file: &Path, key: Option<&str>, message: &str) -> AppError {
    AppError::Settings {
        file: file.to_path_buf(),
        key: key.map(str::to_string),
        message: message.to_string(),
    }
}

/// Apply `changes` to `doc` (dotted keys; `null` removes one and empty objects left behind).
pub fn apply_changes(
    doc: &Value,
    changes: &[SettingChange],
    file: &Path,
) -> Result<Value, AppError> {
    let mut doc = match doc {
        Value::Object(_) => doc.clone(),
        _ => Value::Object(Map::new()),
    };
    for change in changes {
        let parts: Vec<&str> = change.key.split('.').collect();
        if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
            return Err(setting_error(
                file,
                Some(&change.key),
                &format!(
                    "\"{}\" is not a settings key: name a section and a key, e.g. \"llm.model\"",
                    change.key
                ),
            ));
        }
        set_path(&mut doc, &parts, change.value.clone());
    }
    Ok(doc)
}

fn set_path(doc: &mut Value, parts: &[&str], value: Value) {
    let Value::Object(map) = doc else { return };
    let (first, rest) = (parts[0], &parts[1..]);
    if rest.is_empty() {
        if value.is_null() {
            map.remove(first);
        } else {
            map.insert(first.to_string(), value);
        }
        return;
    }
    if value.is_null() && !map.contains_key(first) {
        return;
    }
    let child = map.entry(first.to_string()).or_insert_with(|| Value::Object(Map::new()));
    if !child.is_object() {
        *child = Value::Object(Map::new());
    }
    set_path(child, rest, value);
    if child.as_object().is_some_and(Map::is_empty) {
        map.remove(first);
    }
}

/// Write `doc` to `file` atomically: a temporary file in the same folder, renamed over it.
pub fn write_atomically(file: &Path, doc: &Value) -> Result<(), AppError> {
    let dir: PathBuf = file.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let io = |err| AppError::SettingsIo { path: file.to_path_buf(), err };
    std::fs::create_dir_all(&dir).map_err(io)?;
    let mut text = serde_json::to_string_pretty(doc).unwrap_or_else(|_| doc.to_string());
    text.push('\n');
    let mut tmp = tempfile::Builder::new()
        .prefix(".settings-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(io)?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(file).map_err(|e| io(e.error))?;
    Ok(())
}

#[cfg(test)]
#[path = "settings_tests.rs"]
mod tests;
