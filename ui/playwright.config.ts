// Browser tests: Debian's Chromium (Playwright's own browser download is not reachable here)
// against the e2e build (dist-e2e: the real UI over the mocked Tauri IPC), served by vite preview.
import { defineConfig } from "@playwright/test";

// E2E_PORT lets two runs share a machine (a helper's and a CI run), each on its own port.
const PORT = Number(process.env.E2E_PORT ?? 4174);

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 30_000,
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}/`,
    viewport: { width: 1100, height: 760 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    },
  },
  webServer: {
    command: `npx vite preview --outDir dist-e2e --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 30_000,
  },
});
