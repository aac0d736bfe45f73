//! Parsing JSON the person or a model gives (docs/design.md#state-semantics): like
//! `serde_json::from_str`, but a duplicate key is refused, naming the key and where it is,
//! instead of the later one silently winning; integers beyond ±2^53 are refused by the store's
//! bounds (`bounds`) when written. Pure; no IO. It must not be used for the model's streamed
//! output (crates/jsonstream owns that).

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Parse `text` as JSON, refusing duplicate keys. The error says what is wrong and where
/// (`duplicate key "a" in the object at "goals.q1" (line 3, column 9)`).
pub fn parse_strict(text: &str) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict { at: String::new() }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// A value at a path (`a.b[2]`), for messages.
struct Strict {
    at: String,
}

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        loop {
            let at = format!("{}[{}]", self.at, items.len());
            match seq.next_element_seed(Strict { at })? {
                Some(item) => items.push(item),
                None => return Ok(Value::Array(items)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                let shown = if self.at.is_empty() { "the top level" } else { self.at.as_str() };
                return Err(A::Error::custom(format!(
                    "duplicate key \"{key}\" in the object at {shown}; give each key once"
                )));
            }
            let at = if self.at.is_empty() { key.clone() } else { format!("{}.{key}", self.at) };
            let value = map.next_value_seed(Strict { at })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_refused_naming_the_key_and_where() {
        let err = parse_strict(r#"{"goals": {"q1": 1, "q1": 2}}"#).unwrap_err().to_string();
        assert!(err.contains("duplicate key \"q1\" in the object at goals"), "{err}");
        let err = parse_strict(r#"{"a": 1, "a": 1}"#).unwrap_err().to_string();
        assert!(err.contains("duplicate key \"a\" in the object at the top level"), "{err}");
        let err = parse_strict(r#"{"l": [{}, {"x": 0, "x": 0}]}"#).unwrap_err().to_string();
        assert!(err.contains("at l[1]"), "{err}");
    }

    #[test]
    fn everything_else_parses_as_serde_json_does() {
        let text =
            r#"{"b": [1, -2, 3.5, "s", null, true], "a": {"x": {}}, "big": 9007199254740993}"#;
        assert_eq!(parse_strict(text).unwrap(), serde_json::from_str::<Value>(text).unwrap());
        assert!(parse_strict("{\"a\": 1} x").is_err(), "trailing text");
        assert!(parse_strict("{\"a\": ").is_err());
    }
}
