// Makes the README's picture (docs/screenshot.png) from a real browser run: builds the app,
// serves it with `vite preview`, opens it in Debian's Chromium (Playwright, headless), presses
// the echo-trap preset, sets Backend to wasm, presses Start and waits until the run has
// `--iters` iterations (default: the preset's) or has finished, then shows the trajectory
// viewer on the latest sample and takes a screenshot of the page as a person sees it — the success
// curve with the detector's markers, the banner, and the viewer. Nothing is mocked: the shipped
// base model from public/models trains in the page. It prints how long the first iteration took
// after Start, the backend, the markers and the final success, for the README's caption.
// Run: npx tsx scripts/screenshot.ts [--iters 30] [--out docs/screenshot.png] [--port 4391]
//   [--width 1400] [--height 900] [--timeout-min 40] [--dist dist] [--no-build]
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chromium, type Page } from '@playwright/test';
import { flagStrings } from '../src/cli/flags.js';

const args = flagStrings(process.argv.slice(2), [
  { name: 'out', kind: 'string', help: 'the picture (default docs/screenshot.png)' },
  { name: 'port', kind: 'int', help: 'preview port (default 4391)' },
  { name: 'width', kind: 'int', help: 'viewport width (default 1400)' },
  { name: 'height', kind: 'int', help: 'viewport height (default 900)' },
  { name: 'timeout-min', kind: 'number', help: 'minutes before giving up (default 40)' },
  { name: 'dist', kind: 'string', help: 'the built app (default dist)' },
  { name: 'no-build', kind: 'bool', help: 'use the existing build' },
  { name: 'iters', kind: 'int', help: 'iterations to run (default: the form’s)' },
]);
const out = args.get('out') ?? 'docs/screenshot.png';
const port = Number(args.get('port') ?? 4391);
const width = Number(args.get('width') ?? 1400);
const height = Number(args.get('height') ?? 900);
const timeoutMs = Number(args.get('timeout-min') ?? 40) * 60_000;
const chromiumPath = process.env.STARPO_CHROMIUM ?? '/usr/bin/chromium';
/** Where the app is built and served from (a private folder keeps other builds out of the way). */
const dist = args.get('dist') ?? 'dist';

