//! Provider presets: default base URL, whether a key is needed, default model, and the
//! quirks the client must respect (usage in the stream, native tool calling, extra
//! headers). Detection of a preset from a base URL lives here; settings resolution does not.

/// The preset of the embedded llama.cpp engine (`llm.preset = "local"`, `llm.model` = an
/// installed model id or the absolute path of a `.gguf` file).
pub const LOCAL_PRESET: &str = "local";
/// The pseudo base URL the `local` preset resolves to: no server, the engine in this process.
pub const LOCAL_BASE_URL: &str = "local:";

/// How tools reach the model (a wire kind: settings and probe answers carry it).
pub use vibe_wire::ToolMode;

/// A known kind of endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Settings name (`llm.preset`).
    pub id: &'static str,
    pub label: &'static str,
    pub base_url: &'static str,
    pub needs_key: bool,
    /// Model used when none is configured; `None` means the person must pick one.
    pub default_model: Option<&'static str>,
    /// The server accepts a request without `model` (it serves the loaded one).
    pub model_optional: bool,
    /// Send `stream_options: {"include_usage": true}`.
    pub include_usage: bool,
    /// Tool mode when settings say `auto` and the model is not known to lack tools.
    pub tool_mode: ToolMode,
    /// Extra request headers (attribution and the like; never secrets).
    pub headers: &'static [(&'static str, &'static str)],
    /// The server constrains its output to a JSON Schema given as
    /// `response_format: {"type": "json_schema", ...}` (llama.cpp server, LM Studio,
    /// Ollama 0.5 and later): structured mode's action schema is sent to it. Hosted and
    /// generic endpoints never get it (some refuse the request, some accept only a subset).
    pub json_schema_output: bool,
}

const fn preset(id: &'static str, label: &'static str, base_url: &'static str) -> Preset {
    Preset {
        id,
        label,
        base_url,
        needs_key: false,
        default_model: None,
        model_optional: false,
        include_usage: true,
        tool_mode: ToolMode::Native,
        headers: &[],
        json_schema_output: false,
    }
}

pub const PRESETS: &[Preset] = &[
    Preset { json_schema_output: true, ..preset("ollama", "Ollama", "http://127.0.0.1:11434/v1") },
    Preset {
        json_schema_output: true,
        ..preset("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1")
    },
    Preset {
        // Native tool calls need `llama-server --jinja`; the JSON action protocol works always.
        model_optional: true,
        json_schema_output: true,
        include_usage: false,
        tool_mode: ToolMode::Structured,
        ..preset("llamacpp", "llama.cpp server", "http://127.0.0.1:8080/v1")
    },
    preset("vllm", "vLLM", "http://127.0.0.1:8000/v1"),
    Preset {
        needs_key: true,
        default_model: Some("gpt-4o-mini"),
        ..preset("openai", "OpenAI", "https://api.openai.com/v1")
    },
    Preset {
        needs_key: true,
        default_model: Some("deepseek-chat"),
        ..preset("deepseek", "DeepSeek", "https://api.deepseek.com/v1")
    },
    Preset {
        needs_key: true,
        default_model: Some("qwen-plus"),
        ..preset(
            "qwen",
            "Qwen (DashScope compatible mode)",
            "https://dashscope.aliyuncs.com/compatible-mode/v1",
        )
    },
    Preset {
        needs_key: true,
        headers: &[("X-Title", "VibeLife")],
        ..preset("openrouter", "OpenRouter", "https://openrouter.ai/api/v1")
    },
    // Moonshot (Kimi): usage comes inside `choices[0].usage` whether asked or not; tool ids
    // look like `functions.write_state:0` and are sent back verbatim. Global: api.moonshot.ai.
    Preset {
        needs_key: true,
        include_usage: false,
        ..preset("moonshot", "Moonshot (Kimi)", "https://api.moonshot.cn/v1")
    },
    // Zhipu (GLM): the API root is `/api/paas/v4`, not `/v1`. Global: api.z.ai/api/paas/v4.
    Preset {
        needs_key: true,
        ..preset("zhipu", "Zhipu (GLM)", "https://open.bigmodel.cn/api/paas/v4")
    },
    // SiliconFlow: hosts open models by their repository names (`Qwen/Qwen3-8B`,
    // `deepseek-ai/DeepSeek-V3`). Global: api.siliconflow.com.
    Preset {
        needs_key: true,
        ..preset("siliconflow", "SiliconFlow", "https://api.siliconflow.cn/v1")
    },
    // The embedded engine (crates/local-llm, behind the `local-llm` cargo feature): no server,
    // no key; tools always go through the structured-action protocol (small local models
    // rarely call tools natively well).
    Preset {
        tool_mode: ToolMode::Structured,
        ..preset(LOCAL_PRESET, "On this computer (embedded llama.cpp)", LOCAL_BASE_URL)
    },
    Preset { include_usage: false, ..preset("custom", "Custom OpenAI-compatible", "") },
];

