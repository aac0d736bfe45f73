//! Emitting run events: an [`Emitter`] stamps each [`Event`] with the run id, an increasing
//! `seq` and a UTC timestamp, and hands the same [`Envelope`] to every sink (Tauri channel,
//! CLI printer, audit log) in one order. What a sink does with it is the sink's business.

use std::sync::{Arc, Mutex};

use vibe_wire::{Envelope, Event};

/// Something that receives the events of a run. Must not block for long: it is called on the
/// run's task.
pub trait EventSink: Send + Sync {
    fn send(&self, envelope: &Envelope);
}

/// Hands out the events of one run. Cheap to clone.
#[derive(Clone)]
pub struct Emitter {
    inner: Arc<Inner>,
}

struct Inner {
    run_id: String,
    next_seq: Mutex<u64>,
    sinks: Vec<Arc<dyn EventSink>>,
}

impl Emitter {
    pub fn new(run_id: impl Into<String>, sinks: Vec<Arc<dyn EventSink>>) -> Self {
        Self { inner: Arc::new(Inner { run_id: run_id.into(), next_seq: Mutex::new(0), sinks }) }
    }

    pub fn run_id(&self) -> &str {
        &self.inner.run_id
    }

    /// Stamp and deliver `event`; returns the envelope as delivered.
    pub fn emit(&self, event: Event) -> Envelope {
        // The lock spans delivery so every sink sees events in `seq` order.
        let mut seq = self.inner.next_seq.lock().unwrap_or_else(|p| p.into_inner());
        let envelope = Envelope {
            run_id: self.inner.run_id.clone(),
            seq: *seq,
            ts: vibe_store::now_rfc3339(),
            event,
        };
        *seq += 1;
        for sink in &self.inner.sinks {
            sink.send(&envelope);
        }
        envelope
    }
}

/// Forwards events into a tokio channel (the desktop shell's Tauri channel adapter, tests).
pub struct ChannelSink(pub tokio::sync::mpsc::UnboundedSender<Envelope>);

impl EventSink for ChannelSink {
    fn send(&self, envelope: &Envelope) {
        // A closed receiver means nobody is listening any more; the run goes on regardless.
        let _ = self.0.send(envelope.clone());
    }
}

/// Keeps every event in memory (tests, evals, benchmarks).
#[derive(Default)]
pub struct CollectSink(Mutex<Vec<Envelope>>);

impl CollectSink {
    pub fn events(&self) -> Vec<Envelope> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

impl EventSink for CollectSink {
    fn send(&self, envelope: &Envelope) {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).push(envelope.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sink_sees_the_same_increasing_seq() {
        let a = Arc::new(CollectSink::default());
        let b = Arc::new(CollectSink::default());
        let emitter = Emitter::new("run-1", vec![a.clone(), b.clone()]);
        for round in 1..=3 {
            emitter.emit(Event::RoundStarted { round });
        }
        let seqs: Vec<u64> = a.events().iter().map(|e| e.seq).collect();
        assert_eq!(seqs, vec![0, 1, 2]);
        assert_eq!(a.events(), b.events());
        assert!(a.events().iter().all(|e| e.run_id == "run-1" && e.ts.ends_with('Z')));
    }
}
