// Settings → Sync (docs/sync.md): off, it says what sync is and what the storage sees, and
// offers to set it up (a target chosen here) or to join another device's sync with its code;
// on, it shows the status live (`watch_sync`), sync now, pause / resume and the devices. The
// recovery code the core answers (setup, removing a device) is shown once, then forgotten; a
// password or secret key typed here is cleared as soon as it was sent. Errors from the core
// are said next to the form that caused them.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toCommandError } from "../../client";
import { Button, Card, Field, Toast } from "../../design";
import { FailureText } from "../../errors/Failure";
import type { CommandError, SyncDeviceView, SyncStatusView } from "../../wire";
import { sync } from "./api";
import { Devices } from "./Devices";
import { emptyTargetForm, normaliseCode, targetFromForm, type TargetForm, type TargetProblem } from "./form";
import { RecoveryCode } from "./RecoveryCode";
import { statusLines, syncState } from "./status";
import { TargetFields } from "./TargetFields";
import "./sync.css";

type Mode = "idle" | "setup" | "join";

export function SyncSection() {
  const { t, i18n } = useTranslation();
  const [status, setStatus] = useState<SyncStatusView | null>(null);
  const [devices, setDevices] = useState<SyncDeviceView[] | null>(null);
  const [mode, setMode] = useState<Mode>("idle");
  const [form, setForm] = useState<TargetForm>(emptyTargetForm);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<TargetProblem | null>(null);
  const [shown, setShown] = useState<{ code: string; rotated: boolean } | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const [busy, setBusy] = useState(false);
  const fail = useCallback((e: unknown) => setError(toCommandError(e)), []);
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  const readDevices = useCallback(() => {
    sync.devices().then((l) => setDevices(l.devices), fail);
  }, [fail]);
  useEffect(() => {
    sync.status().then(setStatus, fail);
    sync.watch((e) => e.type === "sync_changed" && setStatus(e.status)).catch(fail);
  }, [fail]);
  const enabled = !!status?.enabled;
  useEffect(() => {
    if (enabled) readDevices();
  }, [enabled, readDevices]);

  const act = async (work: () => Promise<void>) => {
    setError(null);
    setBusy(true);
    try {
      await work();
    } catch (e) {
      fail(e);
    } finally {
      setBusy(false);
    }
  };
  const submit = () => {
    const r = targetFromForm(form);
    if ("problem" in r) return setProblem(r.problem);
    const joinCode = mode === "join" ? normaliseCode(code) : null;
    if (mode === "join" && !joinCode) return setProblem({ field: "code", key: "code" });
    // The secret leaves the UI's state now, whatever the core answers.
    setForm((f) => ({ ...f, secret: "" }));
    void act(async () => {
      if (joinCode) {
        setStatus(await sync.join({ ...r.request, code: joinCode }));
        setCode("");
      } else {
        const done = await sync.setup(r.request);
        setShown({ code: done.code, rotated: false });
        setStatus(done.status);
      }
      setMode("idle");
      setForm(emptyTargetForm());
    });
  };
  const remove = (deviceId: string) =>
    void act(async () => {
      const done = await sync.removeDevice(deviceId);
      setShown({ code: done.code, rotated: true });
      setStatus(done.status);
      readDevices();
    });
  const state = syncState(status);

  return (
    // Inside Settings' form: Enter in a field here must not save that form.
    <section
      className="sync"
      aria-labelledby="sync-title"
      data-testid="settings-sync"
      onKeyDown={(e) => e.key === "Enter" && e.target instanceof HTMLInputElement && e.preventDefault()}
    >
      <h2 id="sync-title">{t("sync.title")}</h2>
      {shown && <RecoveryCode code={shown.code} rotated={shown.rotated} onSaved={() => setShown(null)} />}
      {status && !enabled && (
        <>
          <p>{t("sync.intro")}</p>
          <p className="muted small">{t("sync.whatTheySee")}</p>
          {mode === "idle" && (
            <div className="row">
              <Button type="button" variant="primary" data-testid="sync-setup" onClick={() => setMode("setup")}>
                {t("sync.setUp")}
              </Button>
              <Button type="button" data-testid="sync-join" onClick={() => setMode("join")}>
                {t("sync.join")}
              </Button>
            </div>
          )}
        </>
      )}
      {mode !== "idle" && (
        <div className="sync-form" data-testid="sync-form">
          <h3>{t(mode === "setup" ? "sync.setUpTitle" : "sync.joinTitle")}</h3>
          <TargetFields
            form={form}
            problem={problem}
            onEdit={(patch) => {
              setProblem(null);
              setForm((f) => ({ ...f, ...patch }));
            }}
          />
          {mode === "join" && (
            <Field label={t("sync.form.code")} hint={t("sync.form.codeHint")} error={problem?.field === "code" ? t("sync.form.problem.code") : undefined}>
              <input data-testid="sync-code" value={code} spellCheck={false} autoComplete="off" onChange={(e) => (setProblem(null), setCode(e.target.value))} />
            </Field>
          )}
          {error && (
            <Toast tone="danger" as="p" className="sync-failure bad" data-testid="sync-form-error">
              <FailureText failure={error} />
            </Toast>
          )}
          <div className="row">
            <Button type="button" variant="primary" disabled={busy} data-testid="sync-submit" onClick={submit}>
              {t(busy ? "sync.working" : mode === "setup" ? "sync.setUpSubmit" : "sync.joinSubmit")}
            </Button>
            <Button type="button" onClick={() => (setMode("idle"), setProblem(null), setError(null), setForm(emptyTargetForm()), setCode(""))}>
              {t("sync.cancel")}
            </Button>
          </div>
        </div>
      )}
      {status && enabled && (
        <Card className="sync-status" data-testid="sync-status" tone={state === "failed" ? "danger" : state === "ok" ? "ok" : "plain"}>
          <p className="sync-state" role="status" data-testid="sync-state">
            <span className={`dot ${state}`} aria-hidden="true" />
            {t(`sync.state.${state}`)}
          </p>
          <p className="small">
            {t("sync.status.target")} <code data-testid="sync-target">{status.target}</code>
          </p>
          {statusLines(status, when).map((l) => (
            <p className="small" key={l.key}>
              {t(l.key, l.values)}
            </p>
          ))}
          {status.activity.last_error && (
            <p className="sync-failure small" data-testid="sync-last-error">
              {t("sync.status.failed")} {status.activity.last_error.message}
            </p>
          )}
          <div className="row">
            <Button type="button" variant="primary" disabled={busy || status.activity.running} data-testid="sync-now" onClick={() => void act(async () => { await sync.now(); readDevices(); })}>
              {t(status.activity.running ? "sync.working" : "sync.now")}
            </Button>
            <Button type="button" aria-pressed={status.paused} data-testid="sync-pause" onClick={() => void act(async () => setStatus(await sync.pause(!status.paused)))}>
              {t(status.paused ? "sync.resume" : "sync.pause")}
            </Button>
          </div>
          {status.paused && <p className="muted small">{t("sync.pausedHint")}</p>}
          {/* A failed run is already said above, as the status's last error. */}
          {mode === "idle" && error && error.error.message !== status.activity.last_error?.message && (
            <Toast tone="danger" as="p" className="sync-failure bad" data-testid="sync-error">
              <FailureText failure={error} />
            </Toast>
          )}
        </Card>
      )}
      {status && enabled && devices && <Devices devices={devices} when={when} onRemove={remove} />}
      {!status && error && (
        <Toast tone="danger" as="p" className="sync-failure bad" data-testid="sync-error">
          <FailureText failure={error} />
        </Toast>
      )}
    </section>
  );
}
