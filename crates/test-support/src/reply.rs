//! One scripted HTTP reply: status, headers, body parts written one by one (exact chunk
//! boundaries) with delays between them, the body framing (close-delimited, sized or HTTP
//! chunked) and how it ends (close, hang until the client leaves, or a TCP reset).

use std::time::Duration;

use serde_json::Value;

#[derive(Debug, Clone)]
pub(crate) enum Part {
    Bytes(Vec<u8>),
    Delay(Duration),
    /// Chunked framing only: a chunk header announcing `announced` bytes, then only `bytes`.
    CutChunk {
        bytes: Vec<u8>,
        announced: usize,
    },
}

/// What the fake server sends for one request.
#[derive(Debug, Clone)]
pub struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) parts: Vec<Part>,
    /// Keep the connection open after the parts instead of closing it.
    pub(crate) hang: bool,
    /// Send `Content-Length` (whole bodies) instead of a close-delimited body.
    pub(crate) sized: bool,
    /// `Transfer-Encoding: chunked`: each body piece is one HTTP chunk.
    pub(crate) chunked: bool,
    /// After the pieces, reset the connection (TCP RST) instead of ending the body.
    pub(crate) reset: bool,
}

impl Reply {
    /// An empty reply with this status.
    pub fn status(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            parts: Vec::new(),
            hang: false,
            sized: true,
            chunked: false,
            reset: false,
        }
    }

    /// A 200 `text/event-stream` reply written in one piece.
    pub fn sse(body: impl Into<Vec<u8>>) -> Self {
        Self::sse_chunks(vec![body.into()])
    }

    /// A 200 `text/event-stream` reply written as these exact pieces, in order.
    pub fn sse_chunks<B: Into<Vec<u8>>>(chunks: Vec<B>) -> Self {
        let mut r = Self::status(200).header("content-type", "text/event-stream");
        r.sized = false;
        r.parts = chunks.into_iter().map(|c| Part::Bytes(c.into())).collect();
        r
    }

    /// A 200 `text/event-stream` reply with `Transfer-Encoding: chunked`, one HTTP chunk per
    /// piece; it ends with the zero-size chunk unless [`Self::then_reset`] is used.
    pub fn sse_chunked<B: Into<Vec<u8>>>(chunks: Vec<B>) -> Self {
        let mut r = Self::sse_chunks(chunks);
        r.chunked = true;
        r
    }

    /// Chunked replies: append a chunk whose header announces `missing` more bytes than
    /// `bytes` holds: the body is cut mid-chunk (the connection then closes, or resets with
    /// [`Self::then_reset`]; the closing zero-size chunk is never sent).
    pub fn cut_chunk(mut self, bytes: impl Into<Vec<u8>>, missing: usize) -> Self {
        let bytes = bytes.into();
        let announced = bytes.len() + missing;
        self.parts.push(Part::CutChunk { bytes, announced });
        self
    }

    /// After the pieces, reset the connection (TCP RST) instead of ending the body cleanly.
    pub fn then_reset(mut self) -> Self {
        self.reset = true;
        self
    }

    /// A JSON body with this status.
    pub fn json(status: u16, value: &Value) -> Self {
        Self::status(status).header("content-type", "application/json").body(value.to_string())
    }

    /// A `GET /models` answer listing these ids.
    pub fn models(ids: &[&str]) -> Self {
        let data: Vec<Value> = ids
            .iter()
            .map(|id| serde_json::json!({"id": id, "object": "model", "owned_by": "fake"}))
            .collect();
        Self::json(200, &serde_json::json!({"object": "list", "data": data}))
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Append a body piece.
    pub fn body(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.parts.push(Part::Bytes(bytes.into()));
        self
    }

    /// Pause before the next piece (or before the headers when called first).
    pub fn delay(mut self, d: Duration) -> Self {
        self.parts.push(Part::Delay(d));
        self
    }

    /// Pause `d` before every body piece.
    pub fn delay_each(mut self, d: Duration) -> Self {
        self.parts = self.parts.into_iter().flat_map(|p| [Part::Delay(d), p]).collect();
        self
    }

    /// After the pieces, keep the connection open and silent until the client leaves.
    pub fn then_hang(mut self) -> Self {
        self.hang = true;
        self
    }

    pub(crate) fn body_len(&self) -> usize {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Bytes(b) | Part::CutChunk { bytes: b, .. } => b.len(),
                Part::Delay(_) => 0,
            })
            .sum()
    }
}
