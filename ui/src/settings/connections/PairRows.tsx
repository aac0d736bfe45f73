// Name/value rows for environment variables or HTTP headers; values are secret (typed into a
// password field, sent once to the keychain, never shown again).

import { useTranslation } from "react-i18next";
import { Button } from "../../design";
import type { Pair } from "./form";

export function PairRows({ kind, rows, onChange }: { kind: "env" | "headers"; rows: Pair[]; onChange: (rows: Pair[]) => void }) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<Pair>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="connection-pairs" data-testid={`connection-${kind}`}>
      <legend>{t(`connections.form.${kind}`)}</legend>
      {rows.map((row, i) => (
        <div className="row" key={i}>
          <input aria-label={t("connections.form.pairName", { n: i + 1 })} data-testid={`${kind}-name-${i}`} value={row.name} onChange={(e) => set(i, { name: e.target.value })} />
          <input
            type="password"
            autoComplete="off"
            aria-label={t("connections.form.pairValue", { n: i + 1 })}
            data-testid={`${kind}-value-${i}`}
            placeholder={t("connections.form.secretPlaceholder")}
            value={row.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          <Button size="sm" type="button" variant="ghost" onClick={() => onChange(rows.filter((_, j) => j !== i))}>
            {t("connections.form.removeRow")}
          </Button>
        </div>
      ))}
      <Button size="sm" type="button" data-testid={`${kind}-add`} onClick={() => onChange([...rows, { name: "", value: "" }])}>
        {t(`connections.form.add_${kind}`)}
      </Button>
      <p className="muted small">{t("connections.form.secretHint")}</p>
    </fieldset>
  );
}
