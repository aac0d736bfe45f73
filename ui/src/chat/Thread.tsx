// The thread of one conversation as a virtual list: only the messages in or near the view are in
// the DOM (a 1,000-message conversation keeps about a screenful plus a margin), each measured as it
// renders and re-measured as a streaming reply grows. It follows the newest message while the
// person is at the bottom and stays put once they scroll up to read. It owns scrolling only: what
// a message looks like is MessageView's.

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { MessageView } from "./MessageView";
import type { Message } from "./state";

/** Within this many pixels of the end the thread counts as "at the bottom" and follows new text. */
const STICK = 48;

export function Thread({ conversationId, messages }: { conversationId: string | null; messages: readonly Message[] }) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 160,
    overscan: 4,
    getItemKey: (i) => messages[i]?.key ?? i,
  });

  const toEnd = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  // A newly opened conversation starts at its end.
  useLayoutEffect(() => {
    atBottom.current = true;
    toEnd();
  }, [conversationId, toEnd]);

  // New messages, a growing reply and re-measured heights keep the end in view while following.
  const last = messages.at(-1);
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (atBottom.current) toEnd();
  }, [last, messages.length, total, toEnd]);

  // A person's own message always brings the end back into view.
  useEffect(() => {
    if (last?.role === "user") {
      atBottom.current = true;
      toEnd();
    }
  }, [last, toEnd]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK;
  };

  return (
    <div className="thread" ref={scroller} onScroll={onScroll} aria-live="polite" data-testid="thread">
      {messages.length === 0 ? (
        <p className="empty">{t("chat.empty")}</p>
      ) : (
        <div className="thread-items" style={{ height: total }}>
          {virtualizer.getVirtualItems().map((item) => {
            const message = messages[item.index];
            if (!message) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="thread-item"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <MessageView message={message} />
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}
