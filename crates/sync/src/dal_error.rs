//! OpenDAL's errors as sync errors ([`failure`]): a refused login, a missing folder or bucket,
//! an unreachable server, each with what the server said. Shared by every target; it knows
//! nothing of batches or keys.

use opendal::ErrorKind;

use crate::error::SyncError;

/// The HTTP status in an OpenDAL error's response context, if the server answered. OpenDAL 0.57
/// has no accessor for an error's context (only `kind`, `message` and its `Display`), so the
/// status is read from the displayed context; the wrong WebDAV password test
/// (crates/core/tests/all/sync_remote.rs) fails if a new OpenDAL words it differently.
fn status(e: &opendal::Error) -> Option<u16> {
    let text = e.to_string();
    let at = text.find("status: ")? + "status: ".len();
    text[at..].chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()
}

/// What the server's answer says, short: its message (an S3 error code and message, a WebDAV
/// server's body), one line, at most 300 characters.
fn said(e: &opendal::Error) -> String {
    let message: String = e.message().split_whitespace().collect::<Vec<_>>().join(" ");
    message.chars().take(300).collect()
}

/// An OpenDAL error on `target` as a sync error: a refused login ([`SyncError::Denied`]), a
/// missing folder or bucket, or an unreachable server, each with what the server said.
pub(crate) fn failure(target: &str, e: &opendal::Error) -> SyncError {
    let denied = |why: String| SyncError::Denied { target: target.into(), why };
    match (status(e), e.kind()) {
        (Some(401), _) => denied(format!("HTTP 401 Unauthorized {}", said(e))),
        (Some(403), _) | (_, ErrorKind::PermissionDenied) => denied(format!(
            "{} {}",
            status(e).map_or("permission denied".into(), |s| format!("HTTP {s}")),
            said(e)
        )),
        (Some(404), _) | (_, ErrorKind::NotFound) => SyncError::Unreachable {
            target: target.into(),
            why: format!(
                "the server answered that it has no such folder or bucket ({}): create it first, or check the URL",
                said(e)
            ),
        },
        (Some(code), _) => SyncError::Unreachable {
            target: target.into(),
            why: format!("the server answered HTTP {code}: {}", said(e)),
        },
        (None, _) => SyncError::Unreachable { target: target.into(), why: e.to_string() },
    }
}
