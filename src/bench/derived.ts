// The derived part of bench/results.json: the ratios between backends and paths of one run, and
// the targets of issue 9 (with issue 22's from perfTargets.ts), which are reported, never
// asserted (no timing assertions, least of all on software adapters). Apart from schema.ts, so
// that the shape does not import the targets that read it.
import { speedRatios, speedTargets } from './perfTargets.js';
import type { BenchResults, Measured } from './schema.js';

const ratio = (a: number | undefined, b: number | undefined): number | null =>
  a !== undefined && b !== undefined && b > 0 ? Math.round((100 * a) / b) / 100 : null;

/** Ratios between backends and against the naive paths, all from the same run. */
export function deriveRatios(m: Measured): Record<string, number | null> {
  const step = (b: string, s: string) => m.model.find((r) => r.backend === b && r.size === s)?.stepMs;
  const out: Record<string, number | null> = {
    envPerTurnVsPerStepMessage: ratio(m.envPath.perTurnStepsPerSec, m.envPath.perStepStepsPerSec),
  };
  for (const r of m.rollout) out[`rolloutCacheVsNaive.${r.backend}.${r.size}.rows${r.rows}`] = r.cacheSpeedup;
  for (const s of ['nano', 'micro', 'small']) {
    if (step('cpu', s) !== undefined && step('wasm', s) !== undefined)
      out[`updateCpuOverWasm.${s}`] = ratio(step('cpu', s), step('wasm', s));
    if (step('webgpu', s) !== undefined && step('wasm', s) !== undefined)
      out[`updateWebgpuOverWasm.${s}`] = ratio(step('webgpu', s), step('wasm', s));
  }
  for (const d of m.dispatch)
    if (d.reduction !== null) out[`dispatchReduction.${d.kind}.${d.size}`] = d.reduction;
  return { ...out, ...speedRatios(m) };
}

/** The targets with this run's values; null when the run did not measure them. */
export function deriveTargets(m: Measured): BenchResults['targets'] {
  const nano64 = m.rollout
    .filter((r) => r.size === 'nano' && r.rows >= 64)
    .sort((a, b) => b.cacheSpeedup - a.cacheSpeedup)[0];
  const targets: BenchResults['targets'] = [
    {
      name: 'rollout decoding, KV cache vs naive recompute (nano, 64 rows)',
      target: '>= 5x',
      value: nano64?.cacheSpeedup ?? null,
      met: nano64 ? nano64.cacheSpeedup >= 5 : null,
    },
  ];
  for (const s of ['nano', 'micro'] as const) {
    const d = m.dispatch.find((r) => r.backend === 'webgpu' && r.size === s && r.kind === 'trainingStep');
    targets.push({
      name: `fused WebGPU kernels: dispatches per training step (${s})`,
      target: '>= 3x fewer',
      value: d?.reduction ?? null,
      met: d?.reduction != null ? d.reduction >= 3 : null,
    });
  }
  // Upstream Python MiniGrid with text observations: about 3,500 steps/s on a machine like ours.
  const minigrid = m.envs.filter((e) => e.family.startsWith('minigrid/'));
  const slowest = minigrid.length > 0 ? Math.min(...minigrid.map((e) => e.stepsPerSec)) : null;
  targets.push({
    name: 'MiniGrid text steps/s against upstream Python (~3,500/s), slowest family',
    target: '>= 50x',
    value: slowest === null ? null : Math.round(slowest / 350) / 10,
    met: slowest === null ? null : slowest / 3500 >= 50,
  });
  targets.push({
    name: `${m.preset?.preset ?? 'echo-trap'} preset: 200 iterations on ${m.preset?.backend ?? 'wasm'} (seconds, projected from ${m.preset?.iterations ?? 0} iterations)`,
    target: '< 300',
    value: m.preset ? Math.round(m.preset.projected200Seconds) : null,
    met: m.preset ? m.preset.projected200Seconds < 300 : null,
  });
  targets.push(...speedTargets(m));
  targets.push({
    name: `tensor count flat over ${m.memory.iterations} iterations`,
    target: 'growth 0',
    value: m.memory.tensorGrowth,
    met: m.memory.flat,
  });
  return targets;
}
