//! The process-wide llama.cpp backend: initialised once (llama.cpp allows one), with its logs
//! sent to `tracing` instead of stderr (a CLI's JSON output stays clean). Nothing else.

use std::sync::OnceLock;

use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::{LogOptions, send_logs_to_tracing};

static BACKEND: OnceLock<Result<LlamaBackend, String>> = OnceLock::new();

/// The backend, initialised on first use; the error says why it could not start.
pub(crate) fn backend() -> Result<&'static LlamaBackend, String> {
    BACKEND
        .get_or_init(|| {
            send_logs_to_tracing(LogOptions::default());
            LlamaBackend::init().map_err(|e| format!("llama.cpp could not start: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}
