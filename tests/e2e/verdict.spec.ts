// The end of a run says what the rule decided, as a person sees it: a run of three iterations is
// "too short to judge" (banner and Runs list alike); a run of 25 iterations ends
// with one of the three judged verdicts and its numbers; seeds side by side has its own Stop,
// keeps the main Start waiting while it runs, and marks stopped lanes as stopped.
import { expect, test } from '@playwright/test';
import { openTiny } from './helpers.js';

test('the verdict at the end of a run, in the banner and in the Runs list', async ({ page }) => {
  await openTiny(page, { iterations: '3' });
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 120_000 });
  const banner = page.getByTestId('run-verdict');
  await expect(banner).toHaveAttribute('data-verdict', 'too-short');
  await expect(banner).toContainText('too short to judge');
  await expect(banner).toContainText('reads at least 20 iterations and this run has 3');
  await page.getByTestId('tab-runs').click();
  await expect(page.getByTestId('run-item-verdict').first()).toHaveAttribute('data-verdict', 'too-short');

  // A run long enough to judge: one of the three verdicts, with start, peak and last 10 ± SE.
  await page.getByTestId('field-iterations').fill('25');
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 120_000 });
  const verdict = await banner.getAttribute('data-verdict');
  expect(['trapped', 'collapsed', 'held']).toContain(verdict);
  await expect(banner).toContainText(
    /Start \d\.\d\d ± \d\.\d\d, peak \d\.\d\d ± \d\.\d\d \(iteration \d+\), last 10/,
  );
  // Both runs listed, each with its own verdict.
  const tags = page.getByTestId('run-item-verdict');
  await expect(tags).toHaveCount(2);
  await expect(page.locator(`[data-testid="run-item-verdict"][data-verdict="${verdict}"]`)).toHaveCount(1);
  await expect(page.locator('[data-testid="run-item-verdict"][data-verdict="too-short"]')).toHaveCount(1);
});

test('seeds side by side: its own Stop, the main Start waits, stopped lanes say so', async ({ page }) => {
  await openTiny(page, { iterations: '400' });
  await page.getByTestId('btn-fanout').click();
  await page.getByTestId('fanout-seeds').fill('2');
  await page.getByTestId('fanout-frozen').check();
  // Its cost said before Start (the tiny preset edited has no measured pace).
  await expect(page.getByTestId('fanout-cost')).toContainText('4 run(s),');
  await expect(page.getByTestId('fanout-iterations')).toHaveValue('400');
  await expect(page.getByTestId('fanout-short')).toHaveCount(0);
  await page.getByTestId('fanout-iterations').fill('6');
  await expect(page.getByTestId('fanout-short')).toContainText('too few for the rule to judge');
  await page.getByTestId('fanout-iterations').fill('400');
  await page.getByTestId('fanout-start').click();
  await expect(page.locator('[data-testid="fanout-lane"][data-state="running"]').first()).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByTestId('btn-start')).toBeDisabled();
  await page.getByTestId('fanout-stop').click();
  await expect(page.getByTestId('fanout-stop')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.locator('[data-testid="fanout-lane"][data-state="stopped"]')).toHaveCount(4);
  await page.getByTestId('fanout-close').click();
  await expect(page.getByTestId('btn-start')).toBeEnabled();
});
