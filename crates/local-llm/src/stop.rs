//! Stop strings (`Params::stop`): text is passed on as it comes except a tail that may be the
//! start of a stop string; when one appears, the text before it is the end of the answer.

/// Watches generated text for the request's stop strings.
#[derive(Debug)]
pub(crate) struct StopScan {
    stops: Vec<String>,
    held: String,
}

/// What one piece of text gave.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Scanned {
    /// Text safe to pass on.
    pub text: String,
    /// A stop string appeared: nothing after `text` belongs to the answer.
    pub stopped: bool,
}

impl StopScan {
    pub fn new(stops: &[String]) -> Self {
        Self {
            stops: stops.iter().filter(|s| !s.is_empty()).cloned().collect(),
            held: String::new(),
        }
    }

    pub fn push(&mut self, piece: &str) -> Scanned {
        if self.stops.is_empty() {
            return Scanned { text: piece.to_string(), stopped: false };
        }
        self.held.push_str(piece);
        let first = self.stops.iter().filter_map(|s| self.held.find(s.as_str())).min();
        if let Some(at) = first {
            let text = self.held[..at].to_string();
            self.held.clear();
            return Scanned { text, stopped: true };
        }
        // Keep the longest tail that is a proper prefix of some stop string.
        let keep = self
            .stops
            .iter()
            .flat_map(|s| (1..s.len()).filter(|&n| s.is_char_boundary(n)).map(move |n| &s[..n]))
            .filter(|prefix| self.held.ends_with(prefix))
            .map(str::len)
            .max()
            .unwrap_or(0);
        let emit = self.held.len() - keep;
        Scanned { text: self.held.drain(..emit).collect(), stopped: false }
    }

    /// The answer ended without a stop string: the held tail is answer text.
    pub fn finish(&mut self) -> String {
        std::mem::take(&mut self.held)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stop_string_split_across_pieces_ends_the_answer_before_it() {
        let mut s = StopScan::new(&["</end>".to_string()]);
        let mut text = String::new();
        let mut stopped = false;
        for piece in ["Hello </e", "nd> and more"] {
            let r = s.push(piece);
            text.push_str(&r.text);
            stopped |= r.stopped;
        }
        assert_eq!((text.as_str(), stopped), ("Hello ", true));
    }

    #[test]
    fn a_held_prefix_that_is_not_a_stop_string_is_released() {
        let mut s = StopScan::new(&["STOP".to_string()]);
        assert_eq!(s.push("a ST").text, "a ");
        assert_eq!(s.push("AR").text, "STAR");
        assert_eq!(s.push("S").text, "");
        assert_eq!(s.finish(), "S");
        let mut none = StopScan::new(&[]);
        assert_eq!(none.push("STOP").text, "STOP");
    }
}
