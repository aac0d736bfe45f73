// The recovery code, shown once (after setup, or after removing a device replaced the key):
// as a QR code for the other device's camera and as text in groups, with the one way out —
// "I saved it". Nothing here keeps the code: once confirmed, the section forgets it.

import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { encode } from "uqr";
import { Button, Card } from "../../design";
import { codeGroups } from "./form";

/** The code's dark modules as one SVG path (a quiet zone of four modules around it). `uqr`,
 * not `qrcode`: qrcode assigns `toString` on its own objects, which throws under the app's
 * frozen `Object.prototype` (tauri.conf.json `freezePrototype`) and blanked the whole window. */
function qrPath(code: string): { size: number; d: string } {
  const { data, size } = encode(code, { ecc: "M", border: 0 });
  const parts: string[] = [];
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++) if (data[row]?.[col]) parts.push(`M${col + 4} ${row + 4}h1v1h-1z`);
  return { size: size + 8, d: parts.join("") };
}

export function RecoveryCode({ code, rotated, onSaved }: { code: string; rotated: boolean; onSaved: () => void }) {
  const { t } = useTranslation();
  const [saved, setSaved] = useState(false);
  const qr = useMemo(() => qrPath(code), [code]);
  return (
    <Card as="section" tone="accent" className="sync-code" aria-labelledby="sync-code-title" data-testid="sync-recovery">
      <h3 id="sync-code-title">{t(rotated ? "sync.code.rotatedTitle" : "sync.code.title")}</h3>
      <p>{t(rotated ? "sync.code.rotatedIntro" : "sync.code.intro")}</p>
      <div className="sync-code-body">
        <svg className="sync-qr" viewBox={`0 0 ${qr.size} ${qr.size}`} role="img" aria-label={t("sync.code.qr")} data-testid="sync-qr">
          <rect width={qr.size} height={qr.size} className="sync-qr-light" />
          <path d={qr.d} className="sync-qr-dark" shapeRendering="crispEdges" />
        </svg>
        <p className="sync-code-text" data-testid="sync-code-text" aria-label={t("sync.code.textLabel")}>
          {codeGroups(code).map((g, i) => (
            <span key={i}>{g}</span>
          ))}
        </p>
      </div>
      <p className="muted small">{t("sync.code.once")}</p>
      <label className="check">
        <input type="checkbox" data-testid="sync-code-saved-check" checked={saved} onChange={(e) => setSaved(e.target.checked)} />
        {t("sync.code.savedCheck")}
      </label>
      <Button type="button" variant="primary" disabled={!saved} data-testid="sync-code-saved" onClick={onSaved}>
        {t("sync.code.done")}
      </Button>
    </Card>
  );
}
