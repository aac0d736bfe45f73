// Settings → Sync's forms as data (pure, tested by form.test.ts): the target chooser's fields
// for a folder, WebDAV or S3, checked before anything is sent, turned into the wire's
// `SyncTarget` and the one secret (a WebDAV password or S3 secret key) that goes to the core
// once; a recovery code checked for its shape. The core checks again and says what the
// target answered; these checks only catch what is plainly missing or mistyped.

import type { SyncTarget } from "../../wire";

export type TargetKind = SyncTarget["kind"];

export const TARGET_KINDS: readonly TargetKind[] = ["folder", "webdav", "s3"];

/** Every field of the three kinds (only those of `kind` are read). */
export interface TargetForm {
  kind: TargetKind;
  path: string;
  url: string;
  user: string;
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  prefix: string;
  /** The WebDAV password or the S3 secret key: cleared once sent. */
  secret: string;
}

export const emptyTargetForm = (): TargetForm => ({
  kind: "folder",
  path: "",
  url: "",
  user: "",
  endpoint: "",
  bucket: "",
  region: "us-east-1",
  accessKeyId: "",
  prefix: "",
  secret: "",
});

export type TargetField = Exclude<keyof TargetForm, "kind">;

/** The first thing wrong, at its field: `key` is under `sync.form.problem`. */
export interface TargetProblem {
  field: TargetField | "code";
  key: "required" | "absolute" | "url" | "credentials" | "bucket" | "code";
}

export type TargetRequest = { target: SyncTarget; secret: string | null };

/** An `http(s)://` URL without a user or password in it, or the problem with it. */
function urlProblem(value: string): TargetProblem["key"] | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "url";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url";
  if (url.username || url.password) return "credentials";
  return null;
}

/** A folder path as the core takes it: absolute on Linux/macOS (`/…`, `~/…`) or Windows. */
const absolute = (p: string) => p.startsWith("/") || p.startsWith("~/") || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");

/** The form as the wire's target and secret, or its first problem. */
export function targetFromForm(form: TargetForm): { request: TargetRequest } | { problem: TargetProblem } {
  const t = (s: string) => s.trim();
  const need = (field: TargetField) => (t(form[field]) ? null : { problem: { field, key: "required" as const } });
  switch (form.kind) {
    case "folder": {
      const missing = need("path");
      if (missing) return missing;
      if (!absolute(t(form.path))) return { problem: { field: "path", key: "absolute" } };
      return { request: { target: { kind: "folder", path: t(form.path) }, secret: null } };
    }
    case "webdav": {
      const missing = need("url");
      if (missing) return missing;
      const bad = urlProblem(t(form.url));
      if (bad) return { problem: { field: "url", key: bad } };
      const user = t(form.user);
      if (user && !form.secret) return { problem: { field: "secret", key: "required" } };
      return { request: { target: { kind: "webdav", url: t(form.url), user }, secret: user ? form.secret : null } };
    }
    case "s3": {
      for (const field of ["endpoint", "bucket", "region", "accessKeyId"] as const) {
        const missing = need(field);
        if (missing) return missing;
      }
      const bad = urlProblem(t(form.endpoint));
      if (bad) return { problem: { field: "endpoint", key: bad } };
      if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(t(form.bucket))) return { problem: { field: "bucket", key: "bucket" } };
      if (!form.secret) return { problem: { field: "secret", key: "required" } };
      const target: SyncTarget = {
        kind: "s3",
        endpoint: t(form.endpoint),
        bucket: t(form.bucket),
        region: t(form.region),
        access_key_id: t(form.accessKeyId),
        root: t(form.prefix),
      };
      return { request: { target, secret: form.secret } };
    }
  }
}

/** A recovery code as typed (spaces, dashes and case forgiven, as the core does), regrouped,
 * or null when it cannot be one: `VL1-` then 52 letters A–Z and digits 2–7 (the key in base32). */
export function normaliseCode(typed: string): string | null {
  const clean = typed.replace(/[\s-]/g, "").toUpperCase();
  if (!clean.startsWith("VL1")) return null;
  const body = clean.slice(3);
  if (!/^[A-Z2-7]{52}$/.test(body)) return null;
  return ["VL1", ...(body.match(/.{4}/g) ?? [])].join("-");
}

/** The code split in groups for reading aloud or copying by hand. */
export const codeGroups = (code: string) => code.split("-");
