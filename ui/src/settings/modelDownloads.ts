// Downloads of local models as the screens see them: progress by model id (from the
// `model_download_*` events of each `pull_model` channel), the last failure, the last model
// finished. Shared by Settings → Models and first run; the downloading itself is the core's.

import { useCallback, useState } from "react";
import * as client from "../client";
import type { ErrorInfo } from "../wire";

export interface DownloadProgress {
  received: number;
  total: number;
}

export function useModelDownloads(onSettled: () => void) {
  const [progress, setProgress] = useState<Record<string, DownloadProgress>>({});
  const [failure, setFailure] = useState<{ id: string; error: ErrorInfo } | null>(null);
  const [finished, setFinished] = useState<string | null>(null);

  /** Downloads (or resumes) `id`; true once it is verified and in place. */
  const pull = useCallback(
    async (id: string, total: number): Promise<boolean> => {
      setFailure(null);
      setFinished(null);
      setProgress((p) => ({ ...p, [id]: { received: p[id]?.received ?? 0, total } }));
      try {
        await client.localModels.pull(id, (e) => {
          if (e.type === "model_download_progress") setProgress((p) => ({ ...p, [e.id]: { received: e.received, total: e.total } }));
        });
        setFinished(id);
        return true;
      } catch (e) {
        setFailure({ id, error: client.toErrorInfo(e) });
        return false;
      } finally {
        setProgress((p) => {
          const rest = { ...p };
          delete rest[id];
          return rest;
        });
        onSettled();
      }
    },
    [onSettled],
  );

  const cancel = useCallback((id: string) => client.localModels.cancel(id).then(() => undefined), []);
  /** Forgets the last finished or failed download (another action's message replaces it). */
  const clear = useCallback(() => {
    setFailure(null);
    setFinished(null);
  }, []);
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