async function waitForServer(url: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s`);
}

/** The README's legend of the screenshot: number → region (by test id). */
const ANNOTATIONS: [number, string][] = [
  [1, 'setup-panel'],
  [2, 'transport-bar'],
  [3, 'charts-area'],
  [4, 'trajectory-viewer'],
  [5, 'btn-fanout'],
];

const num = async (page: Page, testId: string, attr: string) =>
  Number(await page.getByTestId(testId).getAttribute(attr));

/** Builds the app into `dist` (unless --no-build). */
function buildApp(): void {
  if (args.get('no-build') === 'true') return;
  const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('vite build failed');
}

/** Serves `dist` with `vite preview` in its own process group; returns what stops it. */
function startPreview(): () => void {
  const server: ChildProcess = spawn(
    'npx',
    ['vite', 'preview', '--outDir', dist, '--port', String(port), '--strictPort'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  return () => {
    try {
      if (server.pid) process.kill(-server.pid, 'SIGTERM');
    } catch {
      server.kill('SIGTERM'); // the group is gone already: the child alone, if it is still there
    }
  };
}

/** What starting the run measured: the iterations it should reach and when Start was pressed. */
interface Started {
  planned: number;
  t0: number;
  firstIterationS: number;
}

/** Presses the echo-trap preset, sets Backend to wasm, presses Start and waits for the first row. */
async function startEchoTrapRun(page: Page): Promise<Started> {
  await page.getByTestId('preset-echo-trap').click();
  await page.getByTestId('backend-override').selectOption('wasm');
  const planned =
    Number(args.get('iters') ?? 0) || Number(await page.getByTestId('field-iterations').inputValue()) || 30;
  const start = page.getByTestId('btn-start');
  await start.waitFor({ state: 'visible' });
  if (!(await start.isEnabled())) throw new Error('Start is disabled on the echo-trap preset');
  const t0 = Date.now();
  await start.click();
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid="rows-count"]')?.getAttribute('data-rows')) >= 1,
    null,
    { timeout: timeoutMs, polling: 500 },
  );
  const firstIterationS = (Date.now() - t0) / 1000;
  console.log(`first iteration after Start: ${firstIterationS.toFixed(1)} s`);
  return { planned, t0, firstIterationS };
}

/** Waits until `planned` iterations are in or the run ends (a failure ends it too); its rows and backend. */
async function waitForRun(page: Page, planned: number): Promise<{ rows: number; backend: string | null }> {
  await page.waitForFunction(
    (n) => {
      const rows = Number(document.querySelector('[data-testid="rows-count"]')?.getAttribute('data-rows'));
      const phase = document.querySelector('[data-testid="phase"]')?.getAttribute('data-phase');
      return rows >= n || phase === 'finished' || phase === 'failed' || phase === 'paused';
    },
    planned,
    { timeout: timeoutMs, polling: 1000 },
  );
  const rows = await num(page, 'rows-count', 'data-rows');
  const backend = await page.getByTestId('backend-status').getAttribute('data-backend');
  const notice = page.getByTestId('notice');
  if ((await notice.count()) > 0 && (await notice.getAttribute('data-kind')) === 'error')
    throw new Error(`the run failed: ${await notice.textContent()}`);
  if (rows < planned) {
    const phase = await page.getByTestId('phase').getAttribute('data-phase');
    console.log(`the run stopped at ${rows} iterations (phase ${phase})`);
  }
  return { rows, backend };
}

/** Shows the trajectory tab on the latest sample, the success chart in view, with the legend's numbered marks. */
async function annotate(page: Page): Promise<void> {
  await page.getByTestId('tab-trajectory').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1000);
  // Numbered marks on the regions the README's legend names (added to the page, then shot).
  await page.evaluate((marks) => {
    for (const [n, id] of marks) {
      const el = document.querySelector(`[data-testid="${id}"]`);
      if (!el) continue;
      const r = el.getBoundingClientRect();
      const badge = document.createElement('div');
      badge.textContent = String(n);
      badge.setAttribute(
        'style',
        `position:absolute;left:${r.left + window.scrollX + 6}px;top:${r.top + window.scrollY + 6}px;` +
          'width:26px;height:26px;border-radius:13px;background:#d1495b;color:#fff;font:bold 15px sans-serif;' +
          'display:flex;align-items:center;justify-content:center;z-index:9999;box-shadow:0 1px 3px #0006',
      );
      document.body.appendChild(badge);
    }
  }, ANNOTATIONS);
}

/** Prints what the README's caption needs: backend, iterations, timings, the success legend and the banner. */
async function printCaption(
  page: Page,
  run: Started & { rows: number; backend: string | null },
): Promise<void> {
  const legend = await page.getByTestId('chart-success').locator('.chart-legend').textContent();
  const banner = page.getByTestId('echo-banner');
  const bannerText = (await banner.count()) > 0 ? await banner.textContent() : '(no echo-trap banner)';
  const totalS = (Date.now() - run.t0) / 1000;
  console.log(
    JSON.stringify(
      {
        out,
        backend: run.backend,
        iterations: run.rows,
        firstIterationS: Number(run.firstIterationS.toFixed(1)),
        totalS: Math.round(totalS),
        successLegend: (legend ?? '').replace(/\s+/g, ' ').trim(),
        banner: (bannerText ?? '').replace(/\s+/g, ' ').trim(),
      },
      null,
      1,
    ),
  );
}

async function main(): Promise<void> {
  buildApp();
  const stopServer = startPreview();
  try {
    const base = `http://localhost:${port}/`;
    await waitForServer(base, 60_000);
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(base);
    const started = await startEchoTrapRun(page);
    const run = await waitForRun(page, started.planned);
    await annotate(page);
    await page.screenshot({ path: out });
    await printCaption(page, { ...started, ...run });
    await browser.close();
  } finally {
    stopServer();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
