//! The process-wide llama.cpp backend: initialised once (llama.cpp allows one), with its logs
//! sent to `tracing` instead of stderr (a CLI's JSON output stays clean), and ggml's CPU
//! backend module for this CPU loaded first (`cpu_backend.rs`). Nothing else.

use std::sync::OnceLock;

use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::{LogOptions, send_logs_to_tracing};

use crate::cpu_backend::{self, CpuBackend};

/// The started backend and the CPU backend module it runs on.
pub(crate) struct Backend {
    pub llama: LlamaBackend,
    pub cpu: CpuBackend,
}

static BACKEND: OnceLock<Result<Backend, String>> = OnceLock::new();

/// The backend, initialised on first use; the error says why it could not start (for
/// instance no CPU backend module where the program looks for them).
pub(crate) fn backend() -> Result<&'static Backend, String> {
    BACKEND
        .get_or_init(|| {
            send_logs_to_tracing(LogOptions::default());
            let cpu = cpu_backend::load()?;
            let llama =
                LlamaBackend::init().map_err(|e| format!("llama.cpp could not start: {e}"))?;
            Ok(Backend { llama, cpu })
        })
        .as_ref()
        .map_err(Clone::clone)
}
