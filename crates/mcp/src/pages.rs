//! Reading a paginated MCP list ([`pages`]: `tools/list`, `prompts/list`, `resources/list`):
//! every page by its `nextCursor`, under a cap on the items and on the pages. Sending each
//! request is the caller's.

use rmcp::model::PaginatedRequestParams;
use serde_json::Value;

use crate::error::McpError;

/// Pages asked for at most (a server whose cursor never ends is cut off here).
const MAX_PAGES: usize = 100;

/// The items under `key` of every page `fetch` gives (following `nextCursor`), at most
/// `max` (more: the error `too_many` makes).
pub(crate) async fn pages<F, Fut>(
    key: &str,
    max: usize,
    mut fetch: F,
    too_many: impl Fn() -> McpError,
) -> Result<Vec<Value>, McpError>
where
    F: FnMut(Option<PaginatedRequestParams>) -> Fut,
    Fut: Future<Output = Result<Value, McpError>>,
{
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let page =
            fetch(Some(PaginatedRequestParams::default().with_cursor(cursor.take()))).await?;
        for item in page.get(key).and_then(Value::as_array).into_iter().flatten() {
            if items.len() == max {
                return Err(too_many());
            }
            items.push(item.clone());
        }
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) if !next.is_empty() => cursor = Some(next.to_string()),
            _ => return Ok(items),
        }
    }
    Err(too_many())
}
