// The devices syncing through the target, this one first, each with "Remove" (not this one):
// removing asks first (it replaces the key: every other device joins again with the new code,
// which the section then shows once).

import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, ConfirmDialog } from "../../design";
import type { SyncDeviceView } from "../../wire";

export function Devices({
  devices,
  when,
  onRemove,
}: {
  devices: SyncDeviceView[];
  when: (iso: string) => string;
  onRemove: (deviceId: string) => void;
}) {
  const { t } = useTranslation();
  const [asking, setAsking] = useState<SyncDeviceView | null>(null);
  const name = (d: SyncDeviceView) => d.name ?? t("sync.devices.unnamed");
  return (
    <div className="sync-devices">
      <h3 id="sync-devices-title">{t("sync.devices.title")}</h3>
      <ul aria-labelledby="sync-devices-title" data-testid="sync-devices">
        {devices.map((d) => (
          <li key={d.device_id} data-testid="sync-device">
            <span className="sync-device-what">
              <strong>{name(d)}</strong>
              {d.this_device && <span className="tag">{t("sync.devices.thisDevice")}</span>}
              <code>{d.device_id}</code>
              <span className="muted small">
                {d.last_seen ? t("sync.devices.seen", { when: when(d.last_seen) }) : t("sync.devices.notSeen")}
              </span>
            </span>
            {!d.this_device && (
              <Button type="button" size="sm" variant="danger" data-testid={`sync-remove-${d.device_id}`} onClick={() => setAsking(d)}>
                {t("sync.devices.remove")}
              </Button>
            )}
          </li>
        ))}
      </ul>
      {asking && (
        <ConfirmDialog
          title={t("sync.devices.confirmTitle", { name: name(asking) })}
          cancelLabel={t("sync.devices.cancel")}
          confirmLabel={t("sync.devices.confirm")}
          onCancel={() => setAsking(null)}
          onConfirm={() => {
            onRemove(asking.device_id);
            setAsking(null);
          }}
          data-testid="sync-remove-dialog"
          confirmTestId="sync-remove-confirm"
        >
          <p>{t("sync.devices.confirmText")}</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
