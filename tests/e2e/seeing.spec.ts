// Seeing the trap in a tab, from a real run of the page as loaded (the echo-trap preset from the
// shipped DoorKey base, WASM, 2 iterations): RAGEN-2's cross-scoring matrix, one cell per
// (reasoning sample, prompt) pair, with its MI and retrieval accuracy; and a click on iteration 1
// of a chart opens the reasoning across inputs there. No mocking: the matrix comes from the
// trainer's own MI computation at iteration 0, the reasoning from the iteration's rollouts.
import { expect, test } from '@playwright/test';

test('the cross-scoring matrix appears when MI is computed, N × N cells with the diagonal marked', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await page.getByTestId('backend-override').selectOption('wasm');
  await page.getByTestId('field-iterations').fill('2');
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
  await expect(matrix.getByTestId('mi-values')).toContainText(`up to log ${n}`);
  await expect(matrix.getByTestId('mi-values')).toContainText(
    'below 0: it fits other prompts better than its own',
  );
  await expect(matrix.getByTestId('mi-values')).toContainText(`N = ${n} distinct prompts`);
  await expect(matrix.getByTestId('mi-values')).toContainText('by chance');
  // Labelled rows and columns, the values in the cells, and the matrix beside the MI chart.
  await expect(matrix.getByTestId('mi-col')).toHaveCount(n);
  await expect(matrix.getByTestId('mi-row')).toHaveCount(n);
  await expect(matrix.getByTestId('mi-cell').first()).toHaveText(/^\d\.\d\d$/);
  const chartBox = await page.getByTestId('chart-mi').boundingBox();
  const matrixBox = await matrix.boundingBox();
  if (!chartBox || !matrixBox) throw new Error('the MI chart or the matrix has no box');
  expect(Math.abs(matrixBox.y - chartBox.y)).toBeLessThan(chartBox.height + 40);

  // Clicking iteration 1 on a chart opens the reasoning across inputs there: one card per group,
  // each with its rollouts' thinking and first actions.
  const groups = Number(await page.getByTestId('field-groups').inputValue());
  const surface = page.getByTestId('chart-success').locator('.recharts-surface');
  const box = await surface.boundingBox();
  if (!box) throw new Error('the success chart has no surface');
  await page.mouse.move(box.x + box.width - 14, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width - 14, box.y + box.height / 2);
  const panel = page.getByTestId('reasoning-panel');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveAttribute('data-iteration', '1');
  await expect(panel.getByTestId('reasoning-group')).toHaveCount(groups);
  await expect(panel.getByTestId('reasoning-metrics')).toContainText('Modal think share');
  await expect(panel.getByTestId('reasoning-group').first().locator('li').first()).toContainText('→');
  await page.getByTestId('reasoning-close').click();
  await expect(panel).toHaveCount(0);
});
