// A run whose update step is larger than the WASM heap holds (Sokoban 6×6 at the default
// minibatch: 32 trajectories × 5 one-turn windows = 160 rows of 256 tokens, about 6 GiB at once)
// is admitted and runs: its gradient is taken in micro-batches of the rows that fit. The old
// estimate admitted it too, and the worker then died with "memory access out of bounds".
import { expect, test } from '@playwright/test';
import { iteration, openTiny } from './helpers.js';

test('a Sokoban iteration with a 160-row update runs in the page, in micro-batches', async ({ page }) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await openTiny(page, {
    env: 'sokoban/Sokoban-6x6',
    algorithm: 'starpo-ppo',
    groups: '2',
    groupSize: '16',
    maxTurns: '5',
    maxTokensPerTurn: '40',
    contextLength: '256',
    historyTurns: '1',
    iterations: '1',
  });
  // The default minibatch (the tiny preset sets 4): 32 trajectories, all 5 windows each.
  await page.locator('summary', { hasText: 'Optimizer' }).click();
  await page.getByTestId('field-minibatch').fill('32');
  await expect(page.locator('[role=alert]')).toHaveCount(0);
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 280_000 });
  expect(await iteration(page)).toBe(1);
  await expect(page.getByTestId('notice')).toHaveCount(0);
  expect(errors).toEqual([]);
});
