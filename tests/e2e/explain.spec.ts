// Explanations: a chart title's "?" explains each metric the chart draws (with its formula),
// a setup field's "?" explains the setting; the popover closes on Escape and on Close.
import { expect, test } from '@playwright/test';

test('chart and field explanations open from their "?" and close', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('explain-chart-reward-std').click();
  const pop = page.getByTestId('explain-popover');
  await expect(pop).toBeVisible();
  await expect(pop.getByTestId('explain-item')).toHaveCount(1);
  await expect(pop.getByTestId('explain-what')).toContainText('same start state');
  await expect(pop.getByTestId('explain-why')).toContainText('advantages vanish');
  await expect(pop.getByTestId('explain-formula')).toContainText('std');
  await page.keyboard.press('Escape');
  await expect(pop).toHaveCount(0);

  // The success chart draws three metrics: three explanations.
  await page.getByTestId('explain-chart-success').click();
  await expect(page.getByTestId('explain-item')).toHaveCount(3);
  await page.getByTestId('explain-close').click();

  // A field in a collapsed group: open the group, then its "?".
  await page.locator('summary', { hasText: 'Optimizer' }).click();
  await page.getByTestId('explain-field-lr').click();
  await expect(page.getByTestId('explain-popover')).toContainText('Learning rate (lr)');
  await expect(page.getByTestId('explain-why')).toContainText('echo trap');
  await page.getByTestId('explain-close').click();
  await expect(page.getByTestId('explain-popover')).toHaveCount(0);
  // The field's "?" sits in its label and does not change the value.
  // The page opens on the echo-trap preset: its learning rate.
  await expect(page.getByTestId('field-lr')).toHaveValue('0.0006');
});

test('Escape closes the dialog on top, and only it', async ({ page }) => {
  await page.goto('/');
  for (const [open, dialog] of [
    ['btn-sweeps', 'sweeps-dialog'],
    ['btn-fanout', 'fanout-panel'],
  ]) {
    await page.getByTestId(open as string).click();
    await expect(page.getByTestId(dialog as string)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(dialog as string)).toHaveCount(0);
  }
});
