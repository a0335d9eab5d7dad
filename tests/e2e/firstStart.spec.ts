// The first thing every user does (issue 17): open the built app and press Start without
// touching anything. The page as loaded is the echo-trap experiment on the shipped DoorKey base
// model (no route mocking); it must train — iterations count up, training success is above 0 —
// on the backend auto chose, which here (a software WebGPU adapter only) must be WASM.
import { expect, test } from '@playwright/test';
import { iteration } from './helpers.js';

test('Start on the page as loaded trains the echo-trap preset from the DoorKey base on WASM', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('/');
  await expect(page.getByTestId('preset-echo-trap')).toHaveAttribute('aria-pressed', 'true');
  // The first screen says what the page is and what Start does.
  await expect(page.getByTestId('intro')).toContainText('Start');
  await expect(page.getByTestId('intro')).toContainText('echo trap');
  // The preset says what it is and how long it runs before Start, and that its seed is trapped.
  await expect(page.getByTestId('current-preset-time')).toContainText('minutes');
  await expect(page.getByTestId('current-preset-note')).toContainText(
    'This seed (303) was trapped at iteration 122; change the seed to draw another.',
  );
  await expect(page.getByTestId('field-seed')).toHaveValue('303');
  // The form shows the base model's episode settings, marked as such.
  await expect(page.getByTestId('field-contextLength')).toHaveValue('256');
  await expect(page.getByTestId('source-contextLength')).toHaveText('base model');
  await expect(page.getByTestId('field-maxTurns')).toHaveValue('3');
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  // Pressed from the keyboard: Start disables itself, and the focus moves on to Pause.
  await page.getByTestId('btn-start').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('btn-pause')).toBeFocused({ timeout: 120_000 });
  await expect.poll(() => iteration(page), { timeout: 240_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('backend-status')).toHaveText(
    'Training on your processor (WebAssembly); the GPU was not used',
  );
  await page.getByTestId('backend-why').click();
  await expect(page.getByTestId('backend-details')).toContainText('Backend: wasm');
  await expect(page.getByTestId('backend-details')).toContainText('renders in software');
  await expect(page.getByTestId('status-line')).toContainText('base model minigrid-doorkey-5x5-nano');
  const legend = page.getByTestId('chart-success').getByTestId('legend-value').first();
  const success = Number((await legend.textContent())?.trim());
  expect(success).toBeGreaterThan(0);
  await expect(page.locator('[role=alert]')).toHaveCount(0);
  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 120_000 });
  expect(errors).toEqual([]);
});
