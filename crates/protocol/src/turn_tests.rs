//! Issue 28: a protocol starts only when the person chose to start. A pending invitation is
//! answered by the very next message: a whole agreement starts it, anything else lets it lapse
//! (and never pauses another running protocol); the Start button and `start` still work.

use vibe_store::ProtocolStatus;
use vibe_wire::{Event, ProtocolChoice};

use super::TurnInputs;
use crate::Invitation;
use crate::engine::tests::Fx;
use crate::invite::tests::NOT_AGREEMENTS;

fn invite(fx: &Fx, id: &str) {
    let inv = Invitation {
        skill: Some("lifecoach"),
        protocol_id: id,
        title: None,
        description: None,
        estimated_time: None,
        actions: vec![],
        conversation_id: Some(&fx.c),
    };
    fx.engine.invite(&inv).unwrap();
}

fn invitation_status(fx: &Fx) -> String {
    fx.state()["protocol_invitation"]["status"].as_str().unwrap_or_default().to_string()
}

#[test]
fn everyday_messages_let_the_invitation_lapse_and_start_nothing() {
    for message in NOT_AGREEMENTS {
        let fx = Fx::new();
        // Another protocol is running: a lapsed invitation must not pause it.
        let (review, _) = fx.engine.start(None, "weekly_review", Some(&fx.c), None).unwrap();
        invite(&fx, "dankoe");
        let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, message, "m").unwrap();
        assert!(
            matches!(&plan.events[..], [Event::ProtocolInvitationLapsed { protocol_id, .. }] if protocol_id == "dankoe"),
            "{message:?}: {:?}",
            plan.events
        );
        assert_eq!(invitation_status(&fx), "lapsed", "{message:?}");
        let runs = fx.engine.runs(None).unwrap();
        assert!(runs.iter().all(|r| r.protocol_id != "dankoe"), "{message:?} started dankoe");
        assert_eq!(
            fx.engine.run(&review.id).unwrap().status,
            ProtocolStatus::Active,
            "{message:?}"
        );
    }
}

#[test]
fn only_the_next_message_can_accept_a_lapsed_invitation_stays_lapsed() {
    let fx = Fx::new();
    invite(&fx, "dankoe");
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "稍后再说", "m").unwrap();
    assert!(plan.prompt.is_none());
    assert_eq!(invitation_status(&fx), "lapsed");
    for later in ["你好", "好", "好的，开始吧"] {
        let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, later, "m").unwrap();
        assert!(plan.prompt.is_none() && plan.events.is_empty(), "{later:?}: {plan:?}");
    }
    assert!(fx.engine.runs(None).unwrap().is_empty());
    assert_eq!(invitation_status(&fx), "lapsed");
}

#[test]
fn a_clear_typed_yes_as_the_next_message_starts_it() {
    for yes in ["好", "好的", "好，开始吧", "可以开始", "OK", "sure, let's start"] {
        let fx = Fx::new();
        invite(&fx, "dankoe");
        let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, yes, "m").unwrap();
        assert!(plan.prompt.unwrap().contains("协议刚刚开始"), "{yes:?}");
        assert_eq!(invitation_status(&fx), "started");
        assert_eq!(fx.engine.active("lifecoach").unwrap().protocol_id, "dankoe");
    }
}

#[test]
fn the_start_button_and_the_start_command_still_start_after_a_lapse() {
    let fx = Fx::new();
    invite(&fx, "dankoe");
    fx.engine.before_turn(Some("lifecoach"), &fx.c, "我好累", "m").unwrap();
    let choice = ("dankoe".to_string(), ProtocolChoice::Start);
    let turn = TurnInputs { message: "开始", model: "m", choice: Some(&choice) };
    let plan = fx.engine.plan_turn(Some("lifecoach"), &fx.c, turn).unwrap();
    assert!(plan.prompt.unwrap().contains("协议刚刚开始"));
    fx.engine.cancel(Some("lifecoach"), None, None).unwrap();
    // `vibe protocol start ID` is the engine's start.
    invite(&fx, "dankoe");
    fx.engine.before_turn(Some("lifecoach"), &fx.c, "good morning", "m").unwrap();
    let (run, _) = fx.engine.start(Some("lifecoach"), "dankoe", None, None).unwrap();
    assert_eq!(run.status, ProtocolStatus::Active);
    assert_eq!(invitation_status(&fx), "started");
}

/// A message the safety screen pauses protocols for (acute) agrees to nothing either: the
/// invitation lapses, so a "好" after it does not start the protocol.
#[test]
fn a_pause_for_safety_lets_a_pending_invitation_lapse() {
    let fx = Fx::new();
    invite(&fx, "dankoe");
    assert!(fx.engine.pause("lifecoach").unwrap().is_none(), "no run to pause");
    assert_eq!(invitation_status(&fx), "lapsed");
    let plan = fx.engine.before_turn(Some("lifecoach"), &fx.c, "好", "m").unwrap();
    assert!(plan.prompt.is_none());
    assert!(fx.engine.runs(None).unwrap().is_empty());
}
