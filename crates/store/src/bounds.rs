//! What the store accepts, so that everything written reads back: at most
//! [`MAX_PATH_SEGMENTS`] segments in a dotted path, [`MAX_KEY_BYTES`] per key or segment,
//! [`MAX_DEPTH`] levels of nesting counted from the profile root (serde_json refuses to read
//! deeper than 128), [`MAX_VALUE_BYTES`] per written value, and integers that survive a trip
//! through JavaScript (|n| ≤ 2^53). Each refusal names the limit and where it was hit.
//! Pure checks over `serde_json::Value`; no IO.

use serde_json::Value;

use crate::error::{Result, StoreError};

/// Segments of a dotted path (`progress.milestones` has 2).
pub const MAX_PATH_SEGMENTS: usize = 16;
/// Bytes of one object key or path segment.
pub const MAX_KEY_BYTES: usize = 256;
/// Levels of nesting of a stored value, counted from the profile root.
pub const MAX_DEPTH: usize = 48;
/// Bytes of one written value, as JSON.
pub const MAX_VALUE_BYTES: usize = 1 << 20;
/// The largest integer stored exactly (JavaScript's `Number.MAX_SAFE_INTEGER` + 1).
pub const MAX_EXACT_INTEGER: u64 = 1 << 53;

/// Checks a dotted path's segments.
pub(crate) fn check_path(segments: &[&str], path: &str, what: &str) -> Result<()> {
    if segments.len() > MAX_PATH_SEGMENTS {
        return Err(StoreError::invalid(format!(
            "{what} \"{}…\" has {} segments; the limit is {MAX_PATH_SEGMENTS}: use a shorter path",
            truncated(path),
            segments.len()
        )));
    }
    if let Some(seg) = segments.iter().find(|s| s.len() > MAX_KEY_BYTES) {
        return Err(StoreError::invalid(format!(
            "{what} has a segment of {} bytes (\"{}…\"); the limit is {MAX_KEY_BYTES} bytes",
            seg.len(),
            truncated(seg)
        )));
    }
    Ok(())
}

/// Checks a value written at `depth` levels below the profile root; `shown` names where.
pub(crate) fn check_value(value: &Value, depth: usize, shown: &str) -> Result<()> {
    let bytes = serde_json::to_vec(value).map(|v| v.len()).unwrap_or(usize::MAX);
    if bytes > MAX_VALUE_BYTES {
        return Err(StoreError::invalid(format!(
            "the value for \"{shown}\" is {bytes} bytes of JSON; the limit is {MAX_VALUE_BYTES} bytes: \
             store less, or split it over several entries"
        )));
    }
    walk(value, depth, shown)
}

/// Like [`check_value`] without the size limit (whole-profile imports).
pub(crate) fn check_shape(value: &Value, depth: usize, shown: &str) -> Result<()> {
    walk(value, depth, shown)
}

fn walk(value: &Value, depth: usize, at: &str) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(StoreError::invalid(format!(
            "the value at \"{}\" is nested {depth} levels deep (counted from the profile root); \
             the limit is {MAX_DEPTH}: flatten it",
            truncated(at)
        )));
    }
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                if key.len() > MAX_KEY_BYTES {
                    return Err(StoreError::invalid(format!(
                        "a key under \"{}\" is {} bytes (\"{}…\"); the limit is {MAX_KEY_BYTES} bytes",
                        truncated(at),
                        key.len(),
                        truncated(key)
                    )));
                }
                walk(inner, depth + 1, &format!("{at}.{key}"))?;
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, inner) in items.iter().enumerate() {
                walk(inner, depth + 1, &format!("{at}[{i}]"))?;
            }
            Ok(())
        }
        Value::Number(n) => check_number(n, at),
        _ => Ok(()),
    }
}

fn check_number(n: &serde_json::Number, at: &str) -> Result<()> {
    let too_big = if let Some(u) = n.as_u64() {
        u > MAX_EXACT_INTEGER
    } else if let Some(i) = n.as_i64() {
        i.unsigned_abs() > MAX_EXACT_INTEGER
    } else {
        // A float with no fraction beyond 2^53 is an integer that was already rounded.
        n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() > MAX_EXACT_INTEGER as f64)
    };
    if too_big {
        return Err(StoreError::invalid(format!(
            "the number {n} at \"{}\" is an integer beyond ±2^53, which cannot be kept exactly; \
             store it as a string",
            truncated(at)
        )));
    }
    Ok(())
}

/// At most 80 characters of `text`, for messages.
fn truncated(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
#[path = "bounds_tests.rs"]
mod tests;
