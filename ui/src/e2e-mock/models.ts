// The mock shell's local models: a two-model catalogue, what is installed, and downloads that
// stream `model_download_progress` through the command's channel in ten steps (one per
// `delayMs`), cancellable, ending with `model_download_finished` (or `_failed`). `use_model`
// selects the `local` preset in the mock's settings; `add_model_file` stands in for a file
// picked in the system dialog; `?catalog=broken` makes the catalogue unreadable.

import type { CatalogModelView, Envelope, InstalledModelView, ModelPulled } from "../wire";
import { reply, type Call } from "./call";

const MODELS_DIR = "/home/me/.local/share/app.vibelife.desktop/models";
const GiB = 1024 ** 3;

const entry = (id: string, name: string, parameters: string, size: number, ram: number): CatalogModelView => ({
  id,
  name,
  parameters,
  quantization: "Q4_K_M",
  url: `https://huggingface.co/Qwen/${name.replace(/ /g, "-")}-GGUF/resolve/main/${id}.gguf`,
  size_bytes: size,
  sha256: "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
  license: "Apache-2.0",
  context_length: 32768,
  ram_bytes: ram,
  installed: false,
  downloading: false,
});

interface Hooks {
  send: (channel: number, index: number, env: Envelope) => void;
  delayMs: () => number;
  /** The settings now select the `local` preset with `id`. */
  use: (id: string) => void;
  inUse: () => string | null;
  /** `?catalog=broken`: the catalogue cannot be read (an unreachable mirror). */
  brokenCatalog: boolean;
}

export function createModels(hooks: Hooks) {
  const catalog = [
    entry("qwen2.5-0.5b-instruct-q4_k_m", "Qwen2.5 0.5B Instruct", "0.5B", 491_400_032, 1_000_000_000),
    entry("qwen2.5-1.5b-instruct-q4_k_m", "Qwen2.5 1.5B Instruct", "1.5B", 1_117_320_736, 2_000_000_000),
  ];
  const installed = new Map<string, InstalledModelView>();
  const partial = new Map<string, number>();
  const cancels = new Map<string, () => void>();

  const view = (id: string, name: string, size: number, origin: "catalog" | "file"): InstalledModelView => ({
    id,
    name,
    path: `${MODELS_DIR}/${id}.gguf`,
    size_bytes: size,
    origin,
    sha256: "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
    added_at: new Date().toISOString(),
    in_use: false,
  });
  const withUse = (m: InstalledModelView) => ({ ...m, in_use: hooks.inUse() === m.id });

  function pull(id: string, channel: number): Promise<ModelPulled> {
    const m = catalog.find((c) => c.id === id);
    if (!m) throw { error: { kind: "not_found", message: `no model "${id}" in the catalogue (shipped)` }, hint: { type: "local_model", id } };
    if (installed.has(id)) return Promise.resolve({ model: withUse(installed.get(id) as InstalledModelView), resumed_from: 0, restarted: false, already_installed: true });
    if (cancels.has(id)) throw { error: { kind: "busy", message: `"${id}" is already being downloaded` }, hint: null };
    let index = 0;
    let seq = 0;
    const emit = (e: Record<string, unknown>) =>
      hooks.send(channel, index++, { run_id: "", seq: seq++, ts: new Date().toISOString(), ...e } as Envelope);
    const from = partial.get(id) ?? 0;
    return new Promise<ModelPulled>((resolve, reject) => {
      let received = from;
      const step = Math.ceil(m.size_bytes / 10);
      let timer: ReturnType<typeof setTimeout> | null = null;
      cancels.set(id, () => {
        if (timer) clearTimeout(timer);
        cancels.delete(id);
        partial.set(id, received);
        const error = { kind: "cancelled", message: `the download of "${id}" was cancelled; pull it again to resume` };
        emit({ type: "model_download_failed", id, error });
        reject({ error, hint: null });
      });
      const tick = () => {
        emit({ type: "model_download_progress", id, received, total: m.size_bytes });
        if (received >= m.size_bytes) {
          cancels.delete(id);
          partial.delete(id);
          const model = view(id, m.name, m.size_bytes, "catalog");
          installed.set(id, model);
          emit({ type: "model_download_finished", id, size_bytes: m.size_bytes, sha256: model.sha256 });
          resolve({ model: withUse(model), resumed_from: from, restarted: false, already_installed: false });
          return;
        }
        received = Math.min(m.size_bytes, received + step);
        timer = setTimeout(tick, Math.max(hooks.delayMs(), 1) * 4);
      };
      tick();
    });
  }

  function handle({ cmd, request }: Call, args: Record<string, unknown>): unknown {
    const id = String((request as { id?: string } | undefined)?.id ?? "");
    switch (cmd) {
      case "list_local_models":
        if (hooks.brokenCatalog)
          return reply(cmd, {
            catalog: [],
            installed: [...installed.values()].map(withUse),
            models_dir: MODELS_DIR,
            free_bytes: 48 * GiB,
            catalog_source: "https://mirror.example/catalog.json",
            catalog_error: { kind: "config", message: "model catalogue https://mirror.example/catalog.json: cannot fetch it: connection refused" },
            ...(hooks.inUse() ? { in_use: hooks.inUse() } : {}),
          });
        return reply(cmd, {
          catalog: catalog.map((c) => ({
            ...c,
            installed: installed.has(c.id),
            downloading: cancels.has(c.id),
            ...(partial.has(c.id) ? { partial_bytes: partial.get(c.id) } : {}),
          })),
          installed: [...installed.values()].map(withUse),
          models_dir: MODELS_DIR,
          free_bytes: 48 * GiB,
          catalog_source: "shipped",
          ...(hooks.inUse() ? { in_use: hooks.inUse() } : {}),
        });
      case "pull_model":
        return reply(cmd, pull(id, (args.onEvent as { id: number }).id));
      case "cancel_model_download": {
        const cancel = cancels.get(id);
        cancel?.();
        return reply(cmd, { id, cancelled: !!cancel });
      }
      case "remove_model": {
        const m = installed.get(id);
        if (!m && !partial.has(id)) throw { error: { kind: "not_found", message: `no installed model "${id}" in ${MODELS_DIR}` }, hint: { type: "local_model", id } };
        const freed = (m?.size_bytes ?? 0) + (partial.get(id) ?? 0);
        installed.delete(id);
        partial.delete(id);
        return reply(cmd, { id, freed_bytes: freed, was_installed: !!m, was_in_use: hooks.inUse() === id });
      }
      case "use_model": {
        const m = installed.get(id);
        if (!m) throw { error: { kind: "not_found", message: `no installed model "${id}" in ${MODELS_DIR}` }, hint: { type: "local_model", id } };
        hooks.use(id);
        return reply(cmd, { model: withUse(m), settings_file: "/home/me/.local/share/app.vibelife.desktop/settings.json" });
      }
      case "add_model_file": {
        const model = view("my-coach-q8_0", "My Coach Q8_0", 812_000_000, "file");
        installed.set(model.id, model);
        return reply(cmd, withUse(model));
      }
      default:
        return undefined;
    }
  }
  return { handle };
}
