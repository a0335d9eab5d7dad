// Shared steps of the playground specs: a tiny run on the WASM backend (fast in headless
// Chromium; WebGPU there is SwiftShader: correct but slow) and reading chart point counts.
import { expect, type Page } from '@playwright/test';

/** Loads the page with the tiny preset on WASM, ready to start. */
export async function openTiny(page: Page, extra: Record<string, string> = {}): Promise<void> {
  await page.goto('/');
  await page.getByTestId('preset-tiny').click();
  await page.getByTestId('backend-override').selectOption('wasm');
  for (const [field, value] of Object.entries(extra)) {
    const el = page.getByTestId(`field-${field}`);
    if ((await el.evaluate((e) => e.tagName)) === 'SELECT') await el.selectOption(value);
    else await el.fill(value);
  }
  await expect(page.getByTestId('btn-start')).toBeEnabled();
}

/** Points the current run has on the success chart. */
export async function points(page: Page): Promise<number> {
  return Number(await page.getByTestId('chart-success').getAttribute('data-points'));
}

/** The iteration counter's value. */
export async function iteration(page: Page): Promise<number> {
  return Number(await page.getByTestId('iteration').getAttribute('data-iteration'));
}

/** Starts a tiny run, waits for `minPoints` iterations and stops it; returns its point count. */
export async function runTinyToStop(page: Page, minPoints = 2): Promise<number> {
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(minPoints);
  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 30_000 });
  return points(page);
}
