//! The chat service (the routing layer, docs/design.md#layers): the single entry for the CLI and
//! the desktop app. One request → one run: load or create the conversation and restore its skill,
//! record the run under the id its caller minted (row, audit folder, liveness lock) and persist
//! the user message before the model is called, make the turn's pre-turn plan (the safety screen
//! and the protocol engine as steps of events and a prompt section, `service/plan.rs`), run the
//! agent, and close the run in one place for every ending. Memory passes a reply makes due run
//! after it is returned. It never parses front-end input or prints; protocols never reach the
//! agent but through the plan's section. It is built whole from a [`ChatSetup`] its host
//! resolved.

mod service;

pub use service::{
    ChatConfig, ChatService, ChatSetup, ProtocolChoiceMade, TurnRequest, TurnResult, WarmUpJob,
    WarmUpTicket, WarmUps, log_warm_up, recover_runs,
};
