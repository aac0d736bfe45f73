// A new skill from the template (`new_skill`): a valid SKILL.md in the person's skills folder,
// ready to edit; the registry picks it up.

import { useState } from "react";
import { useTranslation } from "react-i18next";
import * as client from "../client";
import { FailureText } from "../errors/Failure";
import type { CommandError } from "../wire";
import { Button, Toast } from "../design";

export function NewSkill({ onCreated }: { onCreated: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const [error, setError] = useState<CommandError | null>(null);
  const create = async () => {
    setError(null);
    setCreated(null);
    try {
      const r = await client.skills.create(name.trim());
      setCreated(r.file);
      setName("");
      onCreated();
    } catch (e) {
      setError(client.toCommandError(e));
    }
  };
  return (
    <form className="new-skill" onSubmit={(e) => (e.preventDefault(), void create())}>
      <label className="row">
        {t("skills.newName")}
        <input value={name} placeholder="my-habits" onChange={(e) => setName(e.target.value)} />
      </label>
      <Button type="submit" disabled={!name.trim()}>
        {t("skills.create")}
      </Button>
      {created && (
        <Toast tone="ok" className="small">
          {t("skills.created", { file: created })}
        </Toast>
      )}
      {error && (
        <Toast tone="danger" className="small">
          <FailureText failure={error} />
        </Toast>
      )}
    </form>
  );
}
