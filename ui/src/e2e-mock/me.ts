// The mock shell's "Me" data: the profile's birth info and its charts, the lifecoach skill's
// state (deep-merged by `write_state` as the core does), and the memory items with the switch.

import type { ChartKind, JsonValue, MemoryItemView, PlaceView } from "../wire";
import { reply, type Call } from "./call";
import { noticeFor } from "./scripts";

type Obj = Record<string, unknown>;
/** The mock's plain objects as the JSON values the wire types carry. */
const json = (v: object) => v as JsonValue;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** The core's `write_state` merge: objects merge, null removes a key, anything else replaces. */
function merge(into: Obj, patch: Obj) {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete into[k];
    else if (isObj(v) && isObj(into[k])) merge(into[k] as Obj, v);
    else into[k] = v;
  }
}

const item = (id: string, kind: MemoryItemView["kind"], text: string, day: number): MemoryItemView => ({
  id,
  kind,
  text,
  confidence: 0.8,
  first_seen: `2026-11-${day}T10:00:00Z`,
  last_seen: `2026-11-${day + 2}T10:00:00Z`,
  edited: false,
  history: [],
  sources: [{ conversation_id: "conv-memory", message_id: 3 }],
  updated_at: `2026-11-${day + 2}T10:00:00Z`,
});

const place = (id: string, en: [string, string, string], zh: [string, string, string], cc: string, timezone: string, lon: number): PlaceView => ({
  id,
  name_en: en[0],
  name_zh: zh[0],
  region_en: en[1],
  region_zh: zh[1],
  country: cc,
  country_en: en[2],
  country_zh: zh[2],
  timezone,
  longitude: lon,
  latitude: 0,
  label_en: en[1] ? en.join(", ") : `${en[0]}, ${en[2]}`,
  label_zh: zh[1] ? zh.join("，") : `${zh[0]}，${zh[2]}`,
});
/** The mock gazetteer: 奥克兰 is Auckland or Oakland (comparable size), Auckland alone is one place. */
const AUCKLAND = place("g2193733", ["Auckland", "", "New Zealand"], ["奥克兰", "", "新西兰"], "NZ", "Pacific/Auckland", 174.76);
const OAKLAND = place("g5378538", ["Oakland", "California", "United States"], ["奥克兰", "California", "美国"], "US", "America/Los_Angeles", -122.27);
const PLACES: Record<string, PlaceView[]> = { 奥克兰: [OAKLAND, AUCKLAND], Auckland: [AUCKLAND], Oakland: [OAKLAND] };

