// The app's state in one place: the chat (its pure event reducer at the heart), the skill
// registry's change notices, the open reminders, the model downloads, and the last failure of
// each screen's background reads. `appReduce` is pure (no IO, no React); the channels that feed
// it and the hook screens read it with are in ./index.ts, the selectors in ./selectors.ts.

import { chatReducer, type ChatAction } from "../chat/slice";
import { initialChatState, type ChatState } from "../chat/state";
import type { CommandError, ErrorInfo, Envelope, ReminderView, SkillsChange } from "../wire";

/** Where a failure is shown: each screen shows its own areas' failures (`FailureLine`). */
export type FailureArea =
  /** Not one screen's: the saved language after unlocking (shown above every screen). */
  | "app"
  /** The chat's conversation list: listing, searching, renaming, deleting. */
  | "conversations"
  /** The chat's thread: a reopened conversation's protocol. */
  | "chat"
  /** The chat's Stop (Esc). */
  | "stop"
  | "reminders"
  /** The Skills screen's live refresh (the registry's watch channel). */
  | "skills"
  /** The Protocols screen's titles. */
  | "protocols"
  /** Settings: the key's status, the server's model list, settings read again. */
  | "settings"
  /** Cancelling a model download (Settings → Models, first run). */
  | "downloads"
  /** The Today screen's read (`today`). */
  | "today"
  /** The journal screen's list (`journal_list`). */
  | "journal"
  /** A new conversation's starters (`conversation_starters`). */
  | "starters";

export interface DownloadProgress {
  received: number;
  total: number;
}

export interface Downloads {
  /** By model id, while it downloads. */
  progress: Record<string, DownloadProgress>;
  /** The last failed (or cancelled) download. */
  failure: { id: string; error: ErrorInfo } | null;
  /** The last model downloaded and verified. */
  finished: string | null;
}

export interface AppState {
  chat: ChatState;
  skills: {
    /** The last changes the registry reported (its watcher, or a reload); null: none yet. */
    changes: SkillsChange[] | null;
    /** How many notices the watcher sent: a screen listing skills reads them again when it moves. */
    notices: number;
  };
  /** The notified reminders still open (`reminder_notices`). */
  reminders: ReminderView[];
  downloads: Downloads;
  failures: Partial<Record<FailureArea, CommandError>>;
}

export type AppAction =
  | { type: "chat"; action: ChatAction }
  /** An envelope of the skill registry's watch channel. */
  | { type: "skills_watch"; env: Envelope }
  /** What a reload found. */
  | { type: "skills_reloaded"; changes: SkillsChange[] }
  | { type: "reminders"; notices: ReminderView[] }
  | { type: "download_started"; id: string; total: number }
  /** A `model_download_*` envelope of a `pull_model` channel. */
  | { type: "download_event"; env: Envelope }
  | { type: "download_finished"; id: string }
  | { type: "download_failed"; id: string; error: ErrorInfo }
  /** The pull call returned (either way): its progress bar goes. */
  | { type: "download_settled"; id: string }
  | { type: "downloads_cleared" }
  | { type: "failed"; area: FailureArea; failure: CommandError }
  /** The area's read worked again, or the person closed its failure line. */
  | { type: "recovered"; area: FailureArea };

export const initialAppState: AppState = {
  chat: initialChatState,
  skills: { changes: null, notices: 0 },
  reminders: [],
  downloads: { progress: {}, failure: null, finished: null },
  failures: {},
};

export function appReduce(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case "chat": {
      const chat = chatReducer(state.chat, action.action);
      return chat === state.chat ? state : { ...state, chat };
    }
    case "skills_watch": {
      if (action.env.type !== "skills_changed") return state;
      // The chat reduces it too: its notice tells the person a skill changed under the coach.
      return {
        ...state,
        chat: chatReducer(state.chat, { type: "event", env: action.env }),
        skills: { changes: action.env.changes, notices: state.skills.notices + 1 },
      };
    }
    case "skills_reloaded":
      return { ...state, skills: { ...state.skills, changes: action.changes } };
    case "reminders":
      return { ...state, reminders: action.notices };
    case "download_started": {
      const { progress } = state.downloads;
      const received = progress[action.id]?.received ?? 0;
      return downloads(state, {
        progress: { ...progress, [action.id]: { received, total: action.total } },
        failure: null,
        finished: null,
      });
    }
    case "download_event": {
      const env = action.env;
      if (env.type !== "model_download_progress") return state;
      return downloads(state, {
        progress: { ...state.downloads.progress, [env.id]: { received: env.received, total: env.total } },
      });
    }
    case "download_finished":
      return downloads(state, { finished: action.id });
    case "download_failed":
      return downloads(state, { failure: { id: action.id, error: action.error } });
    case "download_settled": {
      if (!(action.id in state.downloads.progress)) return state;
      const progress = { ...state.downloads.progress };
      delete progress[action.id];
      return downloads(state, { progress });
    }
    case "downloads_cleared":
      return state.downloads.failure || state.downloads.finished ? downloads(state, { failure: null, finished: null }) : state;
    case "failed":
      return { ...state, failures: { ...state.failures, [action.area]: action.failure } };
    case "recovered": {
      if (!(action.area in state.failures)) return state;
      const failures = { ...state.failures };
      delete failures[action.area];
      return { ...state, failures };
    }
  }
}

const downloads = (state: AppState, change: Partial<Downloads>): AppState => ({
  ...state,
  downloads: { ...state.downloads, ...change },
});
