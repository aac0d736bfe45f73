// The e2e build served by `vite preview` for the benchmarks, and a browser to load it.
// Owns the server's life: it runs in its own process group (npx starts vite as a child, so
// killing npx alone would leave vite holding the port and hang the next run), and a server
// that cannot start (the port taken) fails the run instead of waiting forever.
import { spawn } from "node:child_process";
import { chromium } from "@playwright/test";

export async function startPreview(port) {
  const server = spawn(
    "npx",
    ["vite", "preview", "--outDir", "dist-e2e", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    { stdio: ["ignore", "pipe", "inherit"], detached: true },
  );
  await new Promise((resolve, reject) => {
    server.stdout.on("data", (d) => String(d).includes(String(port)) && resolve());
    server.on("exit", (code) => reject(new Error(`vite preview on port ${port} exited (${code}): is the port taken?`)));
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const stop = async () => {
    await browser.close();
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  };
  return { browser, stop };
}
