// The 2026 variants in the page, as a person picks them: Dr. GRPO, GSPO and DAPO from the
// algorithm list and RAGEN-2's top-p filter from the filter switch, each one iteration of the
// Tiny preset on WASM with no error, and the run made with what was picked: its exported file's
// config names the algorithm and the filter (their math is tested by hand in core/rl; the CLI runs
// them in the trainer and golden-rows tests).
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { Config } from '../../src/core/config.js';
import { ALGORITHMS } from '../../src/core/variants/algorithms.js';
import { openTiny } from './helpers.js';

/** The filter an algorithm's switches set (its row in the algorithm table; DAPO: dynamic sampling). */
const expectedFilter = (algorithm: Config['algorithm']) => ALGORITHMS[algorithm].switches.filterMode;

for (const [label, setup] of [
  ['starpo-drgrpo', { algorithm: 'starpo-drgrpo' }],
  ['starpo-gspo', { algorithm: 'starpo-gspo' }],
  ['starpo-dapo', { algorithm: 'starpo-dapo' }],
  ['starpo-s with the top-p filter', { algorithm: 'starpo-s', filterMode: 'top-p' }],
] as const) {
  test(`${label} runs an iteration in the page`, async ({ page }) => {
    await openTiny(page);
    await page.getByTestId('field-algorithm').selectOption(setup.algorithm);
    if ('filterMode' in setup) {
      await page.getByTestId('group-filter').evaluate((d: HTMLDetailsElement) => {
        d.open = true;
      });
      await page.getByTestId('field-filterMode').selectOption(setup.filterMode);
    }
    await expect(page.getByTestId('start-blocked')).toHaveCount(0);
    await page.getByTestId('btn-step').click();
    await expect(page.getByTestId('iteration')).toHaveAttribute('data-iteration', '1', { timeout: 60_000 });
    await expect(page.getByTestId('notice')).toHaveCount(0);
    // The run that trained is the one picked: its file says so.
    await page.getByTestId('tab-runs').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('run-export').first().click();
    const file = JSON.parse(await readFile(await (await download).path(), 'utf8')) as {
      meta: { config: { algorithm: string; filterMode: string } };
    };
    expect(file.meta.config.algorithm).toBe(setup.algorithm);
    expect(file.meta.config.filterMode).toBe(
      'filterMode' in setup ? setup.filterMode : expectedFilter(setup.algorithm),
    );
  });
}
