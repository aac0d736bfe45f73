// A skill's name as a person reads it (the badge "✨ 已激活人生教练"): its SKILL.md's
// `metadata.display_name_zh` / `display_name_en` for the UI's language, read once per skill
// with `show_skill`; the folder name only when the skill has none or cannot be read.

import { useEffect, useState } from "react";
import * as client from "../client";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const text = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

/** The display name in `language` from a skill's front matter (`meta`), else the other
 * language's, else `name`. */
export function displayName(meta: unknown, name: string, language: string): string {
  const names = obj(obj(meta).metadata);
  const zh = text(names.display_name_zh);
  const en = text(names.display_name_en);
  return (language.startsWith("zh") ? (zh ?? en) : (en ?? zh)) ?? name;
}

/** Each skill's front matter, asked once per window (`null`: it could not be read). */
const metas = new Map<string, Promise<unknown>>();

function metaOf(name: string): Promise<unknown> {
  let meta = metas.get(name);
  if (!meta) {
    // Deliberately quiet: the badge then shows the folder name, which is still right; the Skills
    // screen is where a skill that cannot be read shows why.
    meta = client.skills.show(name).then((d) => d.meta, () => null);
    metas.set(name, meta);
  }
  return meta;
}

/** `name`'s display name in `language`; the folder name until the skill has been read. */
export function useSkillName(name: string, language: string): string {
  const [meta, setMeta] = useState<unknown>(null);
  useEffect(() => {
    let current = true;
    void metaOf(name).then((m) => current && setMeta(m));
    return () => {
      current = false;
    };
  }, [name]);
  return displayName(meta, name, language);
}
