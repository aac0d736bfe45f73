// Downloads of local models as the screens see them: progress by model id (from the
// `model_download_*` events of each `pull_model` channel), the last failure, the last model
// finished, kept in the app store so a download keeps its bar while the person is on another
// screen. Shared by Settings → Models and first run; the downloading itself is the core's.

import { useCallback } from "react";
import * as client from "../client";
import { dispatch, recovered, report, selectDownloads, useApp } from "../store";

import type { DownloadProgress } from "../store/app";

export type { DownloadProgress };

export function useModelDownloads(onSettled: () => void) {
  const { progress, failure, finished } = useApp(selectDownloads);

  /** Downloads (or resumes) `id`; true once it is verified and in place. */
  const pull = useCallback(
    async (id: string, total: number): Promise<boolean> => {
      dispatch({ type: "download_started", id, total });
      try {
        await client.localModels.pull(id, (env) => dispatch({ type: "download_event", env }));
        dispatch({ type: "download_finished", id });
        return true;
      } catch (e) {
        dispatch({ type: "download_failed", id, error: client.toErrorInfo(e) });
        return false;
      } finally {
        dispatch({ type: "download_settled", id });
        onSettled();
      }
    },
    [onSettled],
  );

  /** Stops a download; its failure (say the download ended meanwhile) shows in the `downloads` line. */
  const cancel = useCallback(
    (id: string) =>
      client.localModels.cancel(id).then(
        () => recovered("downloads"),
        (e) => report("downloads", e),
      ),
    [],
  );
  /** Forgets the last finished or failed download (another action's message replaces it). */
  const clear = useCallback(() => dispatch({ type: "downloads_cleared" }), []);
  return { progress, failure, finished, pull, cancel, clear };
}

/** Bytes for people, in binary units (as `vibe models list` shows them). */
export function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Whole percent of a download (0 while the size is unknown). */
export const percent = (p: DownloadProgress) => (p.total > 0 ? Math.floor((p.received * 100) / p.total) : 0);
