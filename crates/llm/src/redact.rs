//! Keeping secrets out of everything a person or a log can read: [`redact_url`] hides the
//! userinfo and token-like query values of a URL, and [`Secrets`] scrubs the API key and the
//! URL's own secrets from any text (a server's error message often echoes them), in their raw,
//! percent-encoded and base64 forms. It owns no I/O; callers decide where text goes
//! (docs/llm.md "Secrets").

use base64::Engine as _;

/// What replaces a secret.
pub const REDACTED: &str = "[redacted]";

/// Query parameter names whose values are credentials (compared lowercased, `-` as `_`):
/// an exact name from this list, or a name containing one of [`SECRET_NAME_PARTS`].
const SECRET_NAMES: &[&str] = &["sig", "code", "pass", "pwd", "jwt", "session"];
const SECRET_NAME_PARTS: &[&str] =
    &["key", "token", "secret", "password", "signature", "credential", "auth"];

/// The URL with its userinfo (`user:pass@`) and the values of token-like query parameters
/// (`key`, `api_key`, `token`, `access_token`, `sig`, ...) replaced by `[redacted]`. Text that
/// is not a URL comes back unchanged apart from those two shapes.
pub fn redact_url(url: &str) -> String {
    let (scheme, rest) = match url.find("://") {
        Some(i) => url.split_at(i + 3),
        None => ("", url),
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    let authority = match authority.rfind('@') {
        Some(at) if !scheme.is_empty() => format!("{REDACTED}@{}", &authority[at + 1..]),
        _ => authority.to_string(),
    };
    let (before_fragment, fragment) = match tail.find('#') {
        Some(i) => tail.split_at(i),
        None => (tail, ""),
    };
    let tail = match before_fragment.split_once('?') {
        Some((path, query)) => format!("{path}?{}", redact_query(query)),
        None => before_fragment.to_string(),
    };
    format!("{scheme}{authority}{tail}{fragment}")
}

fn redact_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if is_secret_name(name) && !value.is_empty() => {
                format!("{name}={REDACTED}")
            }
            _ => pair.to_string(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

fn is_secret_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase().replace('-', "_");
    SECRET_NAMES.contains(&name.as_str()) || SECRET_NAME_PARTS.iter().any(|p| name.contains(p))
}

/// The secret values one endpoint knows (the API key, the base URL's password and query
/// tokens), matched in every form a server might echo back.
#[derive(Clone, Default)]
pub struct Secrets {
    /// The values, longest first so a longer secret is replaced before a part of it.
    values: Vec<String>,
    /// Their base64 forms (standard, URL-safe, padded or not, and as HTTP Basic credentials).
    encoded: Vec<String>,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secrets({} values)", self.values.len())
    }
}

/// Shorter values are not scrubbed: replacing a two-letter "secret" would garble any text.
const MIN_SECRET_LEN: usize = 4;

impl Secrets {
    /// The key (if any) and the secrets written into `base_url`.
    pub fn new(key: Option<&str>, base_url: &str) -> Self {
        let mut values: Vec<String> = key.map(str::to_string).into_iter().collect();
        values.extend(url_secrets(base_url));
        values.retain(|v| v.len() >= MIN_SECRET_LEN);
        values.sort_by_key(|v| std::cmp::Reverse(v.len()));
        values.dedup();
        let mut encoded: Vec<String> = values.iter().flat_map(|v| base64_forms(v)).collect();
        encoded.retain(|f| f.len() >= MIN_SECRET_LEN);
        encoded.sort_by_key(|f| std::cmp::Reverse(f.len()));
        encoded.dedup();
        Self { values, encoded }
    }

    /// `text` with every form of every secret replaced by `[redacted]` — raw, percent-encoded
    /// in any mix of bytes and case (`+` for a space), base64 — and any URL in it with
    /// userinfo or query tokens redacted.
    pub fn scrub(&self, text: &str) -> String {
        let mut out = text.to_string();
        for form in &self.encoded {
            if out.contains(form.as_str()) {
                out = out.replace(form.as_str(), REDACTED);
            }
        }
        for value in &self.values {
            out = replace_encoded(&out, value.as_bytes());
        }
        scrub_urls(&out)
    }
}

