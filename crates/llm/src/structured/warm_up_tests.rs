//! The adapter's warm-up: the model it wraps is asked to warm up the prefix as `stream` would
//! send it (the tools written into the system prompt, the conversation kept), and a model
//! without a cache of its own does nothing.

use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::json;

use super::*;
use crate::types::{Params, ToolDef};

/// A model that records the warm-ups it is asked for.
#[derive(Default)]
struct Warms(Mutex<Vec<ChatRequest>>);

impl ChatModel for Warms {
    fn stream(&self, _request: ChatRequest) -> DeltaStream {
        error_stream(LlmError::config("no answers here"))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn model_name(&self) -> &str {
        "warms"
    }

    fn warm_up(&self, request: ChatRequest) -> BoxFuture<'_, Result<Option<Warmed>, LlmError>> {
        self.0.lock().unwrap().push(request);
        Box::pin(async { Ok(Some(Warmed { prefix_tokens: 7, ..Warmed::default() })) })
    }
}

fn prefix() -> ChatRequest {
    ChatRequest {
        messages: vec![Message::system("You are a coach.")],
        tools: vec![ToolDef {
            name: "draw_tarot".into(),
            description: "Draw one card".into(),
            parameters: json!({"type": "object"}).into(),
        }],
        params: Params { cache_key: Some("conv-1".into()), ..Params::default() },
    }
}

#[tokio::test]
async fn the_wrapped_model_warms_up_the_prefix_with_the_tools_in_the_system_prompt() {
    let inner = Arc::new(Warms::default());
    let model = StructuredModel::new(inner.clone());
    let warmed = model.warm_up(prefix()).await.unwrap();
    assert_eq!(warmed.map(|w| w.prefix_tokens), Some(7));
    let asked = inner.0.lock().unwrap();
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0], prompt::rewrite(&prefix()), "as `stream` rewrites a request");
    let Message::System { content } = &asked[0].messages[0] else { panic!("{asked:?}") };
    assert!(content.starts_with("You are a coach.") && content.contains("- draw_tarot: Draw"));
    assert!(asked[0].tools.is_empty());
    assert_eq!(asked[0].params.cache_key.as_deref(), Some("conv-1"));
}

/// A model with the trait's default warm-up (a server's client, the scripted model).
struct Plain;

impl ChatModel for Plain {
    fn stream(&self, _request: ChatRequest) -> DeltaStream {
        error_stream(LlmError::config("no answers here"))
    }

    fn list_models(&self) -> BoxFuture<'_, Result<Vec<ModelInfo>, LlmError>> {
        Box::pin(async { Ok(Vec::new()) })
    }

    fn model_name(&self) -> &str {
        "plain"
    }
}

#[tokio::test]
async fn a_model_without_a_cache_of_its_own_warms_up_nothing() {
    assert_eq!(StructuredModel::new(Arc::new(Plain)).warm_up(prefix()).await.unwrap(), None);
}
