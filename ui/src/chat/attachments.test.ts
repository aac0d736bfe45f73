import { describe, expect, it } from "vitest";
import { attach, onAttached, takeAttached } from "./attachments";

describe("attachments", () => {
  it("keeps attached texts until taken, joined as paragraphs, and tells listeners", () => {
    expect(takeAttached()).toBeNull();
    let told = 0;
    const off = onAttached(() => told++);
    attach("first");
    attach("second");
    expect(told).toBe(2);
    expect(takeAttached()).toBe("first\n\nsecond");
    expect(takeAttached()).toBeNull();
    off();
    attach("third");
    expect(told).toBe(2);
    expect(takeAttached()).toBe("third");
  });
});