export function createMe() {
  const profile: Obj = { birth_info: { date: "1990-05-17", time: "08:30", place: "杭州", timezone: "Asia/Shanghai", longitude: 120.16, latitude: 30.29 } };
  const lifecoach: Obj = {
    north_star: { vision: "做自己喜欢的设计工作，每周有三个晚上陪家人", anti_vision: "十年后仍在加班，身体垮了，对什么都提不起劲" },
    goals: { year: "转行成为产品设计师", month: "完成两个作品集案例" },
    current: { daily_levers: ["早上 7 点前写作 30 分钟", "每天投一份申请"], constraints: ["每晚 11 点前睡觉", "周末陪家人"] },
    journal: [
      { date: "2026-11-25", mood: 7, highlights: ["完成了第一版作品集"], lessons: ["早上先做最难的事"], _created_at: "2026-11-25T21:00:00Z" },
      { date: "2026-11-24", mood: 5, highlights: ["和朋友聊了转行"], lessons: ["担心收入下降"], _created_at: "2026-11-24T21:00:00Z" },
      { date: "2026-11-22", mood: 6, highlights: ["跑步 5 公里"], tomorrow: "投出 3 份申请", _created_at: "2026-11-22T21:00:00Z" },
    ],
  };
  const memory = {
    on: true,
    items: [
      item("0193m001aaaa", "goals", "想在一年内转行做产品设计", 20),
      item("0193m002bbbb", "facts", "有一个 5 岁的女儿", 18),
      item("0193m003cccc", "pain_points", "经常加班到很晚，感觉没有自己的时间", 15),
    ],
  };

  function handle({ cmd, request }: Call): unknown {
    switch (cmd) {
      case "get_profile":
        return reply(cmd, { profile: json(profile) });
      case "lookup_place": {
        const found = PLACES[String(request.query)] ?? [];
        const status = found.length === 0 ? "not_found" : found.length === 1 ? "found" : "ambiguous";
        return reply(cmd, { status, candidates: found, zone_warning: null });
      }
      case "set_profile_path": {
        const value = request.value as Obj;
        const byId = isObj(value) ? [AUCKLAND, OAKLAND].find((p) => p.id === value.place_id) : undefined;
        const named = isObj(value) && typeof value.place === "string" ? PLACES[value.place] : undefined;
        const chosen = byId ?? (named?.length === 1 ? named[0] : undefined);
        if (request.path === "birth_info" && chosen) {
          const given = typeof value.timezone === "string" ? value.timezone : null;
          profile.birth_info = { ...value, place_id: chosen.id, timezone: given ?? chosen.timezone, longitude: chosen.longitude };
          const zone_warning =
            given && given !== chosen.timezone
              ? { given, place_zone: chosen.timezone, message: `birth_info.timezone: ${given} is not the zone of ${chosen.label_en}` }
              : null;
          return reply(cmd, { profile: json(profile), place: chosen, zone_warning });
        }
        if (request.path === "birth_info" && isObj(value) && value.place === "Qwertzville")
          throw { error: { kind: "invalid_input", message: "birth_info.place: no place called Qwertzville is known" }, hint: null };
        const path = String(request.path);
        if (path === "preferences.reminder_times" && Array.isArray(value)) {
          const list = value as string[];
          const bad = list.findIndex((v, i) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(v) || (i > 0 && v <= (list[i - 1] ?? "")));
          if (bad >= 0)
            throw { error: { kind: "invalid_input", message: `preferences.reminder_times[${bad}] must be a time of day HH:MM, later than the time before it` }, hint: null };
        }
        // A dotted path, as the core stores it (null removes the key).
        const keys = path.split(".");
        const last = keys.pop() ?? path;
        let at = profile;
        for (const k of keys) at = isObj(at[k]) ? (at[k] as Obj) : (at[k] = {});
        if (value === null) delete at[last];
        else at[last] = value;
        return reply(cmd, { profile: json(profile), place: null, zone_warning: null });
      }
      case "compute_chart": {
        const skill = String(request.skill);
        const chart =
          skill === "bazi"
            ? { compute_type: "bazi", pillars: { year: "庚午", month: "辛巳", day: "丙寅", hour: "壬辰" }, day_master: { stem: "丙", element: "fire", element_zh: "火" } }
            : { compute_type: "zodiac", sun_sign: "taurus", sun_sign_display: "金牛座 Taurus", moon_sign: "leo", moon_sign_display: "狮子座 Leo", time_known: true };
        return reply(cmd, { skill, compute_type: skill as ChartKind, recomputed: !!request.force, path: `skills.${skill}.chart`, chart: json(chart) });
      }
      case "skill_state":
        return reply(cmd, { skill: String(request.skill), section: null, state: json(request.skill === "lifecoach" ? lifecoach : {}) });
      case "write_state": {
        const section = String(request.section);
        if (!isObj(lifecoach[section])) lifecoach[section] = {};
        merge(lifecoach[section] as Obj, request.data as Obj);
        return reply(cmd, { skill_id: String(request.skill), section });
      }
      case "edit_state_entry": {
        const list = lifecoach[String(request.path)] as Obj[];
        const at = list?.[Number(request.index)];
        if (!at || at._created_at !== request.created_at)
          throw { error: { kind: "not_found", message: `no entry created at ${String(request.created_at)} in list "${String(request.path)}" of skill lifecoach` }, hint: null };
        const entry = { ...(request.entry as Obj), _created_at: at._created_at, _edited_at: new Date().toISOString() };
        list[Number(request.index)] = entry;
        // The entry's own words are screened, as the core does (its text fields, not `_` ones).
        const words = Object.entries(request.entry as Obj)
          .filter(([k]) => !k.startsWith("_"))
          .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
          .filter((v): v is string => typeof v === "string")
          .join("\n");
        const safety = noticeFor(words);
        return reply(cmd, { skill_id: "lifecoach", path: String(request.path), entry: json(entry), ...(safety ? { safety } : {}) });
      }
      case "list_memory":
        return reply(cmd, { memory: memory.on, items: memory.items });
      case "edit_memory_item": {
        const it = memory.items.find((i) => i.id === request.id);
        if (!it) throw { error: { kind: "not_found", message: `no memory item ${String(request.id)}` } };
        it.history.push({ text: it.text, confidence: it.confidence, replaced_at: new Date().toISOString(), by: "edit" });
        it.text = String(request.text);
        it.edited = true;
        return reply(cmd, it);
      }
      case "forget_memory_item":
        memory.items = memory.items.filter((i) => i.id !== request.id);
        return reply(cmd, { forgotten: String(request.id) });
      case "set_memory_enabled":
        memory.on = Boolean(request.on);
        return reply(cmd, { memory: memory.on });
      case "save_memory_export":
        return reply(cmd, { path: "/home/me/Documents/vibelife-memory.json", bytes: 512 });
      default:
        return undefined;
    }
  }
  return { handle, lifecoach, memory };
}
