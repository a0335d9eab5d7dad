// What the walk-through found in the env views, on the built app: Bandit, FrozenLake and Sokoban
// are drawn (canvas tiles, the two arms), never shown as raw JSON — in "play it yourself" and in
// the trajectory viewer of a real Bandit run from its shipped base model (WASM, no mocks); play
// counts steps against the setup's action budget; WebShop's results are numbered from 1 and
// its greyed results are not offered.
import { expect, type Page, test } from '@playwright/test';

async function play(page: Page, env: string): Promise<void> {
  await page.getByTestId('field-env').selectOption(env);
  await page.getByTestId('tab-play').click();
  await expect(page.getByTestId('play-panel')).toBeVisible();
}

/** Distinct colours on a canvas, sampled: a drawn picture has several. */
const colours = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((c: HTMLCanvasElement) => {
    const d = (c.getContext('2d') as CanvasRenderingContext2D).getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<string>();
    for (let i = 0; i < d.length; i += 4 * 53) seen.add(`${d[i]},${d[i + 1]},${d[i + 2]}`);
    return seen.size;
  });

test('FrozenLake, Sokoban and the bandit are drawn in play, not printed as JSON', async ({ page }) => {
  await page.goto('/');
  await play(page, 'frozenlake/FrozenLake-4x4');
  // This round's study bands are DoorKey's only: the switch says there are none for this env.
  await expect(page.getByTestId('study-bands')).toContainText('study bands (none for this env)');
  const grid = page.getByTestId('grid-canvas');
  await expect(grid).toHaveAttribute('data-kind', 'frozenlake');
  expect(await colours(page, 'grid-canvas')).toBeGreaterThan(3);
  await expect(page.locator('.view-json')).toHaveCount(0);
  // Seed 1's lake: every cell a slip can reach from the start by Up is ice.
  await page.getByTestId('play-action-Up').click();
  await expect(page.getByTestId('view-caption')).toContainText('step 1 of');

  await play(page, 'sokoban/Sokoban-6x6');
  await expect(grid).toHaveAttribute('data-kind', 'sokoban');
  await expect(page.getByTestId('view-caption')).toContainText('box on target');
  await expect(page.locator('.view-json')).toHaveCount(0);

  await play(page, 'bandit/Bandit');
  await expect(page.getByTestId('bandit-arm')).toHaveCount(2);
  await expect(page.getByTestId('bandit-view')).toContainText('always pays 0.1');
  await expect(page.getByTestId('bandit-success')).toContainText(
    'Success means choosing Dragon, the high-risk arm',
  );
  await expect(page.getByTestId('play-panel')).not.toContainText('highRiskArm');
  await page.getByTestId('play-action-Dragon').click();
  await expect(page.getByTestId('view-caption').first()).toContainText('Pulled Dragon, the high-risk arm');
  await expect(page.getByTestId('play-done')).toBeVisible();
});

test('a real Bandit run shows its trajectory as the two arms, with what success means', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('preset-bandit-starpo').click();
  await page.getByTestId('backend-override').selectOption('wasm');
  await expect(page.getByTestId('btn-step')).toBeEnabled();
  await page.getByTestId('btn-step').click();
  await expect(page.getByTestId('sample-head')).toBeVisible({ timeout: 110_000 });
  const viewer = page.getByTestId('viewer-body');
  await expect(viewer.getByTestId('bandit-view')).toBeVisible();
  await expect(viewer.getByTestId('bandit-success')).toContainText('high-risk arm');
  await expect(viewer.locator('.view-json')).toHaveCount(0);
  await expect(viewer).not.toContainText('highRiskArm');
});

test('play follows the setup: MiniGrid steps count against the action budget, WebShop lists what the agent reads', async ({
  page,
}) => {
  await page.goto('/');
  await play(page, 'minigrid/DoorKey-5x5');
  const budget = await page.getByTestId('field-maxActionsPerTraj').inputValue();
  await expect(page.getByTestId('view-caption')).toContainText(`step 0 of ${budget}`);
  await expect(page.getByTestId('play-text')).toContainText(`actions left: ${budget}`);

  await play(page, 'webshop/lite');
  await page.getByTestId('play-typed').fill('search[shampoo]');
  await page.getByTestId('play-typed').press('Enter');
  const results = page.getByTestId('shop-results');
  await expect(results).toBeVisible();
  await expect(results).toHaveAttribute('start', '1');
  // Every list item is a product (the page line is not numbered as the first result).
  const items = results.locator('li');
  expect(await items.count()).toBeGreaterThan(5);
  await expect(items.first().locator('code')).toHaveCount(1);
  // The greyed products (not in the agent's text) are not offered as actions.
  const hidden = await results
    .locator('li.hidden-to-agent code')
    .evaluateAll((els) => els.map((e) => (e.textContent ?? '').toLowerCase()));
  expect(hidden.length).toBeGreaterThan(0);
  for (const asin of hidden) await expect(page.getByTestId(`play-action-click-${asin}-`)).toHaveCount(0);
  const shown = await results
    .locator('li.shown code')
    .evaluateAll((els) => els.map((e) => (e.textContent ?? '').toLowerCase()));
  await expect(page.getByTestId(`play-action-click-${shown[0]}-`)).toHaveCount(1);
  // The shop's counter reads against the budget that ends the episode.
  const left = await page.getByTestId('shop-budget').textContent();
  const [, n, of] = /(\d+) \/ (\d+) actions left/.exec(left ?? '') ?? [];
  const setupBudget = Number(await page.getByTestId('field-maxActionsPerTraj').inputValue());
  expect(Number(of)).toBe(Math.min(setupBudget, 9));
  expect(Number(n)).toBe(Number(of) - 1);
});
