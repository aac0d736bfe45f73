//! Server-sent-events framing: bytes in (split anywhere), whole events out. Robust to LF,
//! CRLF and CR line ends, `data:` with or without a space, comment/keep-alive lines,
//! multi-line data fields, UTF-8 characters split across reads, and the non-standard
//! `error:` field some llama.cpp builds send. A line the stream ends in the middle of is
//! handed back apart, not parsed. What an event's data means (OpenAI chunks, `[DONE]`, error
//! objects) belongs to `decode.rs`.

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
    /// Lines of a non-standard `error:` field (llama.cpp before late 2025).
    error: Option<String>,
}

/// What was left when the stream ended.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct SseEnd {
    /// Events whose lines were complete (the last one without its closing blank line).
    pub events: Vec<SseEvent>,
    /// A last line without its line end: the connection was cut in the middle of it.
    pub cut_line: Option<String>,
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

    /// The stream ended: dispatch the last event if its lines were complete; a last line
    /// without a line end is returned apart, unparsed (the caller decides whether it is whole).
    pub fn finish(&mut self) -> SseEnd {
        let mut end = SseEnd::default();
        if !self.buf.is_empty() {
            let rest = std::mem::take(&mut self.buf);
            let line = String::from_utf8_lossy(&rest).into_owned();
            match line.strip_suffix('\r') {
                // A CR line end kept in case an LF followed: the line is complete.
                Some(whole) => self.line(whole, &mut end.events),
                None => end.cut_line = Some(line),
            }
        }
        self.line("", &mut end.events);
        end
    }

    /// Treat `line` as a complete line followed by the end of its event (used for a cut last
    /// line the caller judged whole, e.g. `data: [DONE]` without its line end).
    pub fn finish_line(&mut self, line: &str) -> Vec<SseEvent> {
        let mut out = Vec::new();
        self.line(line, &mut out);
        self.line("", &mut out);
        out
    }

    fn line(&mut self, line: &str, out: &mut Vec<SseEvent>) {
        if line.is_empty() {
            if let Some(error) = self.error.take() {
                out.push(SseEvent { event: Some("error".into()), data: error });
            }
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
            "error" => match &mut self.error {
                Some(e) => {
                    e.push('\n');
                    e.push_str(value);
                }
                None => self.error = Some(value.to_string()),
            },
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
        ev.extend(d.finish().events);
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
    fn event_field_and_an_event_without_its_blank_line() {
        let mut d = SseDecoder::default();
        let mut ev = d.feed(b"event: error\ndata: {\"error\":1}\n");
        let end = d.finish();
        ev.extend(end.events);
        assert_eq!(ev[0].event.as_deref(), Some("error"));
        assert_eq!(ev[0].data, "{\"error\":1}");
        assert_eq!(end.cut_line, None);
    }

    #[test]
    fn a_line_cut_by_the_end_of_the_stream_is_handed_back_unparsed() {
        let mut d = SseDecoder::default();
        let ev = d.feed(b"data: {\"a\":1}\n\ndata: {\"choices\":[{\"del");
        assert_eq!(ev.len(), 1);
        let end = d.finish();
        assert_eq!(end.events, []);
        assert_eq!(end.cut_line.as_deref(), Some("data: {\"choices\":[{\"del"));
    }

    #[test]
    fn a_last_line_ended_by_a_lone_cr_is_complete() {
        let mut d = SseDecoder::default();
        assert_eq!(d.feed(b"data: [DONE]\r"), []);
        let end = d.finish();
        assert_eq!(end.cut_line, None);
        assert_eq!(end.events[0].data, "[DONE]");
    }

    #[test]
    fn the_llama_cpp_error_field_is_its_own_error_event() {
        let body = b"error: {\"code\":400,\"message\":\"too long\"}\n\ndata: [DONE]\n\n";
        let mut d = SseDecoder::default();
        let ev = d.feed(body);
        assert_eq!(ev[0].event.as_deref(), Some("error"));
        assert_eq!(ev[0].data, "{\"code\":400,\"message\":\"too long\"}");
        assert_eq!(ev[1].data, "[DONE]");
    }
}
