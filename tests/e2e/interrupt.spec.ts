// A run survives its tab: a tiny run checkpointing every 2 iterations is cut off by a reload; the
// page says on load which run was interrupted at which iteration, and Resume continues it from its
// last checkpoint to the planned end, its stored rows complete (0 … 59, none twice), exactly as
// the uninterrupted run would have gone on (the checkpoint holds Adam's moments and the streams).
import { expect, test } from '@playwright/test';
import { iteration, openTiny } from './helpers.js';

test('a run cut off by a reload is named on load and resumes from its checkpoint to the end', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openTiny(page, { iterations: '60', checkpointEvery: '2' });
  await page.getByTestId('btn-start').click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
  // Let IndexedDB take the batches and checkpoints already sent (a tab closed mid-write keeps
  // what was written before; the point here is the resume), then cut the run off.
  await page.waitForTimeout(2500);
  await page.reload();
  const banner = page.getByTestId('interrupted-banner');
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText('was interrupted at iteration');
  // Its checkpoint carries the trainer's state, so the resume is exact (rows: runControllerFaults.test).
  await expect(banner).toHaveAttribute('data-exact', 'true');
  await expect(banner).toContainText('goes on exactly as it would have');
  const at = Number(await banner.getAttribute('data-iteration'));
  const checkpoint = Number(await banner.getAttribute('data-checkpoint'));
  // What was stored before the reload: some iterations, and a checkpoint at or before them.
  expect(at).toBeGreaterThanOrEqual(2);
  expect(checkpoint).toBeGreaterThanOrEqual(2);
  expect(checkpoint).toBeLessThanOrEqual(at);
  await expect(page.getByTestId('interrupted-resume')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('interrupted-resume').click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 120_000 });
  expect(await iteration(page)).toBe(60);
  await expect(page.getByTestId('rows-count')).toHaveAttribute('data-rows', '60');
  // Stored: the Runs tab shows one run, finished, not a second copy.
  await page.getByTestId('tab-runs').click();
  await expect(page.getByTestId('run-item')).toHaveCount(1);
});
