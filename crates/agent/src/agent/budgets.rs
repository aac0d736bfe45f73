//! Run budgets (docs/design.md#budgets): how far one run may go before it closes gracefully.
//! The `chat.budgets` settings section, with its defaults and the prompt limit derived from the
//! context window, is a wire type (`vibe_wire::settings::Budgets`); the agent's state machine
//! applies it.

pub use vibe_wire::settings::Budgets;
