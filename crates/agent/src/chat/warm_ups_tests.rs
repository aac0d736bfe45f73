//! The warm-ups' bookkeeping: one at a time, a newer one or a turn of another conversation
//! cancels it, one of the same conversation goes on.

use super::*;

#[test]
fn a_warm_up_of_another_conversation_cancels_the_running_one() {
    let warm = WarmUps::default();
    let a = warm.start(Some("a")).unwrap();
    assert_eq!(warm.running(), Some(Some("a".into())));
    let b = warm.start(Some("b")).unwrap();
    assert!(a.is_cancelled(), "A's warm-up is dropped when B is opened");
    assert!(!b.is_cancelled());
    assert_eq!(warm.running(), Some(Some("b".into())));
    // A ending late does not forget B.
    drop(a);
    assert_eq!(warm.running(), Some(Some("b".into())));
    drop(b);
    assert_eq!(warm.running(), None);
}

#[test]
fn the_same_conversation_opened_again_keeps_its_running_warm_up() {
    let warm = WarmUps::default();
    let first = warm.start(Some("a")).unwrap();
    assert!(warm.start(Some("a")).is_none(), "no second warm-up of the same prefix");
    assert!(!first.is_cancelled());
    let new = WarmUps::default();
    let start = new.start(None).unwrap();
    assert!(new.start(None).is_none());
    assert!(new.start(Some("a")).is_some() && start.is_cancelled());
}

#[test]
fn a_turn_cancels_a_warm_up_of_another_conversation_only() {
    let warm = WarmUps::default();
    let a = warm.start(Some("a")).unwrap();
    warm.before_turn(Some("a"));
    assert!(!a.is_cancelled(), "the turn waits for its own prefix");
    assert_eq!(warm.running(), Some(Some("a".into())));
    warm.before_turn(Some("b"));
    assert!(a.is_cancelled());
    assert_eq!(warm.running(), None);

    let new = warm.start(None).unwrap();
    warm.before_turn(None);
    assert!(!new.is_cancelled(), "a new conversation's turn uses the phase-1 warm-up");
    warm.before_turn(Some("c"));
    assert!(new.is_cancelled());
}

#[test]
fn changed_settings_cancel_the_running_warm_up() {
    let warm = WarmUps::default();
    let a = warm.start(Some("a")).unwrap();
    warm.cancel();
    assert!(a.is_cancelled());
    assert_eq!(warm.running(), None);
    assert!(warm.start(Some("a")).is_some(), "a later warm-up starts again");
}
