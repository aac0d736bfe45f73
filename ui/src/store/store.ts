// A tiny external store: one value, replaced (never mutated) by a pure reducer, with listeners
// that React reads through `useSyncExternalStore`. Owns no app knowledge and does no IO: the
// app's state, reducer and channels are in ./app.ts and ./index.ts.

import { useSyncExternalStore } from "react";

export interface Store<S, A> {
  get: () => S;
  dispatch: (action: A) => void;
  /** Call `listener` after every change; returns the unsubscribe function. */
  subscribe: (listener: () => void) => () => void;
}

export function createStore<S, A>(reducer: (state: S, action: A) => S, initial: S): Store<S, A> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    dispatch: (action) => {
      const next = reducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The part of `store` that `select` picks; re-renders only when that part changes (by `===`),
 * so a selector must return a piece of the state, never a new object. */
export function useSelector<S, A, T>(store: Store<S, A>, select: (state: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()));
}
