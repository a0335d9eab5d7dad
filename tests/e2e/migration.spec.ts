// Schema migrations in a real browser: a version-1 runs database written before the app opens
// is upgraded on load (runs listed newest first, rows readable, records stamped schemaVersion 2);
// a run file from a newer playground is refused and the stored runs stay as they were; an
// upgrade that fails midway (an injected write fault) leaves the version-1 data untouched, says
// so, and succeeds on the next load once the fault is gone. No training: the WASM app only loads.
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { defaultConfig } from '../../src/core/config.js';

const DB = 'starpo-playground';

function v1Run(id: string, createdAt: number) {
  return {
    id,
    name: `stored ${id}`,
    createdAt,
    updatedAt: createdAt + 1,
    status: 'stopped',
    config: { ...defaultConfig(), iterations: 10 },
    iteration: 3,
    summary: null,
    base: { id: 'fresh', label: 'untrained nano', untrained: true },
    backend: 'wasm',
    hasCheckpoint: false,
  };
}

const ROWS = [
  { iteration: 0, 'rollout/successRate': 0.25 },
  { iteration: 1, 'rollout/successRate': 0.5 },
  { iteration: 2, 'rollout/successRate': 0.75 },
];

/** Writes a version-1 database (the stores as version 1 made them) on a page of the app's origin. */
async function writeV1(page: Page, runs: ReturnType<typeof v1Run>[]): Promise<void> {
  await page.goto('/favicon.svg');
  await page.evaluate(
    ({ name, runs, rows }) =>
      new Promise<void>((resolve, reject) => {
        const req = indexedDB.open(name, 1);
        req.onupgradeneeded = () => {
          const d = req.result;
          const runStore = d.createObjectStore('runs', { keyPath: 'id' });
          const rowStore = d.createObjectStore('rows', { keyPath: ['runId', 'iteration'] });
          d.createObjectStore('events', { autoIncrement: true }).createIndex('runId', 'runId');
          d.createObjectStore('samples', { keyPath: ['runId', 'iteration'] });
          d.createObjectStore('checkpoints', { keyPath: 'runId' });
          for (const run of runs) {
            runStore.put(run);
            for (const row of rows) rowStore.put({ runId: run.id, iteration: row.iteration, row });
          }
        };
        req.onsuccess = () => {
          req.result.close();
          resolve();
        };
        req.onerror = () => reject(req.error);
      }),
    { name: DB, runs, rows: ROWS },
  );
}

/** The stored database as it is, opened without upgrading it. */
function readDb(page: Page) {
  return page.evaluate(
    (name) =>
      new Promise<{ version: number; indexes: string[]; runs: Record<string, unknown>[]; rows: number }>(
        (resolve, reject) => {
          const req = indexedDB.open(name);
          req.onerror = () => reject(req.error);
          req.onsuccess = () => {
            const d = req.result;
            const tx = d.transaction(['runs', 'rows']);
            const indexes = [...tx.objectStore('runs').indexNames];
            const runs = tx.objectStore('runs').getAll();
            const rows = tx.objectStore('rows').count();
            tx.oncomplete = () => {
              resolve({
                version: d.version,
                indexes,
                runs: runs.result,
                rows: rows.result,
              });
              d.close();
            };
          };
        },
      ),
    DB,
  );
}

test('a version-1 database is upgraded on load, and a newer run file is refused', async ({ page }) => {
  await writeV1(page, [v1Run('v1-old', 1000), v1Run('v1-new', 2000)]);
  await page.goto('/');
  await page.getByTestId('tab-runs').click();
  const items = page.getByTestId('run-item');
  await expect(items).toHaveCount(2);
  // Newest first, through the createdAt index the upgrade added.
  await expect(items.first()).toHaveAttribute('data-run-id', 'v1-new');
  await expect(items.first()).toHaveAttribute('data-status', 'stopped');
  await expect(items.first()).toContainText('it 3/10');

  const stored = await readDb(page);
  expect(stored.version).toBe(2);
  expect(stored.indexes).toContain('createdAt');
  expect(stored.runs.map((r) => [r.id, r.schemaVersion, r.name])).toEqual([
    ['v1-new', 2, 'stored v1-new'],
    ['v1-old', 2, 'stored v1-old'],
  ]);

  // Readable: overlaid on the charts with its last value, and exported with its rows.
  const item = items.first();
  await item.getByTestId('run-overlay').click();
  await expect(item.getByTestId('run-overlay')).toBeChecked();
  await expect(page.getByTestId('chart-success')).toHaveAttribute('data-runs', '2');
  await expect(page.getByTestId('chart-success').locator('.chart-legend')).toContainText('stored v1-new');
  const download = page.waitForEvent('download');
  await item.getByTestId('run-export').click();
  const exported = JSON.parse(await readFile(await (await download).path(), 'utf8'));
  expect(exported.version).toBe(1);
  expect(exported.rows).toEqual(ROWS);
  expect(exported.meta).not.toHaveProperty('schemaVersion');

  // A file from a newer playground: refused with both versions named; nothing stored changes.
  await page.getByTestId('import-file').setInputFiles({
    name: 'future.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...exported, version: 99 })),
  });
  await expect(page.getByTestId('notice')).toHaveAttribute('data-kind', 'error');
  await expect(page.getByTestId('notice')).toContainText(
    'future.json was refused: this run file was made by a newer playground (version 99); this one reads up to 1',
  );
  await expect(items).toHaveCount(2);
  expect(await readDb(page)).toEqual(stored);
});

test('an upgrade that fails midway keeps the version-1 data, says so, and succeeds once the fault is gone', async ({
  page,
  context,
}) => {
  await writeV1(page, [v1Run('v1-a', 1000), v1Run('v1-b', 2000)]);
  // The upgrade's write of the second record fails (the first has been written in the same
  // transaction by then: only the abort keeps it from being committed).
  await page.addInitScript(() => {
    const update = IDBCursor.prototype.update;
    IDBCursor.prototype.update = function (this: IDBCursor, value: { id?: string }) {
      if (value?.id === 'v1-b') throw new DOMException('injected write fault', 'QuotaExceededError');
      return update.call(this, value);
    };
  });
  await page.goto('/');
  const notice = page.getByTestId('notice');
  await expect(notice).toHaveAttribute('data-kind', 'error');
  await expect(notice).toContainText('could not be upgraded from schema version 1 to 2');
  await expect(notice).toContainText('injected write fault');
  await expect(notice).toContainText('Nothing was changed');

  const kept = await readDb(page);
  expect(kept.version).toBe(1);
  expect(kept.indexes).toEqual([]);
  expect(kept.runs.map((r) => [r.id, 'schemaVersion' in r])).toEqual([
    ['v1-a', false],
    ['v1-b', false],
  ]);
  expect(kept.rows).toBe(2 * ROWS.length);
  await page.close();

  // The next load, without the fault, upgrades the same data.
  const next = await context.newPage();
  await next.goto('/');
  await next.getByTestId('tab-runs').click();
  await expect(next.getByTestId('run-item')).toHaveCount(2);
  const upgraded = await readDb(next);
  expect(upgraded.version).toBe(2);
  expect(upgraded.runs.map((r) => r.schemaVersion)).toEqual([2, 2]);
  expect(upgraded.rows).toBe(2 * ROWS.length);
});
