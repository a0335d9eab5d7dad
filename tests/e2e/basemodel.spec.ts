// A shipped base model (served here from tests/fixtures, as public/models would serve it) is
// offered for its env, chosen by default, and the run starts from it; other envs say plainly
// that they start untrained.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { openTiny, points } from './helpers.js';

const fixture = (name: string) => readFile(new URL(`../fixtures/${name}`, import.meta.url));

test('a listed base model is used for its env; other envs start untrained', async ({ page }) => {
  const index = [
    {
      id: 'fixture-empty',
      env: 'minigrid/Empty-5x5',
      size: 'nano',
      manifest: 'base-fixture.json',
      blob: 'base-fixture.bin',
      greedySuccess: 0.2,
      sampledSuccess: 0.25,
    },
  ];
  await page.route('**/models/index.json', (r) => r.fulfill({ json: index }));
  await page.route('**/models/base-fixture.json', async (r) =>
    r.fulfill({ body: await fixture('base-fixture.json'), contentType: 'application/json' }),
  );
  await page.route('**/models/base-fixture.bin', async (r) =>
    r.fulfill({ body: await fixture('base-fixture.bin'), contentType: 'application/octet-stream' }),
  );
  await openTiny(page, { contextLength: '128' });
  await expect(page.getByTestId('field-base')).toHaveValue('model:fixture-empty');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('run-base')).toHaveAttribute('data-untrained', 'false');
  await expect(page.getByTestId('run-base')).toContainText('fixture-empty');
  await page.getByTestId('btn-reset').click();
  await expect(page.getByTestId('iteration')).toHaveAttribute('data-iteration', '0');

  await page.getByTestId('field-env').selectOption('minigrid/DoorKey-5x5');
  await expect(page.getByTestId('field-base')).toHaveValue('');
  await expect(page.getByTestId('untrained-base')).toContainText('no base model exists for this environment');
});
