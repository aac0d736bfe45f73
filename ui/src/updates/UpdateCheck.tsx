// The automatic update check: once per window, after the app opened, the shell is asked; it
// makes no request unless the person allowed checks and the last one is a day old (the core
// decides). An offer opens the update dialog; anything else stays silent (Settings shows it).

import { useEffect, useState } from "react";
import * as client from "../client";
import type { UpdateOffer } from "../wire";
import { UpdateDialog } from "./UpdateDialog";

export function UpdateCheckOnStart() {
  const [offer, setOffer] = useState<UpdateOffer | null>(null);
  useEffect(() => {
    client.updates.check(false).then(
      (answer) => answer.outcome === "available" && setOffer(answer.offer),
      () => undefined,
    );
  }, []);
  return offer ? <UpdateDialog offer={offer} onClose={() => setOffer(null)} /> : null;
}
