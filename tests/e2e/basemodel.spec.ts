// The shipped base models (public/models, no mocking): each env with one offers it by default,
// with its episode settings in the fields marked as the base model's; an edit it cannot run is
// refused at the field; envs without one say plainly that they start untrained, and do.
import { expect, test } from '@playwright/test';
import { points } from './helpers.js';

test('each env offers its shipped base model and its settings; envs without one start untrained', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await expect(page.getByTestId('field-base')).toHaveValue('model:minigrid-doorkey-5x5-nano');
  await expect(page.getByTestId('base-help')).toContainText('contextLength 256');
  await page.getByTestId('field-contextLength').fill('512');
  await expect(page.getByTestId('field-error-contextLength')).toContainText(
    'must be at most 256: the base model minigrid-doorkey-5x5-nano reads 256 tokens',
  );
  await expect(page.getByTestId('btn-start')).toBeDisabled();

  await page.getByTestId('field-env').selectOption('frozenlake/FrozenLake-4x4');
  await expect(page.getByTestId('field-base')).toHaveValue('model:frozenlake-frozenlake-4x4-nano');
  await expect(page.getByTestId('field-maxTurns')).toHaveValue('5');
  await expect(page.getByTestId('source-maxTurns')).toHaveText('base model');
  // The new env's base reads 256 tokens too: its own setting replaced the refused edit.
  await expect(page.getByTestId('field-contextLength')).toHaveValue('256');
  await expect(page.getByTestId('field-error-contextLength')).toHaveCount(0);

  await page.getByTestId('preset-tiny').click();
  await expect(page.getByTestId('field-base')).toHaveValue('');
  await expect(page.getByTestId('untrained-base')).toContainText('no base model exists for this environment');
  await page.getByTestId('backend-override').selectOption('wasm');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 120_000 }).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('run-base')).toHaveAttribute('data-untrained', 'true');
  await page.getByTestId('btn-reset').click();
  await expect(page.getByTestId('iteration')).toHaveAttribute('data-iteration', '0');
});
