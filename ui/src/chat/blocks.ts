// Splits streaming Markdown into top-level blocks incrementally, so the renderer parses each
// finished block once and re-parses only the growing tail: each delta costs O(delta + tail),
// not O(message). A block closes at a blank line followed by an unindented line, after an
// ATX heading line, after a closing code fence, and before an opening fence. Only complete
// lines are scanned; the partial last line stays in the tail.

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;

export interface Blocks {
  /** Finished blocks, never changed once listed (new ones are appended). */
  closed: readonly string[];
  /** The open block: everything after the last finished one. */
  tail: string;
  /** True when the tail is inside a code fence that has not closed yet. */
  tailInFence: boolean;
}

export class BlockSplitter {
  private text = "";
  private closed: string[] = [];
  /** Start of the open block. */
  private boundary = 0;
  /** Start of the first line not scanned yet. */
  private scanned = 0;
  private fence: { char: string; len: number } | null = null;
  private sawBlank = false;

  private epoch = 0;

  /**
   * Feeds the whole text so far. Appends are incremental; a new `epoch` (the text was
   * replaced, e.g. after `assistant_restart`) or text that visibly is not an append rescans.
   */
  update(text: string, epoch = 0): Blocks {
    if (epoch !== this.epoch || !this.isAppendOf(text)) this.reset();
    this.epoch = epoch;
    this.text = text;
    let nl = text.indexOf("\n", this.scanned);
    while (nl >= 0) {
      this.line(this.scanned, nl);
      this.scanned = nl + 1;
      nl = text.indexOf("\n", this.scanned);
    }
    // A partial line after a blank one already tells whether the block before it ended.
    const next = text[this.scanned];
    if (this.sawBlank && next !== undefined && next !== " " && next !== "\t") {
      this.close(this.scanned);
      this.sawBlank = false;
    }
    return { closed: this.closed, tail: text.slice(this.boundary), tailInFence: this.fence !== null };
  }

  /** Checks the open block's scanned part and a short window before it: O(tail), not O(text). */
  private isAppendOf(text: string): boolean {
    if (text.length < this.scanned) return false;
    const from = Math.max(0, this.boundary - 64);
    return text.startsWith(this.text.slice(from, this.scanned), from);
  }

  private reset() {
    this.text = "";
    this.closed = [];
    this.boundary = 0;
    this.scanned = 0;
    this.fence = null;
    this.sawBlank = false;
  }

  private close(end: number) {
    if (end > this.boundary) {
      const block = this.text.slice(this.boundary, end);
      // A new array each time a block closes, so memoised views see a change.
      if (block.trim() !== "") this.closed = [...this.closed, block];
    }
    this.boundary = end;
  }

  private line(start: number, end: number) {
    const line = this.text.slice(start, end);
    if (this.fence) {
      const m = FENCE.exec(line);
      const fence = this.fence;
      if (m?.[1] && m[1][0] === fence.char && m[1].length >= fence.len && line.slice(m[0].length).trim() === "") {
        this.fence = null;
        this.close(end + 1);
      }
      return;
    }
    if (line.trim() === "") {
      if (this.boundary === start) this.boundary = end + 1;
      else this.sawBlank = true;
      return;
    }
    const indented = line[0] === " " || line[0] === "\t";
    if (this.sawBlank && !indented) this.close(start);
    this.sawBlank = false;
    const fence = FENCE.exec(line);
    if (fence?.[1]) {
      this.close(start);
      this.fence = { char: fence[1][0] ?? "`", len: fence[1].length };
    } else if (HEADING.test(line)) {
      this.close(start);
      this.close(end + 1);
    }
  }
}
