// The guided tour with the recorded runs of public/recorded/: every step is reached with Next,
// each highlights its target, Back returns, and the tour ends on the StarPO vs StarPO-S
// comparison (both recordings overlaid, their config diff beside).
import { expect, test } from '@playwright/test';

const STEPS = ['welcome', 'environment', 'base-agent', 'start', 'warning', 'collapse', 'compare'];

test('the tour advances through every step with a recorded run and ends on the comparison', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByTestId('btn-tour').click();
  const step = page.getByTestId('tour-step');
  await expect(step).toHaveAttribute('data-step', 'welcome');
  await expect(page.getByTestId('tour-recording')).toHaveCount(2);
  await expect(page.getByTestId('tour-recording').first()).toContainText('recorded run of');
  await page.getByTestId('tour-speed').selectOption({ label: 'instant' });

  for (const id of STEPS.slice(1)) {
    await page.getByTestId('tour-next').click();
    await expect(step).toHaveAttribute('data-step', id);
    if (id === 'environment') await expect(page.getByTestId('play-panel')).toBeVisible();
    if (id === 'base-agent') {
      await expect(page.getByTestId('sample-head')).toBeVisible();
      await expect(page.getByTestId('tour-highlight')).toHaveCount(1);
    }
    if (id === 'warning') await expect(page.getByTestId('tour-warning')).toBeVisible();
    if (id === 'collapse') {
      await expect(page.getByTestId('tour-collapse')).toBeVisible();
      await expect
        .poll(async () => Number(await page.getByTestId('chart-success').getAttribute('data-points')))
        .toBeGreaterThan(0);
    }
  }
  const compare = page.getByTestId('compare-view');
  await expect(compare).toBeVisible();
  await expect(compare).toHaveAttribute('data-runs', '2');
  await expect(compare.locator('[data-testid="config-diff-row"][data-key="algorithm"]')).toContainText(
    'StarPO-S',
  );
  await expect(compare.getByTestId('chart-success')).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('tour-compare-summary')).toContainText('StarPO-S');

  // Back leaves the comparison; Next returns to it.
  await page.getByTestId('tour-back').click();
  await expect(step).toHaveAttribute('data-step', 'collapse');
  await expect(compare).toHaveCount(0);
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-card')).toHaveCount(0);
});

test('at 1440 × 900 the tour’s comparison reads: short legends, the diff within its column, beside the card', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByTestId('btn-tour').click();
  await page.getByTestId('tour-speed').selectOption({ label: 'instant' });
  for (let i = 1; i < STEPS.length; i++) await page.getByTestId('tour-next').click();
  const compare = page.getByTestId('compare-view');
  await expect(compare).toBeVisible();
  // Each legend names the run by algorithm and seed; the whole config stays in its title.
  await expect(compare.getByTestId('compare-run')).toHaveText([
    'StarPO (GRPO) · seed 303',
    'StarPO-S · seed 303',
  ]);
  await expect(compare.getByTestId('compare-run').first()).toHaveAttribute('title', /recorded run of StarPO/);
  // The diff table fits its column: nothing cut off to the right.
  const fits = await compare.getByTestId('config-diff').evaluate((t) => {
    const side = t.parentElement as HTMLElement;
    return t.scrollWidth <= side.clientWidth + 1 && t.getBoundingClientRect().right <= window.innerWidth;
  });
  expect(fits).toBe(true);
  // The card and the view do not overlap.
  const [card, view] = [await page.getByTestId('tour-card').boundingBox(), await compare.boundingBox()];
  expect(card && view).toBeTruthy();
  if (card && view) expect(card.x + card.width <= view.x || view.x + view.width <= card.x).toBe(true);
});
