// Browser tests in Debian's Chromium (Playwright cannot download browsers here). The flags give
// a software WebGPU adapter (SwiftShader) in pages and workers: correct, slow — never timed.
import { defineConfig } from '@playwright/test';

const executablePath = process.env.STARPO_CHROMIUM ?? '/usr/bin/chromium';
const port = Number(process.env.STARPO_E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  // Two workers on two cores: a spec's training runs in one single-threaded WASM worker, so two
  // specs side by side use the machine; tests inside a file keep their order (one file, one
  // worker) except where a file opts in (presets.spec.ts's shards).
  fullyParallel: false,
  workers: Number(process.env.STARPO_E2E_WORKERS ?? 2),
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--enable-unsafe-webgpu',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  webServer: {
    command: `npx vite build --logLevel warn && npx vite preview --port ${port} --strictPort`,
    url: `http://localhost:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 240_000,
  },
});
