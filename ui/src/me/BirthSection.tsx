// Birth info (date, time or "unknown", place, timezone) and the charts it produces: bazi's four
// pillars and the sun and moon signs (`compute_chart` of the bazi and zodiac skills). The core
// looks the place up and checks every field before storing (`set_profile_path`); a place name
// shared by several places of comparable size is offered as a choice first (`lookup_place`),
// the place stored is confirmed back with its country, and a zone that is not the place's is
// warned about with the place's own zone offered.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError, PlaceView, ZoneWarning } from "../wire";
import { Button, Card, Toast } from "../design";

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
  const { t, i18n } = useTranslation();
  const [birth, setBirth] = useState<Obj | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [charts, setCharts] = useState<{ bazi: Obj | null; zodiac: Obj | null }>({ bazi: null, zodiac: null });
  const [error, setError] = useState<CommandError | null>(null);
  /** Places of the typed name to choose among, before saving. */
  const [choices, setChoices] = useState<PlaceView[] | null>(null);
  /** The place stored by the last save, told back with its country. */
  const [placed, setPlaced] = useState<PlaceView | null>(null);
  const [zoneWarning, setZoneWarning] = useState<ZoneWarning | null>(null);
  const zh = i18n.language.startsWith("zh");
  const label = (p: PlaceView) => (zh ? p.label_zh : p.label_en);
  /** Why a chart could not be computed (its skill's failure), shown where the chart would be. */
  const [chartFailure, setChartFailure] = useState<CommandError | null>(null);
  const loadCharts = useCallback((force: boolean) => {
    setChartFailure(null);
    for (const skill of ["bazi", "zodiac"] as const)
      client.profile.chart(skill, force).then(
        (c) => setCharts((cs) => ({ ...cs, [skill]: obj(c.chart) })),
        (e) => {
          setCharts((cs) => ({ ...cs, [skill]: null }));
          setChartFailure(client.toCommandError(e));
        },
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
  const store = async (value: Obj) => {
    try {
      const set = await client.profile.setChecked("birth_info", value);
      setBirth(obj(obj(set.profile).birth_info));
      setPlaced(set.place);
      setZoneWarning(set.zone_warning);
      setForm(null);
      setChoices(null);
      loadCharts(true);
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const save = async (picked?: PlaceView) => {
    if (!form) return;
    setError(null);
    const value: Obj = { date: form.date || null, time: form.timeUnknown ? null : form.time || null, place: form.place || null };
    const samePlace = form.place === text(birth?.place);
    // A new place decides its own zone unless the person typed another one.
    if (form.timezone && (samePlace || form.timezone !== text(birth?.timezone))) value.timezone = form.timezone;
    if (picked) value.place_id = picked.id;
    else if (samePlace && text(birth?.place_id)) value.place_id = text(birth?.place_id);
    else if (form.place) {
      try {
        const found = await client.profile.lookupPlace(form.place, (value.timezone as string) ?? null, form.date || null);
        if (found.status === "ambiguous") {
          setChoices(found.candidates);
          return;
        }
      } catch (e) {
        setError(client.toCommandError(e));
        return;
      }
    }
    await store(value);
  };
  const useZone = async (zone: string) => {
    setError(null);
    try {
      const set = await client.profile.setChecked("birth_info.timezone", zone);
      setBirth(obj(obj(set.profile).birth_info));
      setZoneWarning(set.zone_warning);
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
    <Card as="section" className="birth" aria-labelledby="me-birth">
      <div className="card-head">
        <h2 id="me-birth">{t("me.birth.title")}</h2>
        {!form && (
          <Button type="button" variant="link" data-testid="birth-edit" onClick={edit}>
            {t("me.edit")}
          </Button>
        )}
      </div>
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      {!form && placed && (
        <p className="small" data-testid="birth-place-confirmed">
          {t("me.birth.placeConfirmed", { place: label(placed) })}
        </p>
      )}
      {!form && zoneWarning && (
        <div className="birth-warning small" role="status" data-testid="birth-zone-warning">
          <p>{t("me.birth.zoneWarning", { given: zoneWarning.given, zone: zoneWarning.place_zone, place: placed ? label(placed) : text(birth?.place) })}</p>
          <Button type="button" onClick={() => void useZone(zoneWarning.place_zone)}>
            {t("me.birth.useZone", { zone: zoneWarning.place_zone })}
          </Button>
        </div>
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
            <input value={form.place} placeholder={t("me.birth.placeHint")} onChange={(e) => (setForm({ ...form, place: e.target.value }), setChoices(null))} />
          </label>
          <label>
            {t("me.birth.timezone")}
            <input value={form.timezone} placeholder="Asia/Shanghai" onChange={(e) => setForm({ ...form, timezone: e.target.value })} />
          </label>
          {choices && (
            <fieldset className="place-picker" data-testid="place-picker">
              <legend>{t("me.birth.pickPlace", { place: form.place })}</legend>
              <p className="muted small">{t("me.birth.pickHint")}</p>
              {choices.map((c) => (
                <Button type="button" key={c.id} className="place-choice" onClick={() => void save(c)}>
                  {label(c)} <span className="muted small">{c.timezone}</span>
                </Button>
              ))}
            </fieldset>
          )}
          <div className="actions start">
            <Button type="submit" variant="primary">
              {t("me.save")}
            </Button>
            <Button type="button" onClick={() => (setForm(null), setChoices(null))}>
              {t("me.cancel")}
            </Button>
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
      {chartFailure && (
        <Toast as="p" tone="danger" data-testid="chart-failure" className="small">
          {t("me.charts.failed")} <FailureText failure={chartFailure} />
        </Toast>
      )}
      <p className="muted small reflection-note">{t("me.charts.note")}</p>
    </Card>
  );
}
