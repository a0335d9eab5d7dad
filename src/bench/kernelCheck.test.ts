// The fused WebGPU kernels against the unfused tfjs path in Node, on Dawn with the SwiftShader
// Vulkan driver (a child process: Dawn needs the driver's loader on LD_LIBRARY_PATH at start).
// Skips, saying why, where no SwiftShader ICD is installed; the same check runs in Chromium in
// tests/e2e/kernels.spec.ts.
import { describe, expect, it } from 'vitest';
import type { KernelCheckReport } from './checkRows.js';
import { runGpuChild, swiftshaderIcd } from './nodeGpu.js';

const icd = swiftshaderIcd();
// A skip says why, in the output and in the suite's name (the reporters list it with the count).
const skipped = icd ? '' : ' — skipped: no SwiftShader Vulkan ICD (set STARPO_VK_ICD)';
if (skipped) console.log(`kernelCheck.test: fused WebGPU kernels${skipped}`);

describe.skipIf(!icd)(`fused WebGPU kernels (Node, software adapter)${skipped}`, () => {
  it('match the unfused path within 1e-4, values and gradients', async () => {
    const report = (await runGpuChild(['kernels'], icd as string, () => {}, 110_000)) as KernelCheckReport;
    expect(report.backend).toBe('webgpu');
    expect(report.tolerance).toBe(1e-4);
    const names = report.rows.map((r) => r.name).join('\n');
    for (const what of [
      'layerNorm',
      'logSoftmax+gather+entropy',
      'decodeAttention',
      'all weight gradients',
      'decode step',
      'gelu',
      'causal attention',
      'global gradient norm',
      'Adam: 3 fused steps',
      'hand-over fused → unfused',
      'hand-over unfused → fused',
      'policy steps of update.ts',
    ])
      expect(names).toContain(what);
    for (const row of report.rows) {
      expect(row.valueDiff, row.name).toBeLessThanOrEqual(1e-4);
      if (row.gradDiff !== null) expect(row.gradDiff, row.name).toBeLessThanOrEqual(1e-4);
    }
    // The gradient checks really ran: every op with a backward pass reports a gradient difference.
    expect(report.rows.filter((r) => r.gradDiff !== null).length).toBeGreaterThanOrEqual(8);
    expect(report.ok).toBe(true);
  }, 120_000);
});
