// The Skills screen: the index (name, description, root, what it shadows, valid or not, its
// problems as path:line:col), reload, the skills folder, a new skill from the template, and a
// skill's parts and resources. Live: the registry's `skills_changed` notices (the app store's
// watch channel) re-read the list, so a skill edited on disk shows its new state within about a
// second; when that channel could not be opened, its failure line says so.

import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import { FailureLine } from "../errors/FailureLine";
import { dispatch, selectSkills, useApp, watchSkills } from "../store";
import type { CommandError, SkillList } from "../wire";
import { NewSkill } from "./NewSkill";
import { SkillRow } from "./SkillRow";
import { Button, Toast } from "../design";

export function SkillsScreen() {
  const { t } = useTranslation();
  const [list, setList] = useState<SkillList | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const { changes, notices } = useApp(selectSkills);
  const load = useCallback(() => {
    client.skills.list().then(setList, (e) => setError(client.toCommandError(e)));
  }, []);
  // Read at the start and again on each notice of the registry's watcher.
  useEffect(load, [load, notices]);
  // The watch channel opens with the app; if that failed, opening this screen tries again.
  useEffect(watchSkills, []);
  const attempt = async (f: () => Promise<unknown>) => {
    setError(null);
    try {
      await f();
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  const reload = () =>
    attempt(async () => {
      dispatch({ type: "skills_reloaded", changes: (await client.skills.reload()).changes });
      load();
    });

  const invalid = list?.skills.filter((s) => !s.valid).length ?? 0;
  return (
    <div className="page skills-page">
      <div className="card-head">
        <h1>{t("skills.title")}</h1>
        <div className="actions">
          <Button type="button" data-testid="skills-reload" onClick={() => void reload()}>
            {t("skills.reload")}
          </Button>
          <Button type="button" onClick={() => void attempt(client.skills.openFolder)}>
            {t("skills.openFolder")}
          </Button>
        </div>
      </div>
      <p className="muted">{t("skills.intro")}</p>
      {error && (
        <Toast as="p" tone="danger">
          <FailureText failure={error} />
        </Toast>
      )}
      <FailureLine area="skills" />
      {changes && (
        <Toast as="p" tone="info" data-testid="skills-changes" className="small">
          {changes.length === 0
            ? t("skills.noChanges")
            : changes.map((c) => t(`skills.change.${c.change}`, { name: c.name })).join(" · ")}
        </Toast>
      )}
      <NewSkill onCreated={load} />
      {list && (
        <>
          <p className="small muted">
            {t("skills.count", { n: list.skills.length, invalid })}
          </p>
          {list.warnings.map((w, i) => (
            <p key={i} className="bad small">
              <code>{w}</code>
            </p>
          ))}
          <ul className="cards">
            {list.skills.map((s) => (
              <SkillRow key={`${s.root}:${s.name}`} skill={s} />
            ))}
          </ul>
          <details className="roots small">
            <summary>{t("skills.roots")}</summary>
            <ul>
              {list.roots.map((r) => (
                <li key={r.path}>
                  <span className="badge">{t(`skills.root.${r.kind}`)}</span> <code>{r.path}</code>
                </li>
              ))}
            </ul>
          </details>
        </>
      )}
    </div>
  );
}
