//! Subscription patterns: the JSONPath subset `$`, `.key`, `['key']`, `[n]`,
//! `[*]` and `.*`.
//!
//! Owns parsing a pattern and matching one step against one concrete path
//! segment. Which subscriptions are live at which depth is `subscriptions`'
//! business.

use crate::error::Error;
use crate::path::is_name_char;

/// One step of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// `.key` or `['key']`: the member with exactly this key.
    Key(String),
    /// `[n]`: the array element at index n.
    Index(usize),
    /// `.*` or `[*]`: any member of an object or any element of an array.
    Any,
}

/// A concrete segment of the path being parsed, borrowed from the frame stack.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

impl Step {
    pub(crate) fn matches(&self, seg: Seg<'_>) -> bool {
        match (self, seg) {
            (Step::Any, _) => true,
            (Step::Key(k), Seg::Key(s)) => k == s,
            (Step::Index(i), Seg::Index(n)) => *i == n,
            _ => false,
        }
    }
}

/// Parses a pattern into its steps (empty for `$`, the root).
pub(crate) fn parse(pattern: &str) -> Result<Vec<Step>, Error> {
    let chars: Vec<char> = pattern.chars().collect();
    let fail = |index: usize, reason: &'static str| Error::Pattern {
        pattern: pattern.to_owned(),
        index,
        reason,
    };
    if chars.first() != Some(&'$') {
        return Err(fail(0, "a pattern starts with `$` (the document root)"));
    }
    let mut steps = Vec::new();
    let mut i = 1;
    while i < chars.len() {
        match chars[i] {
            '.' => {
                i += 1;
                if chars.get(i) == Some(&'*') {
                    steps.push(Step::Any);
                    i += 1;
                    continue;
                }
                let start = i;
                while i < chars.len() && is_name_char(chars[i]) {
                    i += 1;
                }
                if i == start {
                    return Err(fail(
                        i,
                        "expected a name or `*` after `.`; write keys with other characters as ['key']",
                    ));
                }
                steps.push(Step::Key(chars[start..i].iter().collect()));
            }
            '[' => {
                let (step, next) =
                    parse_bracket(&chars, i + 1).map_err(|(at, why)| fail(at, why))?;
                steps.push(step);
                i = next;
            }
            _ => {
                return Err(fail(
                    i,
                    "expected `.name`, `.*`, `[n]`, `[*]` or `['key']`; write keys with other characters as ['key']",
                ));
            }
        }
    }
    Ok(steps)
}

/// Parses what follows `[`; returns the step and the index after `]`.
fn parse_bracket(chars: &[char], mut i: usize) -> Result<(Step, usize), (usize, &'static str)> {
    let step = match chars.get(i) {
        Some('*') => {
            i += 1;
            Step::Any
        }
        Some(&quote @ ('\'' | '"')) => {
            i += 1;
            let mut key = String::new();
            loop {
                match chars.get(i) {
                    None => {
                        return Err((i, "unterminated quoted key; close it with the same quote"));
                    }
                    Some('\\') => match chars.get(i + 1) {
                        Some(&c @ ('\\' | '\'' | '"')) => {
                            key.push(c);
                            i += 2;
                        }
                        _ => {
                            return Err((i, "in a quoted key only \\\\, \\' and \\\" are escapes"));
                        }
                    },
                    Some(&c) if c == quote => {
                        i += 1;
                        break;
                    }
                    Some(&c) => {
                        key.push(c);
                        i += 1;
                    }
                }
            }
            Step::Key(key)
        }
        Some('-') => {
            return Err((
                i,
                "negative indices are not supported: a stream does not know the array's length",
            ));
        }
        Some(c) if c.is_ascii_digit() => {
            let start = i;
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
            if chars[start] == '0' && i - start > 1 {
                return Err((start, "an index has no leading zeros"));
            }
            let digits: String = chars[start..i].iter().collect();
            let n = digits.parse().map_err(|_| (start, "index too large"))?;
            Step::Index(n)
        }
        _ => return Err((i, "expected an index, `*` or a quoted key after `[`")),
    };
    if chars.get(i) != Some(&']') {
        return Err((i, "expected `]`"));
    }
    Ok((step, i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_supported_forms() {
        assert_eq!(parse("$").unwrap(), vec![]);
        assert_eq!(
            parse("$.plan_update.steps[*].title").unwrap(),
            vec![
                Step::Key("plan_update".into()),
                Step::Key("steps".into()),
                Step::Any,
                Step::Key("title".into())
            ]
        );
        assert_eq!(
            parse(r#"$['a.b'][0].*["x\"y"]"#).unwrap(),
            vec![Step::Key("a.b".into()), Step::Index(0), Step::Any, Step::Key("x\"y".into())]
        );
    }

    #[test]
    fn rejects_malformed_patterns_with_a_position() {
        for (pattern, index) in [
            ("action.type", 0),
            ("$.", 2),
            ("$.a b", 3),
            ("$[", 2),
            ("$[01]", 2),
            ("$[-1]", 2),
            ("$['a]", 5),
            ("$[1", 3),
            ("$[99999999999999999999999]", 2),
        ] {
            match parse(pattern) {
                Err(Error::Pattern { index: at, .. }) => assert_eq!(at, index, "{pattern}"),
                other => panic!("{pattern}: {other:?}"),
            }
        }
    }

    #[test]
    fn wildcard_matches_keys_and_indices() {
        assert!(Step::Any.matches(Seg::Key("k")));
        assert!(Step::Any.matches(Seg::Index(3)));
        assert!(Step::Key("3".into()).matches(Seg::Key("3")));
        assert!(!Step::Key("3".into()).matches(Seg::Index(3)));
        assert!(!Step::Index(3).matches(Seg::Key("3")));
    }
}
