//! The agent loop (docs/design.md#the-agent-loop, #budgets): model stream → tool calls → execute →
//! observations → again, within budgets. Its decisions are a pure state machine (`fsm`), driven by
//! a thin async driver (`driver`) that does the IO. The loop knows nothing of protocols or front
//! ends; the chat service above it builds its inputs and owns the run's bookkeeping.

mod approvals;
mod budgets;
mod closing;
mod driver;
mod execute;
mod fsm;
mod persist;
mod request;
mod round;
mod tool_round;
mod window;

pub use approvals::{
    ApprovalDecision, ApprovalPolicy, ApprovalRequest, Approver, PendingApprovals,
};
pub use budgets::Budgets;
pub(crate) use driver::offered_tools;
pub use driver::{AgentInput, AgentOutcome, run_agent};
pub use fsm::{Action, Answered, CallVerdict, Machine, PlannedCall, StoreAnswer, ToolReport};
