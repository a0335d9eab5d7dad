// `npm run bench -- --quick` end to end in-process: the JSON it writes must satisfy the results
// schema and the bookkeeping invariants (every env family once, the iteration split adding up to
// the iteration time, one memory point per iteration, the same kernel graph on cpu and wasm).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchResults } from '../../bench/schema.js';
import { envIds, envSpec } from '../../envs/registry.js';
import { runCommand, usageErrorOf } from '../testing.js';
import { benchCommand } from './bench.js';

describe('bench --quick', () => {
  it('writes results.json with the full schema and consistent figures', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'bench-')), 'results.json');
    const r = await runCommand(benchCommand, ['--quick', '--out', out]);
    expect(r.stderr).not.toContain('starpo bench:');
    expect(r.code).toBe(0);
    const results = benchResults.parse(JSON.parse(readFileSync(out, 'utf8')));
    expect(results.quick).toBe(true);

    const families = new Set(envIds().map((id) => envSpec(id).family));
    expect(results.envs.map((e) => e.family).sort()).toEqual([...families].sort());

    const { split, iterations, perIteration } = results.iteration;
    expect(perIteration).toHaveLength(iterations);
    for (const s of perIteration) {
      const parts = s.rolloutMs + s.envMs + s.scoringMs + s.updateMs + s.metricsMs;
      expect(Math.abs(parts - s.totalMs)).toBeLessThan(1);
      expect(s.updateMs).toBeGreaterThan(0); // the first gradient marks where scoring ends
    }
    expect(split.totalMs).toBeGreaterThan(0);
    expect(results.memory.numTensors).toHaveLength(iterations);

    const kernels = results.dispatch.filter((d) => d.kind === 'trainingStep');
    expect(kernels.map((d) => d.backend).sort()).toEqual(['cpu', 'wasm']);
    expect(kernels[0]?.unfused).toBeGreaterThan(100);
    // Nearly the same graph on both: wasm adds explicit transposes before its matrix products and
    // writes GELU's cube as two products (core/model/matmul.ts), a few percent more or fewer kernels.
    const [cpuK, wasmK] = [kernels[0]?.unfused as number, kernels[1]?.unfused as number];
    expect(Math.abs(cpuK - wasmK) / cpuK).toBeLessThan(0.1);

    expect(results.rollout.map((x) => x.backend).sort()).toEqual(['cpu', 'wasm']);
    // The roofline (issue 22): a matrix rate per backend and the three phases against it.
    const roofline = results.roofline?.rows ?? [];
    expect(roofline.map((x) => x.backend).sort()).toEqual(['cpu', 'wasm']);
    for (const row of roofline) {
      expect(row.software).toBe(false);
      expect(row.matmul.gflops).toBeGreaterThan(0);
      expect(row.phases.map((p) => p.phase)).toEqual(['trainingStep', 'scoring', 'decoding']);
      for (const p of row.phases) expect(p.share).toBeCloseTo(p.gflops / row.matmul.gflops, 1);
    }
    expect(r.stdout).toContain('Roofline');
    // Issue 22's cheaper passes have no "off" any more: no same-run before/after section.
    expect(results.beforeAfter ?? null).toBeNull();
    expect(results.wasmThreads ?? null).toBeNull();
    expect(results.probe.filter((p) => p.msPerStep !== null)).toHaveLength(2);
    expect(results.backends.find((b) => b.backend === 'webgpu')?.available).toBe(false);
    expect(results.targets.map((t) => t.met)).toContain(results.memory.flat);
    // --quick skips the preset timing: its target is reported as not measured.
    expect(results.preset).toBeNull();
    const byName = (s: string) => results.targets.find((t) => t.name.includes(s));
    expect(byName('preset: 200 iterations')).toMatchObject({ value: null, met: null });
    const env = byName('MiniGrid text steps/s');
    const minigrid = Math.min(
      ...results.envs.filter((e) => e.family.startsWith('minigrid/')).map((e) => e.stepsPerSec),
    );
    expect(env?.value).toBeCloseTo(minigrid / 3500, 1);
    expect(env?.met).toBe(minigrid >= 175_000);
    // WebShop-lite: the SFT step both ways, the word vocabulary far larger than the pieces one;
    // --quick skips the preset's RL iterations.
    expect(results.webshop?.sft.map((x) => x.variant)).toEqual(['words-full', 'pieces-targets']);
    const [words, pieces] = results.webshop?.sft ?? [];
    expect(words?.vocabulary).toBeGreaterThan(2 * (pieces?.vocabulary ?? 0));
    expect(pieces?.steps).toBe(1);
    expect(results.webshop?.iteration).toBeNull();
    expect(r.stdout).toContain('WebShop-lite SFT step');
    expect(byName('share of the same-run 2-D matMul rate')?.value).toBeGreaterThan(0);
    expect(r.stdout).toContain('Trainer iteration');
    expect(r.stdout).toContain('Targets (reported, not asserted)');
  }, 120_000);

  it('names unusable flags', async () => {
    expect(await usageErrorOf(benchCommand, ['--sizes', 'huge'])).toContain('unknown size "huge"');
    expect(await usageErrorOf(benchCommand, ['--backends', 'webgl'])).toContain('unknown backend "webgl"');
    expect(await usageErrorOf(benchCommand, ['--only', 'gpu'])).toMatch(
      /"webshop" .*, "frozen-control" .*, "checkpoint" .*, "schedule" .* or "throughput"/,
    );
    // A section alone updates an existing results file, and says so when there is none.
    const missing = join(mkdtempSync(join(tmpdir(), 'starpo-bench-')), 'none.json');
    expect(await usageErrorOf(benchCommand, ['--only', 'frozen-control', '--out', missing])).toMatch(
      /--only frozen-control updates an existing results file/,
    );
  });
});
