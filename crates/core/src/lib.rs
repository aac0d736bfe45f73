//! VibeLife core services that sit above the store and the pure libraries. For now it holds
//! only `compute` (skill charts from the profile's `birth_info`, cached in the profile); the
//! agent, protocol and chat services will grow beside it. Parsing CLI input or talking to a
//! front end does not belong here.

pub mod audit;
pub mod compute;
pub mod context;
pub mod emit;
mod error;
pub mod tools;

pub use error::CoreError;
