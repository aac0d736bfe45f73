// Vite build of the desktop UI. `--mode e2e` builds the same app with the mocked Tauri
// backend (src/e2e-mock/) for browser tests and the streaming benchmark; production builds
// leave that code out.
import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  base: "./",
  clearScreen: false,
  build: { target: "es2022", sourcemap: false },
  server: { strictPort: true, port: 1420 },
  test: {
    include: ["src/**/*.test.ts", "src/**/*.test.tsx"],
    environment: "node",
  },
});
