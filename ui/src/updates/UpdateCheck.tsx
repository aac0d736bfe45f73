// The window's update check: once when it opens, and again whenever the shell's clock found an
// update while the window is open (the DOM event `vibelife:update-found`, src-tauri/src/
// update_runs.rs). The shell makes no request unless the person allowed checks and the last one
// is a day old (the core decides); an update its clock found earlier (VibeLife in the tray) is
// handed to the first window that asks, once. An offer opens the update dialog; anything else
// stays silent (Settings shows it).

import { useEffect, useState } from "react";
import * as client from "../client";
import type { UpdateOffer } from "../wire";
import { UpdateDialog } from "./UpdateDialog";

/** The DOM event the shell dispatches on `window` when its clock found an update. */
export const UPDATE_FOUND = "vibelife:update-found";

export function UpdateCheckOnStart() {
  const [offer, setOffer] = useState<UpdateOffer | null>(null);
  useEffect(() => {
    const check = () =>
      client.updates.check(false).then(
        (answer) => answer.outcome === "available" && setOffer(answer.offer),
        () => undefined,
      );
    check();
    window.addEventListener(UPDATE_FOUND, check);
    return () => window.removeEventListener(UPDATE_FOUND, check);
  }, []);
  return offer ? <UpdateDialog offer={offer} onClose={() => setOffer(null)} /> : null;
}
