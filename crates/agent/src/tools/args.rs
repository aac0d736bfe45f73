//! Reading a tool call's JSON arguments with errors that name the argument, say what was
//! wrong and show a valid example, so the model can correct its next call. What each tool
//! does with its arguments belongs to the tool's own file.

use serde_json::{Map, Value};

use super::ToolOutput;

/// A bad argument: becomes `{"status": "error", "field": <argument>, "message": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgError {
    pub field: String,
    pub message: String,
}

impl From<ArgError> for ToolOutput {
    fn from(e: ArgError) -> Self {
        ToolOutput::field_error(e.field, e.message)
    }
}

/// The arguments object of one call (`null` reads as `{}`).
pub(crate) struct Args<'a> {
    tool: &'static str,
    map: Option<&'a Map<String, Value>>,
}

/// The JSON type name of `v`, for messages.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

impl<'a> Args<'a> {
    pub fn new(tool: &'static str, args: &'a Value) -> Result<Self, ArgError> {
        match args {
            Value::Null => Ok(Self { tool, map: None }),
            Value::Object(map) => Ok(Self { tool, map: Some(map) }),
            other => Err(ArgError {
                field: tool.into(),
                message: format!("{tool} takes a JSON object of arguments, got {}", kind_of(other)),
            }),
        }
    }

    pub fn error(&self, name: &str, message: impl Into<String>) -> ArgError {
        ArgError {
            field: name.into(),
            message: format!("{}.{name}: {}", self.tool, message.into()),
        }
    }

    /// The argument, `None` when absent or `null`.
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.and_then(|m| m.get(name)).filter(|v| !v.is_null())
    }

    pub fn required(&self, name: &str, example: &str) -> Result<&'a Value, ArgError> {
        self.get(name).ok_or_else(|| self.error(name, format!("is required, e.g. {example}")))
    }

    /// Non-empty text (trimmed).
    pub fn text(&self, name: &str, example: &str) -> Result<&'a str, ArgError> {
        match self.required(name, example)? {
            Value::String(s) if !s.trim().is_empty() => Ok(s.trim()),
            Value::String(_) => Err(self.error(name, format!("must not be empty, e.g. {example}"))),
            other => Err(self.error(name, format!("expected text, got {}", kind_of(other)))),
        }
    }

    pub fn opt_text(&self, name: &str) -> Result<Option<&'a str>, ArgError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.trim())),
            Some(other) => Err(self.error(name, format!("expected text, got {}", kind_of(other)))),
        }
    }

    pub fn opt_bool(&self, name: &str) -> Result<Option<bool>, ArgError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(other) => {
                Err(self.error(name, format!("expected true or false, got {}", kind_of(other))))
            }
        }
    }

    /// A whole number in `min..=max` (integral floats such as `20.0` are accepted).
    pub fn opt_u64(&self, name: &str, min: u64, max: u64) -> Result<Option<u64>, ArgError> {
        let Some(v) = self.get(name) else { return Ok(None) };
        let n = v.as_u64().or_else(|| {
            v.as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= max as f64)
                .map(|f| f as u64)
        });
        match n {
            Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => {
                Err(self
                    .error(name, format!("expected a whole number from {min} to {max}, got {v}")))
            }
        }
    }

    /// A list of non-empty texts.
    pub fn opt_text_list(&self, name: &str) -> Result<Option<Vec<String>>, ArgError> {
        let Some(v) = self.get(name) else { return Ok(None) };
        let bad = || self.error(name, format!("expected a list of texts, got {v}"));
        let Value::Array(items) = v else {
            // A single text is read as a one-item list: models often send `"goals"`.
            return match v {
                Value::String(s) if !s.trim().is_empty() => Ok(Some(vec![s.trim().to_string()])),
                _ => Err(bad()),
            };
        };
        items
            .iter()
            .map(|i| i.as_str().map(str::trim).filter(|s| !s.is_empty()).map(String::from))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(bad)
    }

    /// A JSON object.
    pub fn object(&self, name: &str, example: &str) -> Result<&'a Map<String, Value>, ArgError> {
        match self.required(name, example)? {
            Value::Object(map) => Ok(map),
            other => Err(self.error(
                name,
                format!("expected a JSON object, got {}; e.g. {example}", kind_of(other)),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn null_arguments_read_as_an_empty_object() {
        let v = Value::Null;
        let a = Args::new("t", &v).unwrap();
        assert_eq!(a.opt_text("x").unwrap(), None);
        assert!(Args::new("t", &json!([1])).is_err());
    }

    #[test]
    fn errors_name_the_argument_and_the_fix() {
        let v = json!({"section": 3, "n": 0, "s": ""});
        let a = Args::new("write_state", &v).unwrap();
        let e = a.text("section", "\"goals\"").unwrap_err();
        assert_eq!(e.field, "section");
        assert!(e.message.contains("write_state.section: expected text, got a number"));
        let e = a.text("missing", "\"goals\"").unwrap_err();
        assert!(e.message.contains("is required, e.g. \"goals\""), "{}", e.message);
        assert!(a.opt_u64("n", 1, 10).unwrap_err().message.contains("from 1 to 10"));
        assert!(a.text("s", "\"x\"").unwrap_err().message.contains("must not be empty"));
    }

    #[test]
    fn text_lists_accept_a_single_text() {
        let v = json!({"a": "goals", "b": ["x", " y "], "c": [1]});
        let a = Args::new("read_state", &v).unwrap();
        assert_eq!(a.opt_text_list("a").unwrap(), Some(vec!["goals".to_string()]));
        assert_eq!(a.opt_text_list("b").unwrap(), Some(vec!["x".to_string(), "y".to_string()]));
        assert!(a.opt_text_list("c").is_err());
    }

    #[test]
    fn integral_floats_count_as_whole_numbers() {
        let v = json!({"n": 20.0, "m": 2.5});
        let a = Args::new("append_to_list", &v).unwrap();
        assert_eq!(a.opt_u64("n", 1, 1000).unwrap(), Some(20));
        assert!(a.opt_u64("m", 1, 1000).is_err());
    }
}
