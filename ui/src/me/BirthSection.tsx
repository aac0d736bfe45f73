// Birth info (date, time or "unknown", place, timezone) and the charts it produces: bazi's four
// pillars and the sun and moon signs (`compute_chart` of the bazi and zodiac skills). The core
// looks the place up and checks every field before storing (`set_profile_path`).

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError } from "../wire";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown) => (typeof v === "string" ? v : "");

interface Form {
  date: string;
  time: string;
  timeUnknown: boolean;
  place: string;
  timezone: string;
}

const SLOTS = ["year", "month", "day", "hour"] as const;

export function BirthSection() {
  const { t } = useTranslation();
  const [birth, setBirth] = useState<Obj | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [charts, setCharts] = useState<{ bazi: Obj | null; zodiac: Obj | null }>({ bazi: null, zodiac: null });
  const [error, setError] = useState<CommandError | null>(null);
  const loadCharts = useCallback((force: boolean) => {
    for (const skill of ["bazi", "zodiac"] as const)
      client.profile.chart(skill, force).then(
        (c) => setCharts((cs) => ({ ...cs, [skill]: obj(c.chart) })),
        () => setCharts((cs) => ({ ...cs, [skill]: null })),
      );
  }, []);
  useEffect(() => {
    client.profile.get().then(
      (p) => {
        const b = obj(obj(p).birth_info);
        setBirth(b);
        if (b.date) loadCharts(false);
      },
      (e) => setError(client.toCommandError(e)),
    );
  }, [loadCharts]);

  const edit = () =>
    setForm({
      date: text(birth?.date),
      time: text(birth?.time),
      timeUnknown: !!birth?.date && !birth?.time,
      place: text(birth?.place),
      timezone: text(birth?.timezone),
    });
  const save = async () => {
    if (!form) return;
    setError(null);
    const value: Obj = { date: form.date || null, time: form.timeUnknown ? null : form.time || null, place: form.place || null };
    if (form.timezone) value.timezone = form.timezone;
    try {
      const p = await client.profile.set("birth_info", value);
      setBirth(obj(obj(p).birth_info));
      setForm(null);
      loadCharts(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };

  const bazi = charts.bazi;
  const zodiac = charts.zodiac;
  const pillars = obj(bazi?.pillars);
  const dayMaster = obj(bazi?.day_master);
  return (
    <section className="card birth" aria-labelledby="me-birth">
      <div className="card-head">
        <h2 id="me-birth">{t("me.birth.title")}</h2>
        {!form && (
          <button type="button" className="link" data-testid="birth-edit" onClick={edit}>
            {t("me.edit")}
          </button>
        )}
      </div>
      {error && (
        <p className="bad" role="alert">
          <FailureText failure={error} />
        </p>
      )}
      {!form && birth && (
        <dl className="facts">
          <dt>{t("me.birth.date")}</dt>
          <dd>{text(birth.date) || t("me.notSet")}</dd>
          <dt>{t("me.birth.time")}</dt>
          <dd>{text(birth.time) || t("me.birth.unknown")}</dd>
          <dt>{t("me.birth.place")}</dt>
          <dd>{text(birth.place) || t("me.notSet")}</dd>
          <dt>{t("me.birth.timezone")}</dt>
          <dd>{text(birth.timezone) || t("me.notSet")}</dd>
        </dl>
      )}
      {form && (
        <form className="birth-form" onSubmit={(e) => (e.preventDefault(), void save())}>
          <label>
            {t("me.birth.date")}
            <input type="date" value={form.date} onChange={(e) => setForm({ ...form, date: e.target.value })} />
          </label>
          <label>
            {t("me.birth.time")}
            <input type="time" value={form.time} disabled={form.timeUnknown} onChange={(e) => setForm({ ...form, time: e.target.value })} />
          </label>
          <label className="row">
            <input type="checkbox" checked={form.timeUnknown} onChange={(e) => setForm({ ...form, timeUnknown: e.target.checked })} />
            {t("me.birth.timeUnknown")}
          </label>
          <label>
            {t("me.birth.place")}
            <input value={form.place} placeholder={t("me.birth.placeHint")} onChange={(e) => setForm({ ...form, place: e.target.value })} />
          </label>
          <label>
            {t("me.birth.timezone")}
            <input value={form.timezone} placeholder="Asia/Shanghai" onChange={(e) => setForm({ ...form, timezone: e.target.value })} />
          </label>
          <div className="actions start">
            <button type="submit" className="primary">
              {t("me.save")}
            </button>
            <button type="button" onClick={() => setForm(null)}>
              {t("me.cancel")}
            </button>
          </div>
        </form>
      )}
      {(bazi || zodiac) && (
        <div className="charts" data-testid="charts">
          {bazi && (
            <div className="chart">
              <h3>{t("me.charts.bazi")}</h3>
              <table className="pillars">
                <thead>
                  <tr>
                    {SLOTS.map((s) => (
                      <th key={s} scope="col">
                        {t(`me.charts.${s}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  <tr>
                    {SLOTS.map((s) => (
                      <td key={s}>{text(pillars[s]) || "—"}</td>
                    ))}
                  </tr>
                </tbody>
              </table>
              {text(dayMaster.stem) && (
                <p className="small">
                  {t("me.charts.dayMaster", { stem: text(dayMaster.stem), element: text(dayMaster.element_zh) || text(dayMaster.element) })}
                </p>
              )}
            </div>
          )}
          {zodiac && (
            <div className="chart">
              <h3>{t("me.charts.zodiac")}</h3>
              <p className="small">{t("me.charts.sun", { sign: text(zodiac.sun_sign_display) || text(zodiac.sun_sign) })}</p>
              <p className="small">
                {t("me.charts.moon", { sign: text(zodiac.moon_sign_display) || text(zodiac.moon_sign) || t("me.charts.moonUnknown") })}
              </p>
            </div>
          )}
        </div>
      )}
      <p className="muted small reflection-note">{t("me.charts.note")}</p>
    </section>
  );
}
