// The first page in Debian Chromium: loads cleanly, reports the real backend and adapter, and
// a short transformer training run in the train worker matches the CPU backend.
import { expect, test } from '@playwright/test';

test('the page loads with its regions and no console errors', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto('/');
  for (const id of ['setup-panel', 'transport-bar', 'charts-area', 'trajectory-viewer', 'status-line']) {
    await expect(page.getByTestId(id)).toBeVisible();
  }
  await expect(page.getByTestId('backend-status')).toHaveAttribute('data-state', 'ready', {
    timeout: 60_000,
  });
  // The backend line is in view on the first screen (above the charts), not below the fold.
  const status = await page.getByTestId('status-line').boundingBox();
  const charts = await page.getByTestId('charts-area').boundingBox();
  expect(status && charts && status.y < charts.y).toBe(true);
  await page.screenshot({ path: test.info().outputPath('main-view.png'), fullPage: true });
  expect(problems).toEqual([]);
});

test('auto chooses WASM over the SwiftShader adapter and says why', async ({ page }) => {
  await page.goto('/');
  const status = page.getByTestId('backend-status');
  await expect(status).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });
  // Plain words first; the reasons on demand.
  await expect(status).toHaveText('Training on your processor (WebAssembly); the GPU was not used');
  await expect(page.getByTestId('backend-details')).toHaveCount(0);
  await page.getByTestId('backend-why').click();
  await expect(page.getByTestId('backend-details')).toContainText(
    'renders in software (correct but slow): not chosen over WASM',
  );
  await expect(page.getByTestId('gpu-adapter')).toContainText(/swiftshader/i);
});

test('a forced webgpu: start-up compiles its shaders with a progress line, a 1-layer transformer trained in the worker matches CPU within 1e-4 over 3 Adam steps, and Stop ends a compiling run in seconds', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const phases = new Set<string>();
  await page.exposeFunction('notePhase', (p: string) => phases.add(p));
  await page.addInitScript(() => {
    // Every phase the start-up line passes through, however briefly it shows.
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="startup-status"]');
      const phase = el?.getAttribute('data-phase');
      if (phase) (window as unknown as { notePhase(p: string): void }).notePhase(phase);
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  // Forced: 'auto' never picks the software adapter (it takes WASM), so nothing would compile.
  await page.goto('/#backend=webgpu');
  const line = page.getByTestId('startup-status');
  await expect(line).toHaveAttribute('data-phase', 'done', { timeout: 100_000 });
  const startup = (await line.textContent()) ?? '';
  expect(startup).toMatch(/WebGPU shaders ready: \d+ compiled/);
  expect(Number(/ready: (\d+)/.exec(startup)?.[1])).toBeGreaterThan(10);
  expect(phases.has('compile')).toBe(true);
  await expect(page.getByTestId('backend-status')).toHaveAttribute('data-backend', 'webgpu', {
    timeout: 60_000,
  });
  await page.getByTestId('btn-self-check').click();
  const result = page.getByTestId('self-check-result');
  await expect(result).toBeVisible({ timeout: 110_000 });
  const text = await result.textContent();
  expect(text).toMatch(/webgpu: .* \| cpu: /);
  const diff = Number(await result.getAttribute('data-max-diff'));
  expect(Number.isFinite(diff)).toBe(true);
  expect(diff).toBeLessThan(1e-4);
  // Three losses per backend, and training moved them.
  const webgpuLosses = (text ?? '')
    .split('|')[0]!
    .match(/-?\d+\.\d+/g)!
    .map(Number);
  expect(webgpuLosses).toHaveLength(3);
  expect(webgpuLosses[2]).not.toBe(webgpuLosses[0]);

  // Forced onto a software adapter, the page warns before Start.
  await expect(page.getByTestId('software-gpu-warning')).toContainText('renders in software');
  // Started anyway, a run's first iteration compiles its kernels for minutes; Stop ends it in seconds.
  await page.getByTestId('preset-tiny').click();
  await page.getByTestId('backend-override').selectOption('webgpu');
  await page.getByTestId('btn-start').click();
  const phase = page.getByTestId('phase');
  await expect(phase).toHaveAttribute('data-phase', 'compiling', { timeout: 60_000 });
  await expect(phase).toContainText(/\d+ compiled so far/, { timeout: 15_000 });
  const pressed = Date.now();
  await page.getByTestId('btn-stop').click();
  await expect(phase).toHaveAttribute('data-phase', 'finished', { timeout: 20_000 });
  expect(Date.now() - pressed).toBeLessThan(20_000);
  await expect(page.getByTestId('notice')).toContainText('restarting the train worker');
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 30_000 });
});

test('an invalid setting is named at the field and blocks Start', async ({ page }) => {
  await page.goto('/');
  // Typed once the page has settled (the base models known, Start on): an edit made while they
  // load was seen to be lost under load (the full suite, once), which is a note, not this test.
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 30_000 });
  const groups = page.getByTestId('field-groups');
  await groups.fill('0');
  await expect(page.getByTestId('field-error-groups')).toContainText('at least 1');
  await expect(page.getByTestId('btn-start')).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toContainText('Groups (P)');
  await groups.fill('4');
  await expect(page.getByTestId('btn-start')).toBeEnabled();
});

test('the URL hash holds the setup and restores it after a reload', async ({ page }) => {
  await page.goto('/');
  await page.getByTestId('field-seed').fill('1234');
  await page.getByTestId('field-algorithm').selectOption('starpo-grpo');
  await expect(page).toHaveURL(/seed=1234/);
  await page.reload();
  await expect(page.getByTestId('field-seed')).toHaveValue('1234');
  await expect(page.getByTestId('field-algorithm')).toHaveValue('starpo-grpo');
});

test('a link with bad settings keeps its valid fields, names every bad one, and stays as typed', async ({
  page,
}) => {
  await page.goto('/#seed=7&lr=banana&colour=red&env=minigrid/NoSuchRoom');
  await expect(page.getByTestId('hash-error')).toContainText('lr');
  await expect(page.getByTestId('hash-error')).toContainText('"banana" is not a number');
  await expect(page.getByTestId('hash-error')).toContainText('colour');
  await expect(page.getByTestId('hash-error')).toContainText('env');
  await expect(page.getByTestId('field-seed')).toHaveValue('7');
  // A rejected value never enters the form: the fields show what would run (the preset's).
  await expect(page.getByTestId('field-lr')).not.toHaveValue('banana');
  await expect(page.getByTestId('field-error-lr')).toHaveCount(0);
  await expect(page.getByTestId('field-error-env')).toHaveCount(0);
  await expect(page.getByTestId('btn-start')).toBeEnabled({ timeout: 60_000 });
  // The link is left as typed until the user changes something.
  await page.waitForTimeout(500);
  expect(page.url()).toContain('lr=banana');
  await page.getByTestId('field-seed').fill('8');
  await expect(page.getByTestId('hash-error')).toHaveCount(0);
  await expect(page).toHaveURL(/seed=8/);
  await expect(page).not.toHaveURL(/banana/);
  // A hash edited in the open tab is loaded like a link.
  await page.evaluate(() => {
    window.location.hash = '#seed=99&lr=0.0002';
  });
  await expect(page.getByTestId('field-seed')).toHaveValue('99');
  await expect(page.getByTestId('field-lr')).toHaveValue('0.0002');
});
