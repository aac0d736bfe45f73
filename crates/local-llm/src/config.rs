//! What a local model is loaded with: the file, the context cap, threads, mmap. Plain data;
//! turning settings into it is the core's assembly, using it is `worker.rs`'.

use std::path::PathBuf;

use crate::saved_state::SavedStates;

/// The most threads used when none are configured (more rarely helps on a CPU: generation is
/// bound by memory bandwidth).
pub const MAX_DEFAULT_THREADS: u32 = 8;

/// How to load and run one GGUF model.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalConfig {
    /// The `.gguf` file.
    pub path: PathBuf,
    /// The name the model goes by in logs and events (the installed model id).
    pub name: String,
    /// Cap on the context window; the model's trained length applies when smaller.
    pub context_cap: u32,
    /// Threads for generation and prompt processing; `None` = the CPUs this process may use,
    /// at most [`MAX_DEFAULT_THREADS`].
    pub threads: Option<u32>,
    /// Map the file into memory instead of reading it.
    pub mmap: bool,
    /// Temperature when a request sets none (`llm.temperature`); `None` = 0.8.
    pub temperature: Option<f32>,
    /// Answer length cap when a request sets none (`llm.max_tokens`); `None` = the context.
    pub max_tokens: Option<u32>,
    /// Where the prompt states of conversations are saved across processes, sealed
    /// (docs/local-model.md#saved-states); `None`: they are not saved.
    pub saved_states: Option<SavedStates>,
}

impl LocalConfig {
    /// A config with the defaults: context capped at 8192 tokens, automatic threads, mmap.
    pub fn new(path: impl Into<PathBuf>, name: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            name: name.into(),
            context_cap: 8192,
            threads: None,
            mmap: true,
            temperature: None,
            max_tokens: None,
            saved_states: None,
        }
    }

    /// The thread count in force.
    pub fn threads_in_force(&self) -> u32 {
        self.threads.filter(|&t| t > 0).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, |n| u32::try_from(n.get()).unwrap_or(MAX_DEFAULT_THREADS))
                .min(MAX_DEFAULT_THREADS)
        })
    }
}
