// Text waiting for the next message (a connection's resource chosen in Settings →
// Connections): kept here until the composer takes it into its input, where the person reads,
// changes and sends it. Nothing is sent from here; no commands.

let pending: string[] = [];
const listeners = new Set<() => void>();

/** Adds `text` to what the next message starts with. */
export function attach(text: string): void {
  pending.push(text);
  for (const l of listeners) l();
}

/** What is waiting (paragraphs joined), and forget it; null when nothing is. */
export function takeAttached(): string | null {
  if (pending.length === 0) return null;
  const text = pending.join("\n\n");
  pending = [];
  return text;
}

/** Calls `listener` when something is attached; returns the unsubscribe. */
export function onAttached(listener: () => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
