// The trajectory viewer shows a MiniGrid trajectory (canvas, tokens, turns) and a
// WebShop-lite trajectory (the shop page); "play it yourself" plays both with the agent's text.
import { expect, test } from '@playwright/test';
import { openTiny } from './helpers.js';

test('the viewer shows a MiniGrid trajectory turn by turn', async ({ page }) => {
  await openTiny(page);
  await page.getByTestId('btn-step').click();
  await expect(page.getByTestId('minigrid-canvas')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('iteration')).toHaveAttribute('data-iteration', '1');
  await expect(page.getByTestId('sample-head')).toHaveAttribute('data-iteration', '0');
  await expect(page.getByTestId('turn-label')).toContainText('Turn 1 /');
  await expect(page.getByTestId('token-strip').locator('.token').first()).toBeVisible();
  await expect(page.getByTestId('turn-detail')).toContainText('What the agent read');
  // The text the agent read, laid out as the Play panel lays it out (turn, state, actions left).
  await expect(page.getByTestId('turn-detail').locator('pre.observation')).toContainText(
    /^turn 1 state:\n[\s\S]*\nactions left: \d+$/,
  );
  // The canvas really holds a drawing (not a blank bitmap).
  const coloured = await page.getByTestId('minigrid-canvas').evaluate((c: HTMLCanvasElement) => {
    const d = (c.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<string>();
    for (let i = 0; i < d.length; i += 4 * 97) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    return seen.size;
  });
  expect(coloured).toBeGreaterThan(3);
  await page.getByTestId('turn-next').click();
  await expect(page.getByTestId('turn-label')).not.toContainText('Turn 1 /');
});

test('the viewer shows a WebShop-lite trajectory as a shop page', async ({ page }) => {
  await openTiny(page, { env: 'webshop/lite', contextLength: '160' });
  await page.getByTestId('btn-step').click();
  await expect(page.getByTestId('shop-page')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('shop-page')).toHaveAttribute('data-page', 'search');
  await expect(page.getByTestId('turn-detail')).toContainText('WebShop');
});

test('play it yourself: MiniGrid by keyboard, WebShop by typed action and clicks', async ({ page }) => {
  await page.goto('/#env=minigrid/Empty-5x5');
  await page.getByTestId('tab-play').click();
  const text = page.getByTestId('play-text');
  await expect(text).toContainText('get to the green goal square');
  await expect(text).toContainText('turn 1 state:');
  const canvas = page.getByTestId('minigrid-canvas');
  const before = await canvas.getAttribute('data-agent');
  await page.getByTestId('play-panel').focus();
  await page.keyboard.press('ArrowRight');
  await expect(canvas).not.toHaveAttribute('data-agent', before ?? '');
  // The agent reads the new state at its next turn: end this one.
  await expect(text).toContainText('turn 1 state:');
  await page.getByTestId('play-end-turn').click();
  await expect(text).toContainText('turn 2 state:');

  await page.getByTestId('field-env').selectOption('webshop/lite');
  await expect(page.getByTestId('shop-page')).toHaveAttribute('data-page', 'search');
  await page.getByTestId('play-typed').fill('search[shampoo]');
  await page.getByTestId('play-typed').press('Enter');
  await expect(page.getByTestId('shop-page')).toHaveAttribute('data-page', 'results');
  await expect(text).toContainText('Total results');
  // A product (ten-character asin), not "back to search" or "next >".
  await page
    .locator('[data-testid^="play-action-click-"]')
    .filter({ hasText: /^click\[[a-z0-9]{10}\]$/ })
    .first()
    .click();
  await expect(page.getByTestId('shop-page')).toHaveAttribute('data-page', 'item');
});
