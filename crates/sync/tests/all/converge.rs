//! Devices that changed the same journal while apart end with the same journal, whatever the
//! order they sync in: no duplicate, no resurrected entry, the latest edit kept.

use proptest::prelude::*;

use super::devices::{Device, target};

#[tokio::test]
async fn two_devices_editing_and_deleting_apart_converge_in_either_order() {
    let (_dir, target, key) = target().await;
    let a = Device::new("dev-a");
    let b = Device::new("dev-b");
    a.add("a1");
    a.add("a2");
    b.add("b1");
    a.sync(&target, &key).await;
    b.sync(&target, &key).await;
    a.sync(&target, &key).await;
    assert_eq!(a.journal(), b.journal());
    assert_eq!(a.texts().len(), 3);

    // Apart: each edits and deletes, some of it the same entries.
    a.edit("b1", "b1 edited on a");
    a.delete("a1");
    a.add("a3");
    b.edit("a2", "a2 edited on b");
    b.delete("a2 edited on b");
    b.edit("b1", "b1 edited on b");
    b.add("b2");

    b.sync(&target, &key).await;
    a.sync(&target, &key).await;
    b.sync(&target, &key).await;
    assert_eq!(a.journal(), b.journal(), "{:?} vs {:?}", a.texts(), b.texts());
    let texts = a.texts();
    assert!(!texts.iter().any(|t| t.starts_with("a1") || t.starts_with("a2")), "{texts:?}");
    // Both edited b1: the edit with the later clock value wins, on both devices alike.
    assert_eq!(texts.iter().filter(|t| t.starts_with("b1")).count(), 1, "{texts:?}");
    assert!(texts.contains(&"a3".to_string()) && texts.contains(&"b2".to_string()));

    // Syncing again changes nothing anywhere.
    let before = a.journal();
    let again = a.sync(&target, &key).await;
    b.sync(&target, &key).await;
    assert_eq!((again.put, again.deleted), (0, 0));
    assert_eq!(a.journal(), before);
    assert_eq!(b.journal(), before);
}

#[tokio::test]
async fn three_devices_with_data_before_sync_converge_and_a_deletion_is_not_undone() {
    let (_dir, target, key) = target().await;
    let store = vibe_store::Store::open_in_memory().unwrap();
    let a = {
        let early = Device { id: "x".into(), store };
        early.add("written before sync was set up");
        Device::with_store("dev-a", early.store)
    };
    let b = Device::new("dev-b");
    let c = Device::new("dev-c");
    for d in [&a, &b, &c] {
        d.sync(&target, &key).await;
    }
    for d in [&c, &b] {
        d.sync(&target, &key).await;
    }
    assert_eq!(c.texts(), vec!["written before sync was set up"]);
    // c deletes it while b, not yet knowing, edits it: the deletion stays.
    c.delete_at(0);
    b.edit_at(0, "edited on b");
    for d in [&b, &a, &c, &b, &a] {
        d.sync(&target, &key).await;
    }
    assert!(a.journal().is_empty() && b.journal().is_empty() && c.journal().is_empty());
}

#[derive(Debug, Clone)]
enum Step {
    Add(usize),
    Edit(usize, usize),
    Delete(usize, usize),
    Sync(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => (0..3usize).prop_map(Step::Add),
        2 => (0..3usize, 0..8usize).prop_map(|(d, i)| Step::Edit(d, i)),
        2 => (0..3usize, 0..8usize).prop_map(|(d, i)| Step::Delete(d, i)),
        2 => (0..3usize).prop_map(Step::Sync),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn three_devices_converge_after_any_short_sequence_of_changes(
        steps in prop::collection::vec(step(), 1..24)
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        rt.block_on(async {
            let (_dir, target, key) = target().await;
            let devices = [Device::new("dev-a"), Device::new("dev-b"), Device::new("dev-c")];
            for (n, s) in steps.iter().enumerate() {
                match *s {
                    Step::Add(d) => devices[d].add(&format!("entry {n}")),
                    Step::Edit(d, i) => {
                        let len = devices[d].texts().len();
                        if len > 0 {
                            devices[d].edit_at(i % len, &format!("edit {n}"));
                        }
                    }
                    Step::Delete(d, i) => {
                        let len = devices[d].texts().len();
                        if len > 0 {
                            devices[d].delete_at(i % len);
                        }
                    }
                    Step::Sync(d) => {
                        devices[d].sync(&target, &key).await;
                    }
                }
            }
            for d in [0, 1, 2, 0, 1] {
                devices[d].sync(&target, &key).await;
            }
            let first = devices[0].journal();
            for d in &devices[1..] {
                assert_eq!(d.journal(), first, "{} differs: {:?} vs {:?}", d.id, d.texts(), devices[0].texts());
            }
            let mut texts = devices[0].texts();
            let n = texts.len();
            texts.sort();
            texts.dedup();
            assert_eq!(texts.len(), n, "a duplicate entry: {:?}", devices[0].texts());
        });
    }
}
