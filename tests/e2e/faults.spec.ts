// Injected faults and their recovery (issue 10), through the `?test-faults` hooks: a lost WebGPU
// device moves a run to WASM from its last checkpoint; a crashed and a killed train worker are
// restarted and the run resumes; a second worker that crashes with the run's critic restarts the
// run from its checkpoint, and one beside a run without a critic leaves a notice; three NaN iterations pause with a suggestion until the learning
// rate is lowered; a full IndexedDB quota mid-batch leaves the stored run whole up to its last
// complete batch and says what to delete. Tiny runs, checkpoints every iteration.
import { expect, type Page, test } from '@playwright/test';
import { points, runTinyToStop } from './helpers.js';

type Hooks = {
  loseDevice(): Promise<void>;
  crashWorker(): Promise<void>;
  crashSecondWorker(): Promise<void>;
  killWorker(): Promise<void>;
  nonFinite(n: number): Promise<void>;
};

/** The tiny preset on `backend`, with the fault hooks and a checkpoint after every iteration. */
async function openFaulty(page: Page, backend: 'webgpu' | 'wasm'): Promise<void> {
  await page.goto('/?test-faults');
  await page.getByTestId('preset-tiny').click();
  await page.getByTestId('backend-override').selectOption(backend);
  await page.getByTestId('field-checkpointEvery').fill('1');
  await expect(page.getByTestId('btn-start')).toBeEnabled();
}

function hook(page: Page, name: keyof Hooks, arg?: number): Promise<void> {
  return page.evaluate(
    ([n, a]) => (window as unknown as { starpoFaults: Hooks }).starpoFaults[n as keyof Hooks](a as number),
    [name, arg] as const,
  );
}

/** The newest stored run: its iteration count and the iterations of its stored rows. */
function storedRun(page: Page): Promise<{ iteration: number; rows: number[] }> {
  return page.evaluate(
    () =>
      new Promise<{ iteration: number; rows: number[] }>((resolve, reject) => {
        const open = indexedDB.open('starpo-playground');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['runs', 'rows'], 'readonly');
          const runs = tx.objectStore('runs').getAll();
          const rows = tx.objectStore('rows').getAll();
          tx.oncomplete = () => {
            open.result.close();
            const all = runs.result as { id: string; createdAt: number; iteration: number }[];
            const run = all.sort((a, b) => b.createdAt - a.createdAt)[0];
            resolve({
              iteration: run?.iteration ?? -1,
              rows: (rows.result as { runId: string; iteration: number }[])
                .filter((r) => r.runId === run?.id)
                .map((r) => r.iteration),
            });
          };
        };
      }),
  );
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Waits for the UI's queued IndexedDB writes to catch up with the chart, then reads the run. */
async function storedWhenSaved(page: Page): Promise<{ iteration: number; rows: number[] }> {
  const n = await points(page);
  await expect.poll(async () => (await storedRun(page)).iteration, { timeout: 30_000 }).toBe(n);
  return storedRun(page);
}

test('a lost WebGPU device moves the run to WASM from its last checkpoint and it goes on', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await openFaulty(page, 'webgpu');
  await page.getByTestId('btn-start').click();
  await expect(page.getByTestId('backend-status')).toHaveAttribute('data-backend', 'webgpu', {
    timeout: 60_000,
  });
  await expect.poll(() => points(page), { timeout: 150_000 }).toBeGreaterThanOrEqual(1);
  await hook(page, 'loseDevice');
  const banner = page.getByTestId('recovery-banner');
  await expect(banner).toHaveAttribute('data-state', 'recovered', { timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-fault', 'gpu-lost');
  await expect(banner).toHaveAttribute('data-backend', 'wasm');
  await expect(banner).toContainText('WebGPU device was lost');
  await expect(banner).toContainText('moved to the wasm backend');
  const from = Number(await banner.getAttribute('data-iteration'));
  expect(from).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('backend-status')).toHaveAttribute('data-backend', 'wasm');
  // Training continues on WASM past the checkpoint, with no gap or repeat in the series.
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(from + 2);
  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 60_000 });
  const stored = await storedWhenSaved(page);
  expect(stored.rows).toEqual(range(stored.iteration));
});

// A kill right after a checkpoint reached the page once left the rows of the iterations before it
// buffered in the dead worker: the run resumed past a gap and its stored record counted one
// iteration more than the chart showed. The worker now sends those rows before the checkpoint.
test('a crashed and a killed train worker are restarted and the run resumes from its checkpoint', async ({
  page,
}) => {
  await openFaulty(page, 'wasm');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const banner = page.getByTestId('recovery-banner');

  await hook(page, 'crashWorker'); // an uncaught error inside the worker
  await expect(banner).toHaveAttribute('data-state', 'recovered', { timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-fault', 'crash');
  await expect(banner).toContainText('injected worker crash');
  const first = Number(await banner.getAttribute('data-iteration'));
  expect(first).toBeGreaterThanOrEqual(2);
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(first + 1);

  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await hook(page, 'killWorker'); // terminated mid-iteration
  await expect(banner).toHaveAttribute('data-state', 'recovered', { timeout: 60_000 });
  await expect(banner).toContainText('killed');
  const second = Number(await banner.getAttribute('data-iteration'));
  expect(second).toBeGreaterThanOrEqual(first);
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(second + 1);
  await expect(page.getByTestId('backend-status')).toHaveAttribute('data-backend', 'wasm');
  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 30_000 });
  const stored = await storedWhenSaved(page);
  expect(stored.rows).toEqual(range(stored.iteration));
  expect(stored.iteration).toBeGreaterThanOrEqual(second + 1);
  // The iteration counter agrees with the chart and the stored run.
  await expect(page.getByTestId('iteration')).toHaveAttribute('data-iteration', String(stored.iteration));
});

