// The app store instance and the channels that feed it: the chat's run events (through
// `useChat`), the skill registry's watch channel (opened once the app is open), the reminder
// notices (read by the reminder card), the model downloads (`useModelDownloads`) and every
// screen's background-read failures (`report`). Screens read it with `useApp(selector)`.

import * as client from "../client";
import { appReduce, initialAppState, type AppAction, type AppState, type FailureArea } from "./app";
import { createStore, useSelector } from "./store";

export type { AppState, FailureArea } from "./app";
export * from "./selectors";

export const store = createStore<AppState, AppAction>(appReduce, initialAppState);
export const dispatch = store.dispatch;

/** The part of the app state `select` picks (see ./selectors.ts). */
export const useApp = <T>(select: (state: AppState) => T): T => useSelector(store, select);

/** A failed command of `area`, for its screen's failure line. */
export function report(area: FailureArea, e: unknown) {
  dispatch({ type: "failed", area, failure: client.toCommandError(e) });
}

/** `area`'s read worked (again): its failure line goes. */
export const recovered = (area: FailureArea) => dispatch({ type: "recovered", area });

let watching = false;
/** Hands the shell the one channel for the skill registry's `skills_changed` notices (the shell
 * keeps one channel at a time, so this runs once per window, after the app has opened; after a
 * failure the next call, as the Skills screen makes when it opens, tries again). */
export function watchSkills() {
  if (watching) return;
  watching = true;
  client.skills.watch((env) => dispatch({ type: "skills_watch", env })).then(
    () => recovered("skills"),
    (e) => {
      watching = false;
      report("skills", e);
    },
  );
}