/// Model name fragments of families known to lack native tool calling on common servers.
const NO_NATIVE_TOOLS: &[&str] = &[
    "deepseek-reasoner",
    "deepseek-r1",
    "gemma2",
    "gemma:",
    "phi3",
    "phi-3",
    "llama2",
    "mistral:7b-instruct-v0.1",
    "tinyllama",
    "qwen:",
];

/// Other names people use for a preset: `(alias, preset id)`.
const ALIASES: &[(&str, &str)] =
    &[("dashscope", "qwen"), ("kimi", "moonshot"), ("glm", "zhipu"), ("bigmodel", "zhipu")];

pub fn find(id: &str) -> Option<&'static Preset> {
    let id = ALIASES.iter().find(|(alias, _)| alias.eq_ignore_ascii_case(id)).map_or(id, |a| a.1);
    PRESETS.iter().find(|p| p.id.eq_ignore_ascii_case(id))
}

/// Guess the preset from a base URL (host and well-known ports); `custom` otherwise.
pub fn detect(base_url: &str) -> &'static Preset {
    let url = base_url.to_ascii_lowercase();
    let by = |id| find(id).unwrap_or(&PRESETS[PRESETS.len() - 1]);
    let host_port = url.split("://").nth(1).unwrap_or(&url).split('/').next().unwrap_or("");
    if url.starts_with(LOCAL_BASE_URL) {
        by(LOCAL_PRESET)
    } else if host_port.ends_with(":11434") {
        by("ollama")
    } else if host_port.ends_with(":1234") {
        by("lmstudio")
    } else if host_port.ends_with(":8080") && is_local(host_port) {
        by("llamacpp")
    } else if host_port == "api.openai.com" {
        by("openai")
    } else if host_port.ends_with("deepseek.com") {
        by("deepseek")
    } else if host_port.contains("dashscope") {
        by("qwen")
    } else if host_port.ends_with("openrouter.ai") {
        by("openrouter")
    } else if host_port.ends_with("moonshot.cn") || host_port.ends_with("moonshot.ai") {
        by("moonshot")
    } else if host_port.ends_with("bigmodel.cn") || host_port == "api.z.ai" {
        by("zhipu")
    } else if host_port.contains("siliconflow") {
        by("siliconflow")
    } else {
        by("custom")
    }
}

fn is_local(host_port: &str) -> bool {
    ["127.0.0.1:", "localhost:", "[::1]:", "0.0.0.0:"].iter().any(|p| host_port.starts_with(p))
}

/// The tool mode for this preset and model when settings say `auto`.
pub fn auto_tool_mode(preset: &Preset, model: &str) -> ToolMode {
    let model = model.to_ascii_lowercase();
    if NO_NATIVE_TOOLS.iter().any(|f| model.contains(f)) {
        ToolMode::Structured
    } else {
        preset.tool_mode
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_detected_from_their_default_urls() {
        for p in PRESETS.iter().filter(|p| !p.base_url.is_empty() && p.id != "vllm") {
            assert_eq!(detect(p.base_url).id, p.id, "{}", p.base_url);
        }
        assert_eq!(detect("http://example.org:9000/v1").id, "custom");
    }

    #[test]
    fn the_chinese_providers_have_presets_for_both_regions() {
        for (url, id) in [
            ("https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen"),
            ("https://dashscope-intl.aliyuncs.com/compatible-mode/v1", "qwen"),
            ("https://api.moonshot.cn/v1", "moonshot"),
            ("https://api.moonshot.ai/v1", "moonshot"),
            ("https://open.bigmodel.cn/api/paas/v4", "zhipu"),
            ("https://api.z.ai/api/paas/v4", "zhipu"),
            ("https://api.siliconflow.cn/v1", "siliconflow"),
            ("https://api.siliconflow.com/v1", "siliconflow"),
        ] {
            let preset = detect(url);
            assert_eq!(preset.id, id, "{url}");
            assert!(preset.needs_key, "{id} needs an API key");
        }
        for (alias, id) in [("dashscope", "qwen"), ("Kimi", "moonshot"), ("glm", "zhipu")] {
            assert_eq!(find(alias).map(|p| p.id), Some(id));
        }
        assert_eq!(find("moonshot").map(|p| p.include_usage), Some(false));
    }

    #[test]
    fn models_without_native_tools_fall_back_to_structured() {
        let ollama = find("ollama").map(|p| auto_tool_mode(p, "deepseek-r1:7b"));
        assert_eq!(ollama, Some(ToolMode::Structured));
        let ollama = find("ollama").map(|p| auto_tool_mode(p, "qwen2.5:7b"));
        assert_eq!(ollama, Some(ToolMode::Native));
        let llamacpp = find("llamacpp").map(|p| auto_tool_mode(p, ""));
        assert_eq!(llamacpp, Some(ToolMode::Structured));
        let local = find(LOCAL_PRESET).map(|p| auto_tool_mode(p, "qwen2.5-1.5b-instruct"));
        assert_eq!(local, Some(ToolMode::Structured));
    }
}
