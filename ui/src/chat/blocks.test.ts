import { describe, expect, it } from "vitest";
import { BlockSplitter } from "./blocks";

function feed(text: string, step: number) {
  const s = new BlockSplitter();
  let out = s.update("");
  for (let i = step; i < text.length + step; i += step) out = s.update(text.slice(0, i));
  return out;
}

const doc = [
  "# Title",
  "Intro line one",
  "line two",
  "",
  "- a",
  "- b",
  "",
  "  still b",
  "",
  "```python",
  "x = 1",
  "",
  "y = 2",
  "```",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  "尾巴",
].join("\n");

describe("BlockSplitter", () => {
  it("splits finished blocks the same however the text is chunked", () => {
    const whole = new BlockSplitter().update(doc);
    expect(whole.closed).toEqual([
      "# Title\n",
      "Intro line one\nline two\n\n",
      "- a\n- b\n\n  still b\n\n",
      "```python\nx = 1\n\ny = 2\n```\n",
      "| a | b |\n|---|---|\n| 1 | 2 |\n\n",
    ]);
    expect(whole.tail).toBe("尾巴");
    for (const step of [1, 3, 7, 50]) {
      const chunked = feed(doc, step);
      expect(chunked.closed).toEqual(whole.closed);
      expect(chunked.tail).toBe(whole.tail);
    }
  });

  it("keeps an open code fence in the tail, marked as open, until it closes", () => {
    const s = new BlockSplitter();
    const open = s.update("Text\n\n```js\nlet a = 1;\n\nlet b");
    expect(open.closed).toEqual(["Text\n\n"]);
    expect(open.tail).toBe("```js\nlet a = 1;\n\nlet b");
    expect(open.tailInFence).toBe(true);
    const closed = s.update("Text\n\n```js\nlet a = 1;\n\nlet b\n```\n");
    expect(closed.tailInFence).toBe(false);
    expect(closed.closed.at(-1)).toBe("```js\nlet a = 1;\n\nlet b\n```\n");
  });

  it("never re-reads finished blocks and starts over when the text is replaced", () => {
    const s = new BlockSplitter();
    const a = s.update("# One\npara\n\nmore");
    const b = s.update("# One\npara\n\nmore text");
    expect(b.closed).toBe(a.closed);
    const c = s.update("Another answer");
    expect(c.closed).toEqual([]);
    expect(c.tail).toBe("Another answer");
  });
});
