// The echo-trap study's reference bands on the charts: a band file (served here as a fixture, as
// `sweep --study echo-trap` would write it) draws faint bands behind a live tiny run on the
// success chart, with its seeds and config in the legend, and the switch hides them; without a
// file, or with a malformed one, the charts draw as before and a note says why. The two study
// presets are buttons on the main screen.
import { expect, type Page, test } from '@playwright/test';
import { openTiny, runTinyToStop } from './helpers.js';

const CONFIG = { groups: 2, groupSize: 2, lr: 0.005, stepsPerIteration: 1, iterations: 6 };
const band = {
  iteration: [0, 1, 2, 3, 4, 5],
  mean: [0.2, 0.3, 0.4, 0.5, 0.4, 0.3],
  lo: [0.1, 0.2, 0.3, 0.4, 0.3, 0.2],
  hi: [0.3, 0.4, 0.5, 0.6, 0.5, 0.4],
};
const FIXTURE = {
  format: 'starpo-study-bands',
  version: 1,
  study: 'echo-trap',
  envs: {
    'minigrid/Empty-5x5': {
      'starpo-ppo': {
        seeds: 2,
        variant: 'matched',
        config: CONFIG,
        metrics: { 'rollout/successRate': band },
      },
      'starpo-s': { seeds: 2, variant: 'matched', config: CONFIG, metrics: { 'rollout/successRate': band } },
    },
  },
};

async function serveBands(page: Page, body: string, status = 200): Promise<void> {
  await page.route('**/study/echo-trap.json', (route) =>
    route.fulfill({ status, contentType: 'application/json', body }),
  );
}

test('the study presets are one click away, and study bands are drawn behind a live run and hidden by the switch', async ({
  page,
}) => {
  await serveBands(page, JSON.stringify(FIXTURE));
  await openTiny(page);
  await expect(page.getByTestId('preset-echo-trap')).toBeVisible();
  await expect(page.getByTestId('preset-stable')).toBeVisible();
  await runTinyToStop(page, 1);

  const chart = page.getByTestId('chart-success');
  await expect(chart).toHaveAttribute('data-bands', '2');
  await expect(chart.locator('.recharts-area-area')).toHaveCount(2);
  const legend = chart.getByTestId('band-legend-success');
  // Each band's colour is named.
  await expect(legend).toHaveText('study: 2 seeds: StarPO StarPO-S');
  await expect(legend).toHaveAttribute(
    'title',
    'StarPO — study: 2 seeds, 2 × 2 rollouts, lr 0.005, 1 steps/iter; steps matched; band: min–max over seeds\n' +
      'StarPO-S — study: 2 seeds, 2 × 2 rollouts, lr 0.005, 1 steps/iter; steps matched; band: min–max over seeds',
  );
  // The fixture has no entropy band: that chart draws none.
  await expect(page.getByTestId('chart-entropy')).toHaveAttribute('data-bands', '0');
  // The live line is still there, in front.
  await expect(chart.locator('.recharts-line-curve').first()).toBeVisible();

  await page.getByTestId('study-bands-toggle').uncheck();
  await expect(chart).toHaveAttribute('data-bands', '0');
  await expect(chart.locator('.recharts-area-area')).toHaveCount(0);
  await expect(chart.getByTestId('band-legend-success')).toHaveCount(0);
  await page.getByTestId('study-bands-toggle').check();
  await expect(chart.locator('.recharts-area-area')).toHaveCount(2);
});

test('without a band file, or with a malformed one, the charts draw without bands and say why', async ({
  page,
}) => {
  // Served by route, not left to the server: a real study's file may be committed later.
  await serveBands(page, 'not found', 404);
  await page.goto('/');
  await expect(page.getByTestId('study-bands-note')).toHaveAttribute('data-status', 'absent');
  await expect(page.getByTestId('chart-success')).toHaveAttribute('data-bands', '0');
  // A static server's fallback page in place of the file is absence too, not a refusal.
  await page.unroute('**/study/echo-trap.json');
  await page.route('**/study/echo-trap.json', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>app</title>' }),
  );
  await page.reload();
  await expect(page.getByTestId('study-bands-note')).toHaveAttribute('data-status', 'absent');

  const bad = {
    ...FIXTURE,
    envs: {
      'minigrid/Empty-5x5': {
        'starpo-ppo': { ...FIXTURE.envs['minigrid/Empty-5x5']['starpo-ppo'], seeds: 0 },
      },
    },
  };
  await page.unroute('**/study/echo-trap.json');
  await serveBands(page, JSON.stringify(bad));
  await page.reload();
  await page.getByTestId('preset-tiny').click();
  const note = page.getByTestId('study-bands-note');
  await expect(note).toHaveAttribute('data-status', 'invalid');
  await expect(note).toHaveAttribute('title', /seeds/);
  await expect(page.getByTestId('chart-success')).toHaveAttribute('data-bands', '0');
});
