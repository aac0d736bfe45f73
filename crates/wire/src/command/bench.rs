//! `vibe bench agent`'s report: the cost of one chat turn at a given history length. Figures
//! only; measuring is `vibe_core::bench`'s.

use serde::{Deserialize, Serialize};

/// One measurement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentBench {
    /// Messages already in the conversation.
    pub history: u64,
    /// Measured turns.
    pub turns: u64,
    pub median_ms: f64,
    pub p95_ms: f64,
    pub db_growth_bytes_per_turn: f64,
    pub peak_rss_kb: Option<u64>,
    /// CPU time (user + system, all threads) per measured turn; `None` off Linux or when the
    /// run was too short for the kernel's 10 ms clock ticks.
    pub cpu_ms_per_turn: Option<f64>,
    /// Whether the database was encrypted (the app's default).
    pub encrypted: bool,
}

/// Every measurement of one `vibe bench agent` call, in the order asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentBenchReport {
    pub agent: Vec<AgentBench>,
}
