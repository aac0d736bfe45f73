// Stored data a coach's tool changed during a turn (`state_changed`, reduced by the chat): the
// chat announces each change here and screens showing that data (Me's dashboard and journal)
// subscribe to load it again. Only the notice travels; each screen reads the data itself.

import type { StateChange } from "../chat/state";

type Listener = (change: StateChange) => void;
const listeners = new Set<Listener>();

/** Tell every subscribed screen that `change` happened. */
export function announce(change: StateChange) {
  for (const listener of [...listeners]) listener(change);
}

/** Call `listener` on every change from now on; returns the unsubscribe function (an effect's cleanup). */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
