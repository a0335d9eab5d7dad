// WASM threads on against off, in Chromium (issue 22): Node has no threaded tfjs-wasm, so this
// part of the bench builds src/bench/browser/ with Vite (module workers, as the app), serves it
// cross-origin isolated (COOP/COEP), and opens it in Debian's Chromium through Playwright,
// alternating threads off and on (off, on, off, on…: the same load for both sides). Each page
// reports the nano training step, scoring and decoding, and the numbers of three trainer
// iterations and five policy steps from fixed seeds; here the speed-up is the ratio of the
// medians, and the numbers of the two builds are compared (XNNPACK splits a product across
// threads, which may change the order of float sums: the differences are measured, not assumed).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import type { PreviewServer } from 'vite';
import type { ThreadsReport } from './browser/threads.worker.js';

/** Medians of one side (threads off or on) over the rounds. */
export interface Side {
  stepMs: number;
  scoreMs: number;
  decodeTokensPerSec: number;
  /** The 2-D matMul rate (GFLOP/s) in the same worker. */
  matmulGflops: number;
}

export interface WasmThreadsSection {
  /** Where it ran, e.g. "Chromium 156 (headless), 2 logical cores". */
  browser: string;
  rounds: number;
  threadCount: number;
  /** The reason when the threaded build did not run ('' when it did). */
  reason: string;
  off: Side;
  on: Side;
  /** off / on for times, on / off for tokens/s: > 1 means threads are faster. */
  speedup: { matmul: number; trainingStep: number; scoring: number; decoding: number };
  /** Largest |on − off| over the trainer iterations' metrics and the policy steps' losses. */
  maxAbsDiff: { trainerMetrics: number; stepLosses: number };
  /** The metric with the largest difference (trainer iterations). */
  worstMetric: string;
  iterations: number;
}

const root = fileURLToPath(new URL('./browser/', import.meta.url));
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] as number);
};
const r2 = (x: number) => Math.round(100 * x) / 100;

/** Largest |a − b| over the keys both rows have, per row pair; and the key where it is. */
function maxDiff(a: Record<string, number>[], b: Record<string, number>[]): { diff: number; key: string } {
  let diff = 0;
  let key = '';
  a.forEach((row, i) => {
    const other = b[i] ?? {};
    for (const [k, v] of Object.entries(row)) {
      const w = other[k];
      if (w === undefined || !Number.isFinite(v) || !Number.isFinite(w)) continue;
      if (Math.abs(v - w) > diff) {
        diff = Math.abs(v - w);
        key = `${k} (iteration ${i + 1})`;
      }
    }
  });
  return { diff, key };
}

/** Builds src/bench/browser/ into `outDir` and serves it cross-origin isolated; the caller closes it. */
async function serveThreadsPage(vite: typeof import('vite'), outDir: string): Promise<PreviewServer> {
  await vite.build({
    configFile: false,
    root,
    logLevel: 'warn',
    worker: { format: 'es' },
    assetsInclude: ['**/*.wasm'],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      chunkSizeWarningLimit: 8192,
      rollupOptions: { input: join(root, 'threads.html') },
    },
  });
  return vite.preview({
    configFile: false,
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { port: 0, headers: isolation },
  });
}

/** `rounds` × (off, on), a fresh page each, at the served page `base`: each side's reports in order. */
async function measureRounds(
  browser: Browser,
  base: string,
  rounds: number,
  log: (line: string) => void,
): Promise<Record<'on' | 'off', ThreadsReport[]>> {
  const runs: Record<'on' | 'off', ThreadsReport[]> = { on: [], off: [] };
  for (let i = 0; i < rounds; i++) {
    for (const side of ['off', 'on'] as const) {
      const page = await browser.newPage();
      try {
        await page.goto(`${base}threads.html?threads=${side}`);
        const report = (await page.evaluate(
          () => (window as unknown as { threadsReport: Promise<unknown> }).threadsReport,
        )) as ThreadsReport | { error: string };
        if ('error' in report) throw new Error(`threads ${side}: ${report.error}`);
        log(`bench: wasm threads ${side} (${report.threadCount}): step ${report.stepMs.toFixed(0)} ms`);
        runs[side].push(report);
      } finally {
        await page.close();
      }
    }
  }
  return runs;
}

/**
 * The section from each side's reports: the medians, the speed-ups, and how far the first round's
 * numbers differ between the builds. `version` and `cores`: the browser's, for the line saying
 * where it ran.
 */
export function threadsSection(
  runs: Record<'on' | 'off', readonly ThreadsReport[]>,
  rounds: number,
  version: string,
  cores: number,
): WasmThreadsSection {
  const pick = (side: 'on' | 'off'): Side => ({
    matmulGflops: median(runs[side].map((r) => r.matmul.gflops)),
    stepMs: median(runs[side].map((r) => r.stepMs)),
    scoreMs: median(runs[side].map((r) => r.scoreMs)),
    decodeTokensPerSec: median(runs[side].map((r) => r.decodeTokensPerSec)),
  });
  const on = pick('on');
  const off = pick('off');
  const first = { on: runs.on[0] as ThreadsReport, off: runs.off[0] as ThreadsReport };
  const metrics = maxDiff(first.on.trainerRows, first.off.trainerRows);
  const losses = first.on.stepLosses.reduce(
    (m, v, i) => Math.max(m, Math.abs(v - (first.off.stepLosses[i] ?? v))),
    0,
  );
  return {
    browser: `${version} (headless), ${first.on.threadCount} of ${cores} logical cores`,
    rounds,
    threadCount: first.on.threadCount,
    reason: first.on.reason,
    off,
    on,
    speedup: {
      matmul: off.matmulGflops > 0 ? r2(on.matmulGflops / off.matmulGflops) : 0,
      trainingStep: on.stepMs > 0 ? r2(off.stepMs / on.stepMs) : 0,
      scoring: on.scoreMs > 0 ? r2(off.scoreMs / on.scoreMs) : 0,
      decoding: off.decodeTokensPerSec > 0 ? r2(on.decodeTokensPerSec / off.decodeTokensPerSec) : 0,
    },
    maxAbsDiff: { trainerMetrics: metrics.diff, stepLosses: losses },
    worstMetric: metrics.key,
    iterations: first.on.trainerRows.length,
  };
}

/**
 * Builds the page, serves it, and runs `rounds` × (off, on) in Chromium. Throws with the reason
 * when Chromium or the build is unavailable (the caller records it).
 */
export async function benchWasmThreads(
  rounds = 2,
  log: (line: string) => void = () => {},
): Promise<WasmThreadsSection> {
  const executablePath = process.env.STARPO_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath} (set STARPO_CHROMIUM)`);
  const vite = await import('vite');
  const { chromium } = await import('@playwright/test');
  const outDir = mkdtempSync(join(tmpdir(), 'starpo-threads-'));
  log('bench: wasm threads — building the page');
  const server = await serveThreadsPage(vite, outDir);
  const browser = await chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const base = server.resolvedUrls?.local[0];
    if (!base) throw new Error('the preview server has no URL');
    const runs = await measureRounds(browser, base, rounds, log);
    return threadsSection(runs, rounds, browser.version(), await hardwareConcurrency(browser));
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
    rmSync(outDir, { recursive: true, force: true });
  }
}

async function hardwareConcurrency(browser: {
  newPage(): Promise<{ evaluate<T>(f: () => T): Promise<T>; close(): Promise<void> }>;
}): Promise<number> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => navigator.hardwareConcurrency);
  } finally {
    await page.close();
  }
}
