//! The names of MCP tools as a model sees them: `mcp__SERVER__TOOL`, within what OpenAI
//! function names allow (`[A-Za-z0-9_-]`, at most 64 characters), so they never collide with
//! built-in tools or skills' tools. Also what a server's name may be. Which tool a model name
//! stands for is the connection's (it keeps the server's own names).

/// Longest function name the OpenAI API takes.
pub const MAX_MODEL_NAME: usize = 64;
/// Longest server name.
pub const MAX_SERVER_NAME: usize = 32;
const PREFIX: &str = "mcp__";
const SEPARATOR: &str = "__";

/// Checks a server's name: 1 to 32 letters, digits, `-` and single `_` (not at either end,
/// never two in a row, so `mcp__SERVER__TOOL` splits back unambiguously).
pub fn check_server_name(name: &str) -> Result<(), String> {
    let ok_chars = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if name.is_empty()
        || name.len() > MAX_SERVER_NAME
        || !ok_chars
        || name.contains(SEPARATOR)
        || name.starts_with('_')
        || name.ends_with('_')
    {
        return Err(format!(
            "{name:?} cannot name a server: use 1 to {MAX_SERVER_NAME} letters, digits, `-` or \
             single `_` (not at the start or end), e.g. \"calendar\" or \"my-notes\""
        ));
    }
    Ok(())
}

/// The name a model sees for `tool` of `server` (a checked server name). Characters a
/// function name cannot hold become `_`; a name that would be longer than 64 characters is
/// cut and ends in a short hash of the whole tool name, so two long names stay apart.
pub fn model_tool_name(server: &str, tool: &str) -> String {
    let clean: String = tool
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    let head = format!("{PREFIX}{server}{SEPARATOR}");
    let name = format!("{head}{clean}");
    if name.len() <= MAX_MODEL_NAME && !clean.is_empty() {
        return name;
    }
    let hash = format!("_{:08x}", fnv1a(tool.as_bytes()) as u32);
    let room = MAX_MODEL_NAME.saturating_sub(head.len() + hash.len());
    format!("{head}{}{hash}", &clean[..clean.len().min(room)])
}

/// The server and (cleaned) tool part of a model's tool name, or `None` when it is not an
/// MCP tool's name.
pub fn split_model_tool_name(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix(PREFIX)?;
    let (server, tool) = rest.split_once(SEPARATOR)?;
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_function_name(s: &str) -> bool {
        !s.is_empty()
            && s.len() <= MAX_MODEL_NAME
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    }

    #[test]
    fn a_tool_name_round_trips() {
        let name = model_tool_name("calendar", "list_events");
        assert_eq!(name, "mcp__calendar__list_events");
        assert_eq!(split_model_tool_name(&name), Some(("calendar", "list_events")));
    }

    #[test]
    fn characters_a_function_name_cannot_hold_become_underscores() {
        let name = model_tool_name("notes", "search.notes/全文");
        assert_eq!(name, "mcp__notes__search_notes___");
        assert!(is_function_name(&name));
    }

    #[test]
    fn long_names_are_cut_and_stay_apart() {
        let a = model_tool_name("my-server", &format!("{}_a", "x".repeat(80)));
        let b = model_tool_name("my-server", &format!("{}_b", "x".repeat(80)));
        assert!(is_function_name(&a) && is_function_name(&b), "{a} {b}");
        assert_ne!(a, b);
        assert_eq!(split_model_tool_name(&a).map(|s| s.0), Some("my-server"));
    }

    #[test]
    fn other_names_are_not_mcp_tools() {
        assert_eq!(split_model_tool_name("use_skill"), None);
        assert_eq!(split_model_tool_name("mcp__calendar"), None);
    }

    #[test]
    fn server_names_are_checked() {
        for ok in ["calendar", "my-notes", "a_b", "x1"] {
            assert!(check_server_name(ok).is_ok(), "{ok}");
        }
        for bad in ["", "a__b", "_a", "a_", "has space", "日历", &"x".repeat(33)] {
            let e = check_server_name(bad).unwrap_err();
            assert!(e.contains("letters, digits"), "{e}");
        }
    }
}
