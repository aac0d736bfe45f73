//! Reading a `GET {base_url}/models` answer: OpenAI's `{"data": [...]}`, a bare
//! `{"models": [...]}` or a plain array, items with `id` or `name`.

use serde_json::Value;

use crate::errors::LlmError;
use crate::types::ModelInfo;

pub(crate) fn parse_models(text: &str, base_url: &str) -> Result<Vec<ModelInfo>, LlmError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        LlmError::protocol(format!("{base_url}/models did not return JSON ({e}); is the base URL an OpenAI-compatible endpoint?"))
    })?;
    let list =
        value.get("data").or_else(|| value.get("models")).unwrap_or(&value).as_array().ok_or_else(
            || {
                LlmError::protocol(format!(
                    "{base_url}/models returned no model list (expected {{\"data\": [...]}})"
                ))
            },
        )?;
    Ok(list
        .iter()
        .filter_map(|m| {
            let id = m.get("id").or_else(|| m.get("name")).and_then(Value::as_str)?;
            let owned_by = m.get("owned_by").and_then(Value::as_str).map(str::to_string);
            Some(ModelInfo { id: id.to_string(), owned_by })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_common_list_shapes_are_read() {
        let ids =
            |t: &str| parse_models(t, "x").unwrap().into_iter().map(|m| m.id).collect::<Vec<_>>();
        assert_eq!(ids(r#"{"data": [{"id": "a", "owned_by": "me"}]}"#), ["a"]);
        assert_eq!(ids(r#"{"models": [{"name": "b"}]}"#), ["b"]);
        assert_eq!(ids(r#"[{"id": "c"}]"#), ["c"]);
        assert_eq!(parse_models("<html>", "x").unwrap_err().kind().as_str(), "protocol");
    }
}
