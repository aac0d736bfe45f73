import { describe, expect, it } from "vitest";
import { greetingFor } from "./greeting";

describe("the greeting for the time of day", () => {
  it("changes at 5, 12, 18 and 23 o'clock", () => {
    expect([4, 5, 11, 12, 17, 18, 22, 23, 0].map(greetingFor)).toEqual([
      "night",
      "morning",
      "morning",
      "afternoon",
      "afternoon",
      "evening",
      "evening",
      "night",
      "night",
    ]);
  });
});