test('a second worker that crashes: with the critic the run resumes from its checkpoint; without, a notice', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // PPO: the critic lives in the second worker, so the run restarts from its last checkpoint.
  await openFaulty(page, 'wasm');
  await page.getByTestId('field-algorithm').selectOption('starpo-ppo');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await hook(page, 'crashSecondWorker'); // refused when the run has one worker
  const banner = page.getByTestId('recovery-banner');
  await expect(banner).toHaveAttribute('data-state', 'recovered', { timeout: 60_000 });
  await expect(banner).toHaveAttribute('data-fault', 'second-worker');
  await expect(banner).toContainText('second worker, which held its critic, failed');
  const from = Number(await banner.getAttribute('data-iteration'));
  expect(from).toBeGreaterThanOrEqual(2);
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(from + 2);
  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 30_000 });
  const stored = await storedWhenSaved(page);
  expect(stored.rows).toEqual(range(stored.iteration));

  // GRPO measuring every iteration: the worker's share comes back here and the run goes on.
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByTestId('field-algorithm').selectOption('starpo-grpo');
  await page.locator('summary', { hasText: 'Evaluation' }).click(); // a group closed until opened
  await page.getByTestId('field-evalEvery').fill('1');
  await page.getByTestId('field-evalEpisodes').fill('2');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await hook(page, 'crashSecondWorker');
  const notice = page.getByTestId('run-notice');
  await expect(notice).toContainText('this thread takes its share', { timeout: 30_000 });
  await expect(notice).toContainText('The run goes on with the same numbers, only slower.');
  const at = await points(page);
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(at + 2);
  await expect(banner).toHaveCount(0);
  await page.getByTestId('btn-stop').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'finished', { timeout: 30_000 });
});

test('three NaN iterations in a row pause the run with a suggestion; a lower learning rate resumes it', async ({
  page,
}) => {
  await openFaulty(page, 'wasm');
  await page.locator('summary', { hasText: 'Optimizer' }).click();
  await page.getByTestId('field-lr').fill('0.01');
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await hook(page, 'nonFinite', 3);
  const banner = page.getByTestId('fault-pause-banner');
  await expect(banner).toBeVisible({ timeout: 60_000 });
  await expect(banner).toContainText('after 3 non-finite iterations in a row');
  await expect(page.getByTestId('fault-suggestion')).toHaveText(
    'Suggested change: lower the learning rate (now 0.01) to 0.003.',
  );
  await expect(page.getByTestId('btn-start')).toHaveText('Resume');
  await expect(page.getByTestId('notice')).toHaveCount(0);
  const before = await points(page);
  await page.getByTestId('field-lr').fill('0.003');
  await expect(banner).toHaveCount(0, { timeout: 10_000 });
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThan(before);
});

test('a full quota mid-batch keeps the stored run whole, says what to delete, and saving catches up', async ({
  page,
}) => {
  test.setTimeout(300_000);
  // Once armed, the first put of a run record that would count more iterations than that run has
  // stored fixes `__quotaFrom`, and from then on every put counting that many or more throws, as a
  // full quota would: the batch's rows were already put in the same transaction. Arming on the
  // record's own next growth (not on the chart, which may lag the saves) keeps the cut exact.
  await page.addInitScript(() => {
    const w = window as unknown as { __quotaFrom: number; __quotaArmed: boolean };
    w.__quotaFrom = Number.POSITIVE_INFINITY;
    w.__quotaArmed = false;
    const stored = new Map<unknown, number>();
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      const v = value as { id?: unknown; iteration?: number } | null;
      const it = v?.iteration;
      if (this.name === 'runs' && typeof it === 'number') {
        if (w.__quotaArmed && w.__quotaFrom === Number.POSITIVE_INFINITY && it > (stored.get(v?.id) ?? -1))
          w.__quotaFrom = it;
        if (it >= w.__quotaFrom) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        stored.set(v?.id, it);
      }
      return put.call(this, value, key);
    };
  });
  await openFaulty(page, 'wasm');
  // An earlier run the notice can suggest deleting.
  const old = await runTinyToStop(page, 2);
  await page.getByTestId('btn-start').click();
  await expect.poll(() => points(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await page.evaluate(() => {
    (window as unknown as { __quotaArmed: boolean }).__quotaArmed = true;
  });
  const notice = page.getByTestId('notice');
  await expect(notice).toContainText('Storage is full (QuotaExceededError', { timeout: 60_000 });
  await expect(notice).toContainText('not saved yet');
  await expect(notice).toContainText(
    `the biggest: "tiny (edited) · starpo-grpo · Empty-5x5 · seed 1" (${old} iterations`,
  );
  const full = await page.evaluate(() => (window as unknown as { __quotaFrom: number }).__quotaFrom);
  expect(Number.isFinite(full)).toBe(true);
  // The stored run is whole: rows 0..k-1 and a record saying k, never a row beyond it.
  const during = await storedRun(page);
  expect(during.iteration).toBeLessThan(full);
  expect(during.rows).toEqual(range(during.iteration));
  // Room again: the unsaved iterations are saved with the next batch, without a gap.
  await page.evaluate(() => {
    const w = window as unknown as { __quotaFrom: number; __quotaArmed: boolean };
    w.__quotaArmed = false;
    w.__quotaFrom = Number.POSITIVE_INFINITY;
  });
  await expect.poll(async () => (await storedRun(page)).iteration, { timeout: 60_000 }).toBeGreaterThan(full);
  await page.getByTestId('btn-pause').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'paused', { timeout: 30_000 });
  const after = await storedWhenSaved(page);
  expect(after.rows).toEqual(range(after.iteration));
});
