import { describe, expect, it } from "vitest";
import { mintRunId } from "./runId";

describe("a run id minted by the UI", () => {
  it("is a UUID v7 carrying the time it was minted", () => {
    const at = Date.UTC(2026, 10, 29, 4, 30);
    const id = mintRunId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(at);
  });

  it("differs on every call, and later ids sort after earlier ones", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => mintRunId(1_000)));
    expect(ids.size).toBe(1000);
    expect(mintRunId(2_000) > mintRunId(1_000)).toBe(true);
  });
});
