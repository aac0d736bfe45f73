//! Approvals (docs/design.md#the-agent-loop): a tool call that needs the person's consent waits for
//! a decision. The decision comes from a policy (`--approve all|none`), or from the person through
//! [`PendingApprovals`] (the UI button or the CLI prompt resolves the request by id).

use std::collections::HashMap;
use std::sync::Mutex;

use futures::future::BoxFuture;
use serde_json::Value;
use tokio::sync::oneshot;
use vibe_wire::{ApprovalConnection, ApprovalSource};

/// What the person is asked to approve.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalRequest {
    pub request_id: String,
    pub tool: String,
    pub args: Value,
    pub reason: String,
    /// The connected MCP server the tool belongs to, with the tool's hints.
    pub connection: Option<ApprovalConnection>,
}

/// A decision and who made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApprovalDecision {
    pub approved: bool,
    pub by: ApprovalSource,
}

/// Decides approval requests.
pub trait Approver: Send + Sync {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision>;
}

/// A fixed answer for every request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApprovalPolicy {
    ApproveAll,
    DenyAll,
}

impl Approver for ApprovalPolicy {
    fn decide<'a>(&'a self, _request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        let approved = *self == ApprovalPolicy::ApproveAll;
        Box::pin(async move { ApprovalDecision { approved, by: ApprovalSource::Policy } })
    }
}

/// Requests waiting for the person; [`PendingApprovals::resolve`] answers one by id. A request
/// whose answer never comes waits until the run is cancelled.
#[derive(Default)]
pub struct PendingApprovals {
    waiting: Mutex<HashMap<String, Waiting>>,
}

/// A request waiting: where its answer goes, and the connection it names.
struct Waiting {
    answer: oneshot::Sender<bool>,
    connection: Option<ApprovalConnection>,
}

impl PendingApprovals {
    /// Answer a waiting request; `false` when no request has that id.
    pub fn resolve(&self, request_id: &str, approved: bool) -> bool {
        let waiting = self.lock().remove(request_id);
        waiting.is_some_and(|w| w.answer.send(approved).is_ok())
    }

    /// The connection a waiting request names (`None`: no such request, or not an MCP tool).
    pub fn connection(&self, request_id: &str) -> Option<ApprovalConnection> {
        self.lock().get(request_id).and_then(|w| w.connection.clone())
    }

    /// Ids of the requests waiting now.
    pub fn waiting(&self) -> Vec<String> {
        self.lock().keys().cloned().collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Waiting>> {
        self.waiting.lock().unwrap_or_else(|p| p.into_inner())
    }
}

impl Approver for PendingApprovals {
    fn decide<'a>(&'a self, request: &'a ApprovalRequest) -> BoxFuture<'a, ApprovalDecision> {
        let (tx, rx) = oneshot::channel();
        let waiting = Waiting { answer: tx, connection: request.connection.clone() };
        self.lock().insert(request.request_id.clone(), waiting);
        Box::pin(async move {
            // A dropped sender (resolver gone) counts as a denial.
            let approved = rx.await.unwrap_or(false);
            ApprovalDecision { approved, by: ApprovalSource::User }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(id: &str) -> ApprovalRequest {
        ApprovalRequest {
            request_id: id.into(),
            tool: "run_script".into(),
            args: Value::Null,
            reason: "runs x.py".into(),
            connection: None,
        }
    }

    #[tokio::test]
    async fn policies_answer_at_once() {
        assert!(ApprovalPolicy::ApproveAll.decide(&request("a")).await.approved);
        let denied = ApprovalPolicy::DenyAll.decide(&request("a")).await;
        assert_eq!((denied.approved, denied.by), (false, ApprovalSource::Policy));
    }

    #[tokio::test]
    async fn pending_requests_wait_for_their_resolution() {
        let pending = std::sync::Arc::new(PendingApprovals::default());
        let req = request("r1");
        let waiter = {
            let pending = pending.clone();
            tokio::spawn(async move { pending.decide(&req).await })
        };
        while pending.waiting().is_empty() {
            tokio::task::yield_now().await;
        }
        assert!(!pending.resolve("other", true));
        assert!(pending.resolve("r1", true));
        let decision = waiter.await.unwrap();
        assert_eq!((decision.approved, decision.by), (true, ApprovalSource::User));
    }
}
