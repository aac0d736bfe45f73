//! The chat service (the routing layer, docs/design.md#layers): the single entry for the CLI and
//! the desktop app. One request → one run: load or create the conversation and restore its skill,
//! persist the user message before the model is called, record the run (row, audit folder, liveness
//! lock), run the agent, and close the run. It never parses front-end input or prints. Before each
//! turn it asks the protocol engine for the turn's protocol section (`service/protocol_hook.rs`);
//! protocols never reach the agent otherwise.

mod service;

pub use service::{
    ChatConfig, ChatService, ProtocolChoiceMade, TurnRequest, TurnResult, recover_runs,
};
