// Streaming Markdown view: finished blocks are parsed once and memoised; only the open tail
// re-renders per delta, and an open code fence shows as plain text until it closes.

import DOMPurify from "dompurify";
import { Marked } from "marked";
import { memo, useRef } from "react";
import { BlockSplitter } from "./blocks";

const marked = new Marked({ gfm: true, async: false });
const GROUP = 32;

export function renderMarkdown(md: string): string {
  return DOMPurify.sanitize(marked.parse(md) as string);
}

const Block = memo(function Block({ md }: { md: string }) {
  return <div className="md-block" dangerouslySetInnerHTML={{ __html: renderMarkdown(md) }} />;
});

/**
 * Closed blocks in groups of 32, so a long reply re-checks a few groups per delta, not every
 * block; a full group scrolled out of view skips style, layout and paint (`content-visibility`).
 */
const Group = memo(function Group({ blocks }: { blocks: readonly string[] }) {
  return (
    <div className={blocks.length === GROUP ? "md-group md-group-full" : "md-group"}>
      {blocks.map((b, i) => (
        <Block key={i} md={b} />
      ))}
    </div>
  );
});


function useGroups(closed: readonly string[], epoch: number): (readonly string[])[] {
  const cache = useRef<{ epoch: number; groups: (readonly string[])[] }>({ epoch, groups: [] });
  if (cache.current.epoch !== epoch) cache.current = { epoch, groups: [] };
  const groups = cache.current.groups;
  const full = Math.floor(closed.length / GROUP);
  // Full groups keep their array identity; only the last, partial one is rebuilt.
  if (groups.length > full) groups.length = 0;
  for (let g = groups.length; g < full; g++) groups.push(closed.slice(g * GROUP, (g + 1) * GROUP));
  const rest = closed.slice(full * GROUP);
  return rest.length > 0 ? [...groups, rest] : groups.slice();
}

export function StreamingMarkdown({ text, epoch }: { text: string; epoch: number }) {
  const splitter = useRef<BlockSplitter | null>(null);
  splitter.current ??= new BlockSplitter();
  const { closed, tail, tailInFence } = splitter.current.update(text, epoch);
  const groups = useGroups(closed, epoch);
  return (
    <div className="markdown">
      {groups.map((g, i) => (
        <Group key={i} blocks={g} />
      ))}
      {tailInFence ? (
        <pre className="md-open-fence">
          <code>{tail.slice(tail.indexOf("\n") + 1)}</code>
        </pre>
      ) : (
        tail.trim() !== "" && <Block md={tail} />
      )}
    </div>
  );
}
