import { describe, expect, it } from "vitest";
import { announce, subscribe } from "./stateChanges";

describe("state changes", () => {
  it("reach subscribers until they unsubscribe", () => {
    const seen: string[] = [];
    const stop = subscribe((c) => seen.push(`${c.skill}:${c.paths.join(",")}`));
    announce({ skill: "lifecoach", paths: ["journal"] });
    stop();
    announce({ skill: "lifecoach", paths: ["goals"] });
    expect(seen).toEqual(["lifecoach:journal"]);
  });
});
