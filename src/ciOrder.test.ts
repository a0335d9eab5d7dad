// The test command installs Chromium before the unit tests, so on a fresh machine (CI) its
// SwiftShader Vulkan ICD is present when bench/kernelCheck.test.ts looks for it, and the fused
// WebGPU kernel check runs instead of skipping; and the kernel check finds the ICD Chromium ships.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { swiftshaderIcd } from './bench/nodeGpu.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('npm test on a fresh machine', () => {
  it('installs Chromium before the unit tests', () => {
    const steps = pkg.scripts.test?.split('&&').map((s) => s.trim()) ?? [];
    const chromium = steps.findIndex((s) => s.includes('ensure-chromium'));
    const unit = steps.indexOf('npm run test:unit');
    expect(chromium).toBeGreaterThanOrEqual(0);
    expect(unit).toBeGreaterThan(chromium);
  });

  const chromium = existsSync('/usr/bin/chromium');
  const skipped = chromium ? '' : ' — skipped: no /usr/bin/chromium on this machine';
  if (skipped) console.log(`ciOrder.test: Chromium's Vulkan ICD${skipped}`);
  it.skipIf(!chromium)(`finds the Vulkan ICD that comes with Chromium${skipped}`, () => {
    expect(swiftshaderIcd()).toBeTruthy();
  });
});
