//! Server-sent-events framing: bytes in (split anywhere), whole events out. Robust to LF,
//! CRLF and CR line ends, `data:` with or without a space, comment/keep-alive lines,
//! multi-line data fields and UTF-8 characters split across reads. What an event's data
//! means (OpenAI chunks, `[DONE]`, error objects) belongs to `decode.rs`.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SseEvent {
    /// The `event:` field, when the server sent one.
    pub event: Option<String>,
    /// The data lines joined with `\n`.
    pub data: String,
}

#[derive(Debug, Default)]
pub(crate) struct SseDecoder {
    buf: Vec<u8>,
    data: Option<String>,
    event: Option<String>,
}

impl SseDecoder {
    /// Feed bytes; returns the events completed by them.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        self.buf.extend_from_slice(bytes);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(rel) = self.buf[start..].iter().position(|&b| b == b'\n' || b == b'\r') {
            let end = start + rel;
            let next = match self.buf[end] {
                b'\r' if end + 1 == self.buf.len() => break, // a '\n' may follow in the next read
                b'\r' if self.buf[end + 1] == b'\n' => end + 2,
                _ => end + 1,
            };
            let line = String::from_utf8_lossy(&self.buf[start..end]).into_owned();
            self.line(&line, &mut out);
            start = next;
        }
        self.buf.drain(..start);
        out
    }

    /// The stream ended: complete a last unterminated line and event.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        if !self.buf.is_empty() {
            let rest = std::mem::take(&mut self.buf);
            let line = String::from_utf8_lossy(&rest).trim_end_matches('\r').to_string();
            self.line(&line, &mut out);
        }
        self.line("", &mut out);
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                out.push(SseEvent { event: self.event.take(), data });
            }
            self.event = None;
            return;
        }
        if line.starts_with(':') {
            return; // comment or keep-alive
        }
        if line.starts_with('{') || line.starts_with('[') {
            // A bare JSON line (some servers send errors without the `data:` field).
            self.push_data(line);
            return;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => self.push_data(value),
            "event" => self.event = Some(value.to_string()),
            _ => {} // id, retry and unknown fields carry nothing we use
        }
    }

    fn push_data(&mut self, value: &str) {
        match &mut self.data {
            Some(d) => {
                d.push('\n');
                d.push_str(value);
            }
            None => self.data = Some(value.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8]) -> Vec<String> {
        let mut d = SseDecoder::default();
        let mut ev = d.feed(input);
        ev.extend(d.finish());
        ev.into_iter().map(|e| e.data).collect()
    }

    #[test]
    fn lf_crlf_and_cr_line_ends_all_frame_events() {
        assert_eq!(all(b"data: a\n\ndata: b\n\n"), ["a", "b"]);
        assert_eq!(all(b"data: a\r\n\r\ndata: b\r\n\r\n"), ["a", "b"]);
        assert_eq!(all(b"data: a\r\rdata: b\r\r"), ["a", "b"]);
    }

    #[test]
    fn data_without_space_comments_and_multiline_fields() {
        assert_eq!(all(b"data:x\n\n"), ["x"]);
        assert_eq!(all(b": keep-alive\n\ndata: y\n\n"), ["y"]);
        assert_eq!(all(b"data: {\"a\":\ndata: 1}\n\n"), ["{\"a\":\n1}"]);
        assert_eq!(all(b"data:  two spaces\n\n"), [" two spaces"]);
    }

    #[test]
    fn crlf_split_between_reads_is_one_line_end() {
        let mut d = SseDecoder::default();
        assert!(d.feed(b"data: a\r").is_empty());
        assert!(d.feed(b"\n").is_empty());
        let ev = d.feed(b"\r\n");
        assert_eq!(ev.len(), 1);
        assert_eq!(ev[0].data, "a");
    }

    #[test]
    fn utf8_split_across_reads_survives() {
        let bytes = "data: 你好\n\n".as_bytes();
        let mut d = SseDecoder::default();
        let mut ev = d.feed(&bytes[..8]);
        ev.extend(d.feed(&bytes[8..]));
        assert_eq!(ev[0].data, "你好");
    }

    #[test]
    fn event_field_and_unterminated_last_event() {
        let mut d = SseDecoder::default();
        let mut ev = d.feed(b"event: error\ndata: {\"error\":1}");
        ev.extend(d.finish());
        assert_eq!(ev[0].event.as_deref(), Some("error"));
        assert_eq!(ev[0].data, "{\"error\":1}");
    }
}
