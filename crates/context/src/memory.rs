//! What of memory reaches a skill's prompt: only the `extracted` paths the skill declares in
//! `profile_fields` (`extracted` for every kind, `extracted.goals` for one), items newest and
//! most confident first, as many as fit the token budget (`context.memory_tokens`), and the
//! person's memory switch as the prompt reads it (off: nothing of memory). The switch is
//! checked by the caller (the phase-2 builder). Extracting memory, and turning the switch on
//! or off, are the memory module's (above this one).

use serde_json::{Map, Value};
use vibe_store::MemoryItem;
use vibe_wire::command::MemoryKind;

use super::Tokenizer;

/// The profile section memory lives under.
pub const EXTRACTED: &str = "extracted";

/// The profile path of the memory switch (`true` or absent: on; `false`: off).
pub const MEMORY_PREFERENCE: &str = "preferences.memory";

/// Whether the memory switch is on in `profile` (or a view of it); absent counts as on.
pub fn memory_switch(profile: &Value) -> bool {
    profile.pointer("/preferences/memory").and_then(Value::as_bool).unwrap_or(true)
}

/// The value of the declared profile field `field` (`extracted` or `extracted.<kind>`) from
/// `items` (in the store's order: newest, then most confident, first), spending `budget`
/// tokens. `None` when the field is not a memory path or no item of it fits.
pub fn memory_value(
    items: &[MemoryItem],
    field: &str,
    budget: &mut u32,
    tk: &Tokenizer,
) -> Option<Value> {
    let kind = match field.strip_prefix(EXTRACTED) {
        Some("") => None,
        Some(rest) => Some(MemoryKind::from_name(rest.strip_prefix('.')?)?),
        None => return None,
    };
    let mut by_kind: Map<String, Value> = Map::new();
    for item in items.iter().filter(|i| kind.is_none_or(|k| k == i.kind)) {
        // Each item costs its text plus the quotes and comma around it.
        let cost = tk.count(&item.text) + 2;
        if cost > *budget {
            continue;
        }
        *budget -= cost;
        let list = by_kind.entry(item.kind.as_str()).or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = list {
            list.push(Value::String(item.text.clone()));
        }
    }
    match kind {
        Some(k) => by_kind.remove(k.as_str()),
        None if by_kind.is_empty() => None,
        None => {
            let ordered: Map<String, Value> = MemoryKind::ALL
                .iter()
                .filter_map(|k| by_kind.remove(k.as_str()).map(|v| (k.to_string(), v)))
                .collect();
            Some(Value::Object(ordered))
        }
    }
}
