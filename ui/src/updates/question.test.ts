import { describe, expect, it } from "vitest";
import { asksUpdates } from "./question";

describe("the update question outside first run", () => {
  it("is asked only while no choice is saved", () => {
    expect(asksUpdates("undecided")).toBe(true);
    expect(asksUpdates("ask")).toBe(false);
    expect(asksUpdates("off")).toBe(false);
    // Not read yet: nothing flashes up before the settings arrive.
    expect(asksUpdates(null)).toBe(false);
  });
});
