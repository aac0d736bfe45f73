//! The one way a test may skip itself when a precondition is missing (a tool, a kernel
//! feature, a data set): [`skip`] says why and lets the test return, except under `CI=true`,
//! where a skip fails the test unless the test's name is listed, with the reason, in the
//! committed allow-list `tests/skip-allow.txt` (`name<TAB>reason` a line). It only decides;
//! it never checks a precondition itself, and a test must not skip by any other path.
//! `scripts/test-keychain.sh` applies the same rule to the same file.

/// The committed allow-list (read at build time: a change rebuilds the tests that use it).
const ALLOW_LIST: &str = include_str!("../../../tests/skip-allow.txt");

/// Where the allow-list lives, for messages.
const ALLOW_LIST_PATH: &str = "tests/skip-allow.txt";

/// Called by a test whose precondition is missing, just before it returns without running.
/// Outside CI it prints a notice (on stderr, which `cargo test` shows for a failing test and
/// with `--nocapture`) and returns. Under `CI=true` it panics, failing the test, unless `test`
/// is allow-listed. `test` is the name the allow-list uses: the package and the test's name
/// as `cargo test` prints it, e.g. `vibe-jsonstream suite::json_test_suite_agrees…`.
///
/// # Panics
/// Under `CI=true` when `test` is not in the allow-list, and always when the allow-list is
/// malformed.
pub fn skip(test: &str, reason: &str) {
    match decide(test, reason, in_ci(), ALLOW_LIST) {
        Ok(notice) => eprintln!("{notice}"),
        Err(failure) => panic!("{failure}"),
    }
}

/// The name of the running test as the test harness gave it to the thread
/// (`module::test_name`), for helpers shared by several tests; `fallback` where the thread
/// has no test name (the harness runs a lone test on its main thread).
pub fn current_test(fallback: &str) -> String {
    match std::thread::current().name() {
        Some(name) if name != "main" => name.to_string(),
        _ => fallback.to_string(),
    }
}

/// Whether this run is CI's: `CI` set to `true` (or `1`), as CI services set it.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// The skip's notice (`Ok`) or the failure (`Err`) for `test` given whether this is CI and
/// the allow-list's text.
fn decide(test: &str, reason: &str, ci: bool, allow_list: &str) -> Result<String, String> {
    let allowed = parse(allow_list)?;
    let listed = allowed.iter().find(|(name, _)| *name == test);
    match (ci, listed) {
        (false, _) => Ok(format!("NOTICE: {test} skipped: {reason}")),
        (true, Some((_, why))) => {
            Ok(format!("NOTICE: {test} skipped: {reason} (allowed in CI: {why})"))
        }
        (true, None) => Err(format!(
            "{test} could not run: {reason}. Under CI=true a skipped test fails: install what it \
             needs (scripts/env.sh, scripts/test.sh), or list it in {ALLOW_LIST_PATH} as \
             `{test}<TAB>why it cannot run in CI`"
        )),
    }
}

/// The allow-list's entries `(name, reason)`; blank lines and `#` comments are ignored. A line
/// without a tab or with an empty name or reason is an error naming its line.
fn parse(text: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut entries = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once('\t') {
            Some((name, reason)) if !name.trim().is_empty() && !reason.trim().is_empty() => {
                entries.push((name.trim(), reason.trim()));
            }
            _ => {
                return Err(format!(
                    "{ALLOW_LIST_PATH}:{}: expected `test name<TAB>reason`, found {line:?}",
                    i + 1
                ));
            }
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str =
        "# tests allowed to skip in CI\n\nvibe-core a_test\tno Landlock on the CI kernel\n";

    #[test]
    fn outside_ci_a_skip_is_a_notice() {
        let notice = decide("vibe-core other", "no pdftotext", false, LIST).unwrap();
        assert!(notice.contains("vibe-core other skipped: no pdftotext"), "{notice}");
    }

    #[test]
    fn in_ci_a_skip_fails_and_says_how_to_fix_it() {
        let failure = decide("vibe-core other", "no pdftotext", true, LIST).unwrap_err();
        assert!(failure.contains("vibe-core other could not run: no pdftotext"), "{failure}");
        assert!(failure.contains("tests/skip-allow.txt"), "{failure}");
    }

    #[test]
    fn in_ci_an_allow_listed_skip_is_a_notice_with_the_listed_reason() {
        let notice = decide("vibe-core a_test", "no Landlock", true, LIST).unwrap();
        assert!(notice.contains("allowed in CI: no Landlock on the CI kernel"), "{notice}");
    }

    #[test]
    fn an_entry_without_a_reason_is_refused_with_its_line() {
        let failure = decide("x", "y", false, "# c\nvibe-core a_test\n").unwrap_err();
        assert!(failure.contains("tests/skip-allow.txt:2:"), "{failure}");
        let failure = decide("x", "y", false, "vibe-core a_test\t \n").unwrap_err();
        assert!(failure.contains(":1:"), "{failure}");
    }

    #[test]
    fn the_committed_allow_list_parses() {
        parse(ALLOW_LIST).unwrap_or_else(|e| panic!("{e}"));
    }

    #[test]
    fn the_test_thread_carries_the_test_name() {
        let name = current_test("fallback");
        assert!(
            name == "fallback" || name.ends_with("the_test_thread_carries_the_test_name"),
            "{name}"
        );
    }
}
