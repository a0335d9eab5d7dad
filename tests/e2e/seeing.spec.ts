// Seeing the trap in a tab: the cross-scoring matrix of RAGEN-2 is drawn from a real run of the
// page as loaded (the echo-trap preset from the shipped DoorKey base, WASM), one cell per
// (reasoning sample, prompt) pair, with its MI and retrieval accuracy; hovering a cell names the
// texts. No mocking: the matrix comes from the trainer's own MI computation at iteration 0.
import { expect, test } from '@playwright/test';

test('the cross-scoring matrix appears when MI is computed, N × N cells with the diagonal marked', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await page.getByTestId('backend-override').selectOption('wasm');
  await page.getByTestId('field-iterations').fill('1');
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 240_000 });
  const matrix = page.getByTestId('mi-matrix');
  await expect(matrix).toBeVisible();
  await expect(matrix).toHaveAttribute('data-iteration', '0');
  const n = Number(await matrix.getAttribute('data-n'));
  expect(n).toBeGreaterThanOrEqual(2);
  await expect(matrix.getByTestId('mi-cell')).toHaveCount(n * n);
  await expect(matrix.locator('[data-testid="mi-cell"][data-diagonal="true"]')).toHaveCount(n);
  await expect(matrix.getByTestId('mi-values')).toContainText(`at most log ${n}`);
  await expect(matrix.getByTestId('mi-values')).toContainText('by chance');
});