fn base64_forms(value: &str) -> Vec<String> {
    let engines = [
        base64::engine::general_purpose::STANDARD,
        base64::engine::general_purpose::URL_SAFE,
        base64::engine::general_purpose::STANDARD_NO_PAD,
        base64::engine::general_purpose::URL_SAFE_NO_PAD,
    ];
    engines
        .iter()
        .flat_map(|engine| [engine.encode(value), engine.encode(format!(":{value}"))])
        .collect()
}

/// `text` with each occurrence of `secret` replaced, where any byte of it may be written as
/// itself or as `%hh` (either case), and a space as `+`.
fn replace_encoded(text: &str, secret: &[u8]) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let mut changed = false;
    while i < bytes.len() {
        match match_at(bytes, i, secret) {
            Some(end) => {
                out.extend_from_slice(REDACTED.as_bytes());
                i = end;
                changed = true;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    if !changed {
        return text.to_string();
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn match_at(text: &[u8], mut i: usize, secret: &[u8]) -> Option<usize> {
    for &b in secret {
        if text.get(i) == Some(&b) {
            i += 1;
        } else if text.get(i) == Some(&b'%') && hex_byte(text.get(i + 1..i + 3)?) == Some(b) {
            i += 3;
        } else if b == b' ' && text.get(i) == Some(&b'+') {
            i += 1;
        } else {
            return None;
        }
    }
    Some(i)
}

fn hex_byte(pair: &[u8]) -> Option<u8> {
    let digit = |c: u8| (c as char).to_digit(16);
    Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
}

/// The password of a URL's userinfo and its token-like query values, decoded.
fn url_secrets(url: &str) -> Vec<String> {
    let Ok(parsed) = url::Url::parse(url) else { return Vec::new() };
    let mut out = Vec::new();
    if let Some(password) = parsed.password() {
        out.push(password.to_string());
        out.push(decode(password));
    }
    for (name, value) in parsed.query_pairs() {
        if is_secret_name(&name) && !value.is_empty() {
            out.push(value.into_owned());
        }
    }
    out
}

fn decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// Every `http://` / `https://` URL inside `text`, redacted with [`redact_url`].
fn scrub_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = ["http://", "https://"].iter().filter_map(|p| rest.find(p)).min() {
        out.push_str(&rest[..start]);
        let tail = &rest[start..];
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | ')' | '`'))
            .unwrap_or(tail.len());
        out.push_str(&redact_url(&tail[..end]));
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};

    #[test]
    fn userinfo_and_token_query_values_are_hidden_and_the_rest_kept() {
        assert_eq!(
            redact_url("https://bob:hunter22@api.example.com/v1?api-version=2024&key=AIzaXYZ"),
            "https://[redacted]@api.example.com/v1?api-version=2024&key=[redacted]"
        );
        for name in ["api_key", "token", "access_token", "sig", "X-Api-Key", "client_secret"] {
            let shown = redact_url(&format!("http://h/v1?{name}=s3cr3t&model=m"));
            assert_eq!(shown, format!("http://h/v1?{name}=[redacted]&model=m"));
        }
        assert_eq!(redact_url("http://127.0.0.1:11434/v1"), "http://127.0.0.1:11434/v1");
        assert_eq!(redact_url("scripted:/tmp/a@b.json"), "scripted:/tmp/a@b.json");
    }

    #[test]
    fn every_echoed_form_of_the_key_is_scrubbed() {
        let key = "sk-a/b+c=d é";
        let secrets = Secrets::new(Some(key), "http://h/v1");
        let encoded = utf8_percent_encode(key, NON_ALPHANUMERIC).to_string();
        let every: String = key.bytes().map(|b| format!("%{b:02x}")).collect();
        let b64 = base64::engine::general_purpose::STANDARD.encode(key);
        let basic = base64::engine::general_purpose::STANDARD.encode(format!(":{key}"));
        let form_style = encoded.replace("%20", "+");
        for form in [key.to_string(), encoded, every, form_style, b64, basic] {
            let text = secrets.scrub(&format!("bad key <{form}> given"));
            assert_eq!(text, "bad key <[redacted]> given", "form {form}");
        }
    }

    #[test]
    fn the_url_password_and_query_token_are_scrubbed_from_server_text() {
        let secrets = Secrets::new(None, "https://me:pa%24%24word@h.example/v1?token=tok-777");
        let text = secrets.scrub("denied for pa$$word, token tok-777 at https://me:x@h.example/");
        assert!(!text.contains("pa$$word") && !text.contains("tok-777"), "{text}");
        assert!(text.contains("https://[redacted]@h.example/"), "{text}");
    }
}
