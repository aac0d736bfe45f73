//! URLs as errors and listings show them: a mirror's URL may carry a token (userinfo, a
//! query), which must not reach a log, an event or the window.

/// `url` without its userinfo, and with its query replaced by `?…` (anything that does not
/// parse as a URL, a file path, is returned as it is).
pub fn shown_url(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else { return url.to_string() };
    if !matches!(parsed.scheme(), "http" | "https") {
        return url.to_string();
    }
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    let had_query = parsed.query().is_some();
    parsed.set_query(None);
    let mut shown = parsed.to_string();
    if had_query {
        shown.push_str("?…");
    }
    shown
}

/// `text` with every `url` in it shown as `shown`.
pub(crate) fn without(text: &str, url: &str, shown: &str) -> String {
    text.replace(url, shown)
}

#[cfg(test)]
mod tests {
    use super::shown_url;

    #[test]
    fn urls_are_shown_without_their_secrets() {
        let shown = shown_url("https://user:pw@mirror.example/m.gguf?token=SECRET");
        assert_eq!(shown, "https://mirror.example/m.gguf?…");
        assert_eq!(shown_url("http://127.0.0.1:8/m.gguf"), "http://127.0.0.1:8/m.gguf");
        assert_eq!(shown_url("/home/me/catalog.json"), "/home/me/catalog.json");
    }
}
