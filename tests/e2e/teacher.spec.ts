// What a teacher in front of a class trips over, pressed as they would: a reload or a shared link
// of the loaded preset stays that preset (not "edited"); the preset says why each value is what it
// is and checkpoints, so a reload mid-run can resume the default run from its last checkpoint; a
// link with a bad field says the rest was applied; a hash edited in the open tab keeps the setup's
// other fields.
import { expect, test } from '@playwright/test';
import { iteration, openTiny, runTinyToStop } from './helpers.js';

test('a reload and a shared link keep the preset unedited, with its reasons in view', async ({
  page,
  context,
}) => {
  await page.goto('/');
  const preset = page.getByTestId('preset-echo-trap');
  await expect(preset).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  await expect(page.getByTestId('field-checkpointEvery')).toHaveValue('10');
  await expect(page.getByTestId('reason-checkpointEvery')).toContainText('resumes the run exactly');
  await expect(page.getByTestId('reason-lr')).toContainText('Why this value');
  await page.reload();
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  await expect(preset).toHaveAttribute('aria-pressed', 'true');
  await expect(preset).not.toContainText('(edited)');
  const other = await context.newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  await expect(other.getByTestId('preset-echo-trap')).toHaveAttribute('aria-pressed', 'true');
  await other.close();
});

test('a bad link says the rest was applied; a hash edited in the open tab keeps the other fields', async ({
  page,
}) => {
  await page.goto('/#seed=7&lr=banana');
  await expect(page.getByTestId('hash-error')).toContainText(
    "Some of the link's settings were not applied (the rest were)",
  );
  await expect(page.getByTestId('field-seed')).toHaveValue('7');
  await page.getByTestId('field-groups').fill('6');
  await page.evaluate(() => {
    window.location.hash = '#seed=99';
  });
  await expect(page.getByTestId('field-seed')).toHaveValue('99');
  await expect(page.getByTestId('field-groups')).toHaveValue('6');
});

test('the default run, reloaded mid-run, resumes from its checkpoint at iteration 10', async ({ page }) => {
  test.setTimeout(240_000);
  await page.goto('/');
  await page.getByTestId('backend-override').selectOption('wasm');
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('btn-start').click();
  await expect.poll(() => iteration(page), { timeout: 180_000 }).toBeGreaterThanOrEqual(11);
  await page.waitForTimeout(1500);
  await page.reload();
  const banner = page.getByTestId('interrupted-banner');
  await expect(banner).toBeVisible({ timeout: 30_000 });
  const checkpoint = Number(await banner.getAttribute('data-checkpoint'));
  expect(checkpoint % 10).toBe(0);
  expect(checkpoint).toBeGreaterThanOrEqual(10);
  await expect(banner).toHaveAttribute('data-exact', 'true');
  await expect(page.getByTestId('interrupted-resume')).toBeEnabled({ timeout: 60_000 });
});

test('the keyboard: a dialog takes focus and keeps it, Escape ends the tour, Enter on a chart opens the reasoning', async ({
  page,
}) => {
  await openTiny(page);
  // A dialog opens with the focus inside it, Tab stays inside, and Escape gives it back.
  const opener = page.getByTestId('btn-fanout');
  await opener.click();
  const dialog = page.getByTestId('fanout-panel');
  await expect(dialog).toBeVisible();
  const inDialog = () =>
    page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="fanout-panel"]')));
  expect(await inDialog()).toBe(true);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    expect(await inDialog()).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(opener).toBeFocused();
  // Escape ends the tour.
  await page.getByTestId('btn-tour').click();
  await expect(page.getByTestId('tour-card')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tour-card')).toHaveCount(0);
  // Enter on a focused chart opens the reasoning panel at an iteration.
  await runTinyToStop(page, 2);
  await page.getByTestId('chart-body-success').focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('reasoning-panel')).toBeVisible();
});

test('the algorithm reads by name, and its help describes the one chosen', async ({ page }) => {
  await page.goto('/');
  const select = page.getByTestId('field-algorithm');
  await expect(select.locator('option[value="starpo-drgrpo"]')).toHaveText('Dr. GRPO');
  await page.getByTestId('explain-field-algorithm').click();
  // The page opens on the echo-trap preset: vanilla StarPO with GRPO's advantages.
  await expect(page.getByTestId('explain-choice')).toContainText('StarPO (GRPO)');
  await expect(page.getByTestId('explain-what').first()).toContainText('GSPO');
  await page.keyboard.press('Escape');
  await select.selectOption('starpo-drgrpo');
  await page.getByTestId('explain-field-algorithm').click();
  await expect(page.getByTestId('explain-choice')).toContainText('Dr. GRPO');
});

test('at 390 px wide: no sideways scroll, the charts first, the transport in reach, names cut with an ellipsis', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openTiny(page);
  await runTinyToStop(page, 2);
  await page.getByTestId('tab-runs').click();
  await expect(page.getByTestId('run-item')).toHaveCount(1);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  // Compare may sit below the fold, never past the right edge.
  const compare = await page.getByTestId('run-compare').first().boundingBox();
  if (!compare) throw new Error('no Compare box');
  expect(compare.x + compare.width).toBeLessThanOrEqual(390);
  const name = page.getByTestId('run-name').first();
  await expect(name).toHaveAttribute('title', /.+/);
  await expect(name).toHaveCSS('text-overflow', 'ellipsis');
  const charts = await page.getByTestId('charts-area').boundingBox();
  const setup = await page.getByTestId('setup-panel').boundingBox();
  if (!charts || !setup) throw new Error('no charts or setup box');
  expect(charts.y).toBeLessThan(setup.y);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(page.getByTestId('btn-start')).toBeInViewport();
});

test('the reasoning panel samples the base model on demand where the run sampled none', async ({ page }) => {
  // The tiny preset computes no MI, so no iteration carries the base model's reasoning.
  await openTiny(page);
  await runTinyToStop(page, 2);
  await page.getByTestId('chart-body-success').focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('reasoning-panel');
  await expect(panel).toBeVisible();
  await expect(panel.getByText('the frozen base model, same start state')).toHaveCount(0);
  await panel.getByTestId('reasoning-sample-base').click();
  const groups = Number(await page.getByTestId('field-groups').inputValue());
  await expect(panel.getByText('the frozen base model, same start state')).toHaveCount(groups, {
    timeout: 60_000,
  });
  await expect(panel.getByTestId('reasoning-base-note')).toHaveCount(0);
});
