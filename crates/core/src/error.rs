//! The one error type of `vibe-core`. Variants wrap the lower crates' errors unchanged, so
//! their messages (which name the field, the path and the fix) reach the person intact.

use vibe_charts::ChartError;
use vibe_store::StoreError;

/// Errors from the core services. None is retried automatically.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// The chart could not be computed: `birth_info` missing or malformed (the message names
    /// the field), or an unknown `compute_type`.
    #[error(transparent)]
    Chart(#[from] ChartError),
    /// Reading the profile or saving the chart failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl CoreError {
    /// Short machine-readable kind, for `vibe_wire::ErrorInfo`.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Chart(ChartError::MissingField { .. } | ChartError::InvalidField { .. }) => {
                "invalid_input"
            }
            Self::Chart(ChartError::UnknownComputeType(_)) => "unknown_compute_type",
            Self::Chart(ChartError::Calendar(_)) => "internal",
            Self::Store(e) => e.kind(),
        }
    }
}
