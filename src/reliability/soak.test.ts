// The short soak in CI: 50 iterations on the nano model (WASM backend, as the CLI's default;
// the CPU backend is ~8× slower) with the soak's tiny rollouts and GRPO (no critic, to keep it
// short); tensor count and tensor bytes must be flat after the warm-up, nothing outlives the
// run, and the heap stays within its bound. The full 1,000 iterations with the critic:
// `npm run starpo -- soak`. Also: the GPU plateau rule on hand-made series, and a short soak on
// WebGPU in Node (a child process on Dawn with the SwiftShader Vulkan driver, as the kernel check
// does; skipped, saying why, where no SwiftShader ICD is installed). The software adapter is slow
// (a minute for the first iteration while ~110 shaders compile, then ~25 s of CPU per iteration),
// so that soak runs the fewest iterations the command takes: 2, the first being the warm-up —
// still ~90 s, so it runs only when STARPO_WEBGPU_SOAK=1 is set (kept out of the default suite's
// time budget; the plateau rule itself is tested on hand-made series below, always).
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runGpuChild, swiftshaderIcd } from '../bench/nodeGpu.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { GPU_PLATEAU_MIN_TOLERANCE, gpuPlateau, runSoak, type SoakReport, soakWindow } from './soak.js';

beforeAll(async () => {
  await setupNodeBackend('wasm');
});

describe('soak (short)', () => {
  it('50 iterations keep the tensor count flat and the heap bounded', async () => {
    const counts: number[] = [];
    const r = await runSoak({
      iterations: 50,
      env: 'frozenlake/FrozenLake-4x4-det',
      algorithm: 'starpo-grpo',
      seed: 1,
      onIteration: (_, s) => counts.push(s.numTensors),
    });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.iterations).toBe(50);
    expect(counts).toHaveLength(50);
    // No GPU figures off webgpu.
    expect(r.gpuBytes).toBeNull();
    expect(r.end.gpuBytesAllocated).toBeNull();
    expect(r.end.gpuBytesInUse).toBeNull();
    // Flat from the warm-up on, and the count is the live run's (not a trivially empty one).
    expect(new Set(counts.slice(5)).size).toBe(1);
    expect(counts[49]).toBeGreaterThan(50);
    expect(r.leakedTensors).toBe(0);
    expect(r.faults).toBe(0);
  }, 240_000);
});

const MiB = 1024 * 1024;

describe('GPU plateau rule', () => {
  it('windows are a quarter of the samples, from 3 to 50', () => {
    expect(soakWindow(0)).toBe(3);
    expect(soakWindow(7)).toBe(3);
    expect(soakWindow(40)).toBe(10);
    expect(soakWindow(495)).toBe(50);
  });

  it('passes a pool that grows to its working set and stops', () => {
    // 40 samples: three steps up in the first window, then flat with one dip (buffers destroyed).
    const series = [
      20 * MiB,
      23 * MiB,
      24 * MiB,
      ...Array.from({ length: 37 }, (_, i) => (i === 20 ? 23 : 24) * MiB),
    ];
    const p = gpuPlateau(series);
    expect(p).toEqual({
      firstWindowMax: 24 * MiB,
      lastWindowMax: 24 * MiB,
      toleranceBytes: GPU_PLATEAU_MIN_TOLERANCE,
      ok: true,
    });
  });

  it('fails a steady climb', () => {
    // +100 KB per iteration over 40 samples: window 10, first max at i = 9, last at i = 39.
    const series = Array.from({ length: 40 }, (_, i) => 24_000_000 + i * 100_000);
    const p = gpuPlateau(series);
    expect(p.firstWindowMax).toBe(24_900_000);
    expect(p.lastWindowMax).toBe(27_900_000);
    expect(p.toleranceBytes).toBe(MiB); // 2 % of 24.9 MB is below the 1 MiB floor
    expect(p.ok).toBe(false);
  });

  it('allows exactly the tolerance: 1 MiB floor, else 2 % of the first window', () => {
    const flat = (a: number, b: number) => [a, a, a, b, b, b];
    expect(gpuPlateau(flat(10 * MiB, 11 * MiB), 3).ok).toBe(true);
    expect(gpuPlateau(flat(10 * MiB, 11 * MiB + 1), 3).ok).toBe(false);
    // 200 MiB first window: tolerance 4 MiB.
    expect(gpuPlateau(flat(200 * MiB, 204 * MiB), 3)).toMatchObject({ toleranceBytes: 4 * MiB, ok: true });
    expect(gpuPlateau(flat(200 * MiB, 204 * MiB + 1), 3).ok).toBe(false);
    expect(gpuPlateau([]).ok).toBe(true);
  });
});

/** The soak runs as the `starpo soak` command would. */
const CLI_MAIN = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
const icd = swiftshaderIcd();
const optedIn = process.env.STARPO_WEBGPU_SOAK === '1';
// A skip says why, in the output and in the suite's name (the reporters list it with the count).
const skipped = !optedIn
  ? ' — skipped: set STARPO_WEBGPU_SOAK=1 to run it (~90 s)'
  : !icd
    ? ' — skipped: no SwiftShader Vulkan ICD (set STARPO_VK_ICD)'
    : '';
if (skipped) console.log(`soak.test: webgpu soak${skipped}`);

describe.skipIf(skipped !== '')(`soak on WebGPU (Node, software adapter)${skipped}`, () => {
  it('2 iterations report GPU bytes and pass', async () => {
    const r = (await runGpuChild(
      ['soak', '--backend', 'webgpu', '--iters', '2', '--env', 'frozenlake/FrozenLake-4x4-det', '--quiet'],
      icd as string,
      () => {},
      290_000,
      CLI_MAIN,
    )) as SoakReport;
    expect(r.backend).toBe('webgpu');
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.iterations).toBe(2);
    expect(r.leakedTensors).toBe(0);
    const g = r.gpuBytes;
    expect(g).not.toBeNull();
    if (!g) return;
    // The pool holds at least the live tensors' buffers, and the figures agree with the samples.
    expect(g.baseline).toBe(r.baseline.gpuBytesAllocated);
    expect(g.end).toBe(r.end.gpuBytesAllocated);
    expect(g.max).toBeGreaterThanOrEqual(Math.max(g.baseline, g.end));
    expect(g.inUseEnd).toBe(r.end.gpuBytesInUse);
    expect(g.inUseEnd).toBeGreaterThan(0);
    expect(g.end).toBeGreaterThanOrEqual(g.inUseEnd);
    expect(g.ok).toBe(true);
  }, 300_000);
});
