//! The skill naming rule of the Agent Skills format: 1–64 characters of `a-z`, `0-9` and `-`,
//! no hyphen at either end, no two hyphens in a row. The same rule names scenarios and
//! personas. Checking that a name equals its folder is the caller's job (`meta`).

/// Longest allowed name.
pub const MAX_NAME_LEN: usize = 64;

/// `Ok` when `name` follows the rule, else the reason it does not.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("a name must not be empty".into());
    }
    let len = name.chars().count();
    if len > MAX_NAME_LEN {
        return Err(format!("a name has at most {MAX_NAME_LEN} characters, this one has {len}"));
    }
    if let Some(c) = name.chars().find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-')) {
        return Err(format!("a name may only use lowercase a-z, digits 0-9 and `-`, found `{c}`"));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err("a name must not start or end with `-`".into());
    }
    if name.contains("--") {
        return Err("a name must not contain `--`".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_agent_skills_alphabet() {
        for ok in ["a", "bazi", "pdf-tools", "x2", &"a".repeat(64)] {
            assert_eq!(check_name(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn rejects_each_rule_with_a_reason() {
        let cases = [
            ("", "empty"),
            (&"a".repeat(65) as &str, "at most 64"),
            ("Bazi", "found `B`"),
            ("ba_zi", "found `_`"),
            ("八字", "found `八`"),
            ("-bazi", "start or end"),
            ("bazi-", "start or end"),
            ("ba--zi", "`--`"),
        ];
        for (name, why) in cases {
            let err = check_name(name).unwrap_err();
            assert!(err.contains(why), "{name}: {err}");
        }
    }
}
