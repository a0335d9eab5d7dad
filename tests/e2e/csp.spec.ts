// The built app under its Content-Security-Policy (vite.config.ts, docs/security.md): the
// policy is in the page and in the preview's headers, allows no eval or inline script (an
// injected one does not run), and the app still trains a tiny run on WASM in its worker with
// no CSP violation, with the threaded WASM build. shell.spec.ts covers WebGPU in the worker under
// the same policy.
import { expect, test } from '@playwright/test';
import { openTiny, runTinyToStop } from './helpers';

test('the page carries the policy, which allows neither eval nor inline script', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
  const meta = page.locator('meta[http-equiv="Content-Security-Policy"]');
  await expect(meta).toHaveAttribute('content', /default-src 'self'/);
  expect(violations).toEqual([]);
  // An inline <script> (what an HTML injection would add) does not run.
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    document.head.appendChild(s);
  });
  expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected ?? false)).toBe(false);
  // Code from strings stays forbidden: no 'unsafe-eval' (only WASM compilation) and no inline
  // script. (eval from the test itself runs through DevTools, which CSP does not govern.)
  const policy = (await meta.getAttribute('content')) ?? '';
  const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
  expect(scriptSrc.trim()).toBe("script-src 'self' 'wasm-unsafe-eval'");
  expect(response?.headers()['content-security-policy']).toContain(scriptSrc.trim());
});

test('a tiny WASM run trains under the policy with no violation', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await openTiny(page);
  // The page is cross-origin isolated, so the threaded WASM build may start under the policy (its
  // pthreads import the glue script from 'self', workers/wasmThreads.ts); below 4 cores the
  // status line says why it does not.
  await page.getByTestId('backend-why').click();
  await expect(page.getByTestId('backend-details')).toContainText(
    /threads (on \(\d+\)|off: only \d logical cores)/,
  );
  expect(await runTinyToStop(page, 2)).toBeGreaterThanOrEqual(2);
  expect(problems).toEqual([]);
});
