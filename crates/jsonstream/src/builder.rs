//! Builds `serde_json::Value`s for containers whose value is needed (the
//! whole document when retained, or a subscribed subtree).
//!
//! Owns the stack of half-built arrays and objects. It does not decide what
//! to build: the parser opens a builder frame only for containers it keeps.

use serde_json::{Map, Value};

enum Partial {
    Array(Vec<Value>),
    Object(Map<String, Value>),
}

#[derive(Default)]
pub(crate) struct Builder {
    stack: Vec<Partial>,
}

impl Builder {
    pub(crate) fn open_array(&mut self) {
        self.stack.push(Partial::Array(Vec::new()));
    }

    pub(crate) fn open_object(&mut self) {
        self.stack.push(Partial::Object(Map::new()));
    }

    /// Adds a completed child to the innermost open container. For objects
    /// a repeated key keeps its first position and takes the last value,
    /// as serde_json does.
    pub(crate) fn add(&mut self, key: Option<String>, value: Value) {
        match (self.stack.last_mut(), key) {
            (Some(Partial::Array(items)), _) => items.push(value),
            (Some(Partial::Object(map)), Some(key)) => {
                map.insert(key, value);
            }
            // The parser only calls `add` under a frame it opened, with a key
            // exactly for objects; nothing else can reach here.
            (Some(Partial::Object(_)), None) | (None, _) => {}
        }
    }

    /// Closes the innermost open container and returns its value.
    pub(crate) fn close(&mut self) -> Value {
        match self.stack.pop() {
            Some(Partial::Array(items)) => Value::Array(items),
            Some(Partial::Object(map)) => Value::Object(map),
            None => Value::Null,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nests_and_keeps_first_position_for_repeated_keys() {
        let mut b = Builder::default();
        b.open_object();
        b.add(Some("a".into()), json!(1));
        b.open_array();
        b.add(None, json!(true));
        let inner = b.close();
        b.add(Some("b".into()), inner);
        b.add(Some("a".into()), json!(3));
        let v = b.close();
        assert_eq!(v.to_string(), r#"{"a":3,"b":[true]}"#);
    }
}
