// A run's id, minted by the UI before it sends a message (issue 29 §3), so Stop works from the
// first moment, before any event names the run. A UUID v7 (RFC 9562): 48 bits of Unix
// milliseconds, then random bits, so ids sort by the time the run was asked for, like the ids
// the core mints itself. Randomness from `crypto.getRandomValues`, available in every context
// the app runs in (the Tauri webview, a browser).

export function mintRunId(now: number = Date.now()): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let ms = Math.floor(now);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f); // version 7
  bytes[8] = 0x80 | (bytes[8]! & 0x3f); // variant 10
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
