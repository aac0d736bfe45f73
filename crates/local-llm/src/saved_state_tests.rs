//! Tests of the saved states' files: round trip with no clear text, refused for another key,
//! model or conversation or when cut short, deleted, the oldest dropped over the cap, and the
//! model identity.

use super::*;

/// The app's seal: the data folder's run key.
struct RunKeySeal(vibe_runlog::RunKey);

impl StateSeal for RunKeySeal {
    fn key_id(&self) -> &str {
        self.0.id()
    }
    fn seal(&self, aad: &[u8], plain: &[u8]) -> Option<Vec<u8>> {
        self.0.seal_blob(aad, plain)
    }
    fn open(&self, aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
        self.0.open_blob(aad, sealed)
    }
}

pub(crate) fn states(dir: &Path, key: u8, cap: u64) -> SavedStates {
    SavedStates::new(dir, Arc::new(RunKeySeal(vibe_runlog::RunKey::new(&[key; 32]))), cap)
}

const MARKER: &[u8] = b"CLEAR-MARKER-0451";

pub(crate) fn state_bytes() -> Vec<u8> {
    let mut state = b"llama state ".to_vec();
    state.extend_from_slice(MARKER);
    state
}

#[test]
fn a_saved_state_round_trips_and_holds_no_clear_text() {
    let dir = tempfile::tempdir().unwrap();
    let saved = states(dir.path(), 1, DEFAULT_STATES_CAP_BYTES);
    saved.save("conv-1", "model-a", &[1, 2, 3], &state_bytes()).unwrap();
    let back = saved.load("conv-1", "model-a").unwrap();
    assert_eq!(back, SavedState { tokens: vec![1, 2, 3], state: state_bytes() });
    let file = std::fs::read(state_file(saved.dir(), "conv-1")).unwrap();
    assert!(!file.windows(MARKER.len()).any(|w| w == MARKER), "clear text on disk");
    assert!(!String::from_utf8_lossy(&file).contains("conv-1"), "the conversation id on disk");
    assert_eq!(saved.load("conv-2", "model-a"), Err(Ignored::Missing));
}

#[test]
fn a_state_of_another_key_model_or_conversation_or_cut_short_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let saved = states(dir.path(), 1, DEFAULT_STATES_CAP_BYTES);
    saved.save("conv-1", "model-a", &[1, 2, 3], &state_bytes()).unwrap();
    assert_eq!(
        states(dir.path(), 2, DEFAULT_STATES_CAP_BYTES).load("conv-1", "model-a"),
        Err(Ignored::OtherKey)
    );
    assert_eq!(saved.load("conv-1", "model-b"), Err(Ignored::OtherModel));

    // Another conversation's file under this one's name: the seal binds the name.
    let path = state_file(saved.dir(), "conv-1");
    std::fs::copy(&path, state_file(saved.dir(), "conv-2")).unwrap();
    assert!(matches!(saved.load("conv-2", "model-a"), Err(Ignored::Unreadable(_))));

    // Cut short by a crash or a full disk.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    assert!(matches!(saved.load("conv-1", "model-a"), Err(Ignored::Unreadable(_))));
    std::fs::write(&path, b"#vibelife-kvstate v1").unwrap();
    assert!(matches!(saved.load("conv-1", "model-a"), Err(Ignored::Unreadable(_))));
}

#[test]
fn the_oldest_states_are_dropped_over_the_cap() {
    let dir = tempfile::tempdir().unwrap();
    let state = vec![7u8; 1000];
    // Room for two files of ~1.1 kB each, not three.
    let saved = states(dir.path(), 1, 2500);
    let now = std::time::SystemTime::now();
    for (conv, age) in [("old", 200), ("mid", 100), ("new", 0)] {
        saved.save(conv, "m", &[1, 2], &state).unwrap();
        let file =
            std::fs::File::options().write(true).open(state_file(saved.dir(), conv)).unwrap();
        file.set_modified(now - std::time::Duration::from_secs(age)).unwrap();
    }
    assert_eq!(saved.load("old", "m"), Err(Ignored::Missing));
    assert!(saved.load("mid", "m").is_ok());
    assert!(saved.load("new", "m").is_ok());
    // A state larger than the whole cap is not saved at all.
    assert!(saved.save("huge", "m", &[1], &vec![0u8; 3000]).is_err());
    assert_eq!(saved.load("huge", "m"), Err(Ignored::Missing));
}

#[test]
fn the_model_identity_changes_with_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.gguf");
    let b = dir.path().join("b.gguf");
    std::fs::write(&a, b"GGUF one").unwrap();
    std::fs::write(&b, b"GGUF two").unwrap();
    assert_eq!(model_identity(&a).unwrap(), model_identity(&a).unwrap());
    assert_ne!(model_identity(&a).unwrap(), model_identity(&b).unwrap());
}
