// The thread of one conversation: finished messages in a virtual list (only those in or near the
// view are in the DOM; a 1,000-message conversation keeps about a screenful plus a margin), and
// the reply that is streaming in normal flow below it, so a delta re-lays out that reply alone
// instead of re-measuring the list. It follows the newest text while the person is at the bottom
// and stays put once they scroll up to read. It owns scrolling only: what a message looks like is
// MessageView's.

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useLayoutEffect, useRef, type KeyboardEvent, type WheelEvent } from "react";
import { useTranslation } from "react-i18next";
import { MessageView } from "./MessageView";
import type { Message } from "./state";
import { EmptyState } from "../design";

/** Within this many pixels of the end the thread counts as "at the bottom" and follows new text. */
const STICK = 48;
/** Keys that scroll a focused thread towards its start: pressing one means "I am reading". */
const KEYS_UP = new Set(["PageUp", "ArrowUp", "Home"]);

export function Thread({ conversationId, messages }: { conversationId: string | null; messages: readonly Message[] }) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  /** Whether new text keeps the end in view. Only the person's own scrolling turns it off. */
  const following = useRef(true);
  /** scrollTop at the last scroll event: a smaller one means the view moved up. */
  const lastTop = useRef(0);

  const tail = messages.at(-1);
  const live = tail?.role === "assistant" && tail.status === "streaming" ? tail : null;
  const settled = live ? messages.length - 1 : messages.length;
  const virtualizer = useVirtualizer({
    count: settled,
    getScrollElement: () => scroller.current,
    estimateSize: () => 160,
    overscan: 4,
    getItemKey: (i) => messages[i]?.key ?? i,
  });

  const toEnd = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
  }, []);

  // A newly opened conversation starts at its end.
  useLayoutEffect(() => {
    following.current = true;
    toEnd();
  }, [conversationId, toEnd]);

  // New messages, a growing reply and re-measured heights keep the end in view while following.
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (following.current) toEnd();
  }, [tail, messages.length, total, toEnd]);

  // A person's own message always brings the end back into view.
  useEffect(() => {
    if (tail?.role === "user") {
      following.current = true;
      toEnd();
    }
  }, [tail, toEnd]);

  // The position decides "at the bottom"; only a move up stops following. Growth below the view
  // (a delta, a re-measured height) never moves the view up, and a re-measured message above it
  // moves the end by as much as the view, so neither is taken for the person scrolling away.
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop;
    if (el.scrollHeight - top - el.clientHeight <= STICK) following.current = true;
    else if (top < lastTop.current - 1) following.current = false;
    lastTop.current = top;
  };
  // Wheel and keys tell the intent before the scroll lands, so a delta arriving in between
  // cannot pull the view back down.
  const onWheel = (e: WheelEvent) => {
    if (e.deltaY < 0) following.current = false;
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (KEYS_UP.has(e.key)) following.current = false;
  };

  return (
    <div
      className="thread"
      ref={scroller}
      onScroll={onScroll}
      onWheel={onWheel}
      onKeyDown={onKeyDown}
      role="log"
      aria-live="polite"
      aria-busy={live !== null}
      aria-label={t("chat.threadLabel")}
      tabIndex={0}
      data-testid="thread"
    >
      {messages.length === 0 ? (
        <EmptyState className="empty" title={t("chat.emptyTitle")}>{t("chat.empty")}</EmptyState>
      ) : (
        <>
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
          {live && (
            <div key={live.key} data-index={settled} className="thread-item thread-live">
              <MessageView message={live} />
            </div>
          )}
        </>
      )}
    </div>
  );
}
