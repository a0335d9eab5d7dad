// The fused WebGPU kernels in Chromium's software adapter (SwiftShader, --enable-unsafe-webgpu):
// src/bench/kernelCheck.ts is bundled on the fly and served under the preview origin (a secure
// context, so navigator.gpu exists), then every fused op and its gradient is compared with the
// unfused tfjs path within 1e-4, and the whole policy's log-probs and weight gradients too, the
// fused Adam step against tf.train.adam, and two real policy steps. (The app's own start-up
// shader warm-up and its progress line are checked in shell.spec.ts, with the worker's self-check
// on the same page.)
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRY = `
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { checkKernels } from './src/bench/kernelCheck.ts';
window.runKernelCheck = async () => {
  const ok = await tf.setBackend('webgpu');
  await tf.ready();
  if (!ok || tf.getBackend() !== 'webgpu') return { backend: tf.getBackend(), ok: false, rows: [] };
  return checkKernels();
};
window.kernelCheckReady = true;
`;

interface Report {
  backend: string;
  ok: boolean;
  rows: { name: string; valueDiff: number; gradDiff: number | null; ok: boolean }[];
}

test('fused kernels match the unfused path in Chromium (software WebGPU)', async ({ page }) => {
  test.setTimeout(120_000);
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'ts', sourcefile: 'kernels-entry.ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const js = bundle.outputFiles[0]?.text ?? '';
  await page.route('**/__kernels/index.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><script type="module" src="/__kernels/check.js"></script>',
    }),
  );
  await page.route('**/__kernels/check.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: js }),
  );
  await page.goto('/__kernels/index.html');
  await page.waitForFunction(
    () => (window as unknown as { kernelCheckReady?: boolean }).kernelCheckReady === true,
  );
  const report = (await page.evaluate(() =>
    (window as unknown as { runKernelCheck(): Promise<unknown> }).runKernelCheck(),
  )) as Report;
  expect(report.backend).toBe('webgpu');
  expect(report.rows.length).toBeGreaterThanOrEqual(16);
  const names = report.rows.map((r) => r.name).join('\n');
  for (const what of [
    'gelu',
    'causal attention',
    'global gradient norm',
    'Adam: 3 fused steps',
    'policy steps',
  ])
    expect(names).toContain(what);
  for (const row of report.rows) {
    expect(row.valueDiff, row.name).toBeLessThanOrEqual(1e-4);
    if (row.gradDiff !== null) expect(row.gradDiff, row.name).toBeLessThanOrEqual(1e-4);
  }
  expect(report.rows.filter((r) => r.gradDiff !== null).length).toBeGreaterThanOrEqual(8);
  expect(report.ok).toBe(true);
});
