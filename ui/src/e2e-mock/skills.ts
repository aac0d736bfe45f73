// The mock shell's skill registry: a few skills over three roots (one of the person's own
// shadows a built-in, one is broken), show/reload/new, and the watch channel. Tests stand in
// for an edit on disk with `__vibeMock.editSkill(name, fixed, notify)`: with `notify` the
// registry's watcher reports it (skills_changed), without it only a reload finds it.

import type { Envelope, SkillProblemView, SkillSummary } from "../wire";
import { reply, type Call } from "./call";

const ROOTS = [
  { kind: "project" as const, path: "/home/me/projects/coach-skills" },
  { kind: "user" as const, path: "/home/me/.local/share/app.vibelife.desktop/skills" },
  { kind: "builtin" as const, path: "/usr/share/vibelife/skills" },
];

const dirOf = (name: string, root: SkillSummary["root"]) => `${ROOTS.find((r) => r.kind === root)?.path}/${name}`;

/** The core's finding for a SKILL.md without a description: as data and as its English line. */
const missingDescription = (dir: string): SkillProblemView => ({
  path: `${dir}/SKILL.md`,
  line: 3,
  col: 1,
  severity: "error",
  code: { code: "missing_field", field: "description" },
  message: "missing required field `description` in the frontmatter",
});

const skill = (name: string, root: SkillSummary["root"], description: string | null, findings: SkillProblemView[] = []): SkillSummary => ({
  name,
  description,
  root,
  dir: dirOf(name, root),
  shadows: [],
  valid: findings.every((f) => f.severity !== "error"),
  problems: findings.map((f) => `${f.path}:${f.line}:${f.col}: ${f.message}`),
  findings,
});

/** Display names as the shipped SKILL.md files have them (`metadata`). */
const DISPLAY_NAMES: Record<string, Record<string, string>> = {
  lifecoach: { display_name_zh: "人生教练", display_name_en: "Life Coach" },
  bazi: { display_name_zh: "八字命理", display_name_en: "Bazi Four Pillars" },
};

export function createSkills(send: (channel: number, index: number, env: Envelope) => void) {
  /** What is on disk. */
  const disk: SkillSummary[] = [
    skill("bazi", "builtin", "八字四柱：把命盘当作反思的材料"),
    skill("journal-helper", "user", null, [missingDescription(dirOf("journal-helper", "user"))]),
    { ...skill("lifecoach", "user", "My own life coach: goals, habits, journaling"), shadows: [{ root: "builtin", dir: `${ROOTS[2]?.path}/lifecoach` }] },
    skill("tarot", "builtin", "塔罗：一次抽牌，一个问题"),
    skill("zodiac", "builtin", "太阳与月亮星座"),
  ];
  /** What the registry has read (a reload or the watcher catches up with the disk). */
  let index = structuredClone(disk);
  let channel: number | null = null;
  let seq = 0;
  /** The next message index on the channel (Tauri's channels deliver in index order). */
  let next = 0;

  function editSkill(name: string, fixed: boolean, notify: boolean) {
    const s = disk.find((x) => x.name === name);
    if (!s) return;
    const broken = skill(s.name, s.root, null, [missingDescription(s.dir)]);
    s.problems = fixed ? [] : broken.problems;
    s.findings = fixed ? [] : broken.findings;
    s.valid = fixed;
    s.description = fixed ? "Helps write a short journal entry each evening" : null;
    if (notify) {
      const changes = reread();
      if (channel !== null) send(channel, next++, { run_id: "", seq: seq++, ts: new Date().toISOString(), type: "skills_changed", changes } as Envelope);
    }
  }

  function reread() {
    const before = new Map(index.map((s) => [s.name, JSON.stringify(s)]));
    index = structuredClone(disk);
    return index
      .filter((s) => before.get(s.name) !== JSON.stringify(s))
      .map((s) => ({ name: s.name, change: s.valid ? ("changed" as const) : ("invalid" as const), problems: s.problems }));
  }

  function handle({ cmd, request }: Call, args: Record<string, unknown>): unknown {
    switch (cmd) {
      case "list_skills":
        return reply(cmd, { skills: index, roots: ROOTS, warnings: [] });
      case "show_skill": {
        const s = index.find((x) => x.name === request.name);
        if (!s) throw { error: { kind: "not_found", message: `no skill ${String(request.name)}` } };
        return reply(cmd, {
          name: s.name,
          root: s.root,
          dir: s.dir,
          valid: s.valid,
          shadows: s.shadows,
          meta: { name: s.name, description: s.description, metadata: DISPLAY_NAMES[s.name] ?? {} },
          parts: s.name === "lifecoach" ? { rules: ["goal_tracking", "journaling"], scenarios: ["weekly_review"], cases: ["stuck"], tools: true, protocols: ["dankoe", "weekly_review"], daily_prompts: [{ zh: "今天你为自己做了哪一件小事？", en: "What is one small thing you did for yourself today?" }], starters: [] } : { rules: [], scenarios: [], cases: [], tools: false, protocols: [], daily_prompts: [], starters: [] },
          resources: [
            { path: "SKILL.md", bytes: 2048, kind: "part" as const },
            ...(s.name === "lifecoach" ? [{ path: "scripts/streak.py", bytes: 812, kind: "script" as const }, { path: "references/dankoe.md", bytes: 4096, kind: "reference" as const }] : []),
          ],
          problems: s.problems,
          findings: s.findings,
        });
      }
      case "reload_skills":
        return reply(cmd, { changes: reread() });
      case "new_skill": {
        const name = String(request.name);
        if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
          throw { error: { kind: "invalid_input", message: `"${name}" is not a skill name: use lowercase letters, digits and dashes` }, hint: null };
        const s = skill(name, "user", `TODO: say in one line what ${name} is for`);
        disk.push(s);
        disk.sort((a, b) => a.name.localeCompare(b.name));
        reread();
        return reply(cmd, { name, dir: s.dir, file: `${s.dir}/SKILL.md` });
      }
      case "open_skills_dir":
        return reply(cmd, null);
      case "watch_skills":
        channel = (args.onEvent as { id: number }).id;
        next = 0;
        return reply(cmd, null);
      default:
        return undefined;
    }
  }
  return { handle, editSkill };
}
