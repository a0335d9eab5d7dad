// Issue 22's targets and ratios from one bench run: the echo-trap preset iteration ≤ 1.5 s on
// WASM (2× the issue's 3.1 s), decoding ≥ 3× the tokens/s of before, and the training step at
// ≥ 50% of the same-run 2-D matrix rate. Every timing on this shared 2-core machine moves with
// the load, so each target that compares with "before" has two forms: against the figures
// bench/results.json held before the issue's work (BEFORE_ISSUE_22: another run, another load),
// and against the same work with the cheaper passes switched off in the same run (the
// load-independent ratio). The switches and the old paths behind them were retired once that
// ratio was recorded (CHEAPER_PASSES_RECORDED): a results file that still has its `beforeAfter`
// section is read from it, a newer one reports the recorded figure as such. A missed target
// says by how much.
import type { BenchResults, Measured } from './schema.js';

/** bench/results.json before issue 22 (full run of 2026-11-30T10:33Z, 2 cores, wasm, nano). */
export const BEFORE_ISSUE_22 = {
  createdAt: '2026-11-30T10:33:54.799Z',
  /** Batched decoding, 64 rows, 64-token prompts + 16 new tokens, KV cache. */
  decodeTokensPerSec: 3766,
  /** The echo-trap preset, mean of 5 timed iterations. */
  presetSecondsPerIteration: 5.215,
  presetSplit: { rolloutMs: 772.8, envMs: 0.9, scoringMs: 1381.2, updateMs: 2868.4, metricsMs: 191.7 },
  /** One training step, 8 × 128 tokens, and one scoring call of 16 rows. */
  stepMs: 148.0,
  scoreMs: 67.6,
} as const;

/**
 * The last same-run before/after figures (bench/results.json of 2026-12-02T02:06Z, 2 cores,
 * wasm, nano): the echo-trap preset 11.13 → 5.77 s an iteration, decoding 64 rows 2,064 → 2,986
 * tokens/s. The old paths were retired after it, so no later run can measure the ratio again.
 */
export const CHEAPER_PASSES_RECORDED = {
  createdAt: '2026-12-02T02:06:05.045Z',
  presetSpeedup: 1.93,
  decodingSpeedup: 1.45,
} as const;

/** The issue's numbers. */
export const TARGETS = {
  presetSeconds: 1.5,
  presetSpeedup: 2,
  decodeSpeedup: 3,
  trainingShare: 0.5,
} as const;

type Target = BenchResults['targets'][number];

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** "missed by …" for an at-least target. */
function shortBy(value: number, wanted: number, unit: string): string {
  return `missed by ${round(wanted - value)}${unit}: ${round(value / wanted)} of the target`;
}

/** An at-least speed-up target ("× "): met or not, and by how much when missed; null: not measured. */
function speedupTarget(name: string, value: number | null, wanted: number): Target {
  return {
    name,
    target: `>= ${wanted}x`,
    value,
    met: value === null ? null : value >= wanted,
    ...(value !== null && value < wanted ? { note: shortBy(value, wanted, '×') } : {}),
  };
}

/** The decoding row the targets read: wasm, nano, the most rows. */
function decodeRow(m: Measured) {
  return m.rollout
    .filter((r) => r.backend === 'wasm' && r.size === 'nano')
    .sort((a, b) => b.rows - a.rows)[0];
}

export function speedTargets(m: Measured): Target[] {
  const out: Target[] = [];
  const p = m.preset;
  const t = TARGETS.presetSeconds;
  out.push({
    name: `${p?.preset ?? 'echo-trap'} preset: seconds per iteration on ${p?.backend ?? 'wasm'} (this run's load)`,
    target: `<= ${t}`,
    value: p ? round(p.secondsPerIteration) : null,
    met: p ? p.secondsPerIteration <= t : null,
    ...(p && p.secondsPerIteration > t
      ? {
          note: `missed by ${round(p.secondsPerIteration - t)} s (${round(p.secondsPerIteration / t)}× the target; before: ${BEFORE_ISSUE_22.presetSecondsPerIteration} s)`,
        }
      : {}),
  });
  const recorded = m.beforeAfter
    ? ''
    : ` (recorded ${CHEAPER_PASSES_RECORDED.createdAt.slice(0, 10)}; the old paths are retired)`;
  const presetSpeedup = m.beforeAfter
    ? (m.beforeAfter.preset?.speedup ?? null)
    : CHEAPER_PASSES_RECORDED.presetSpeedup;
  out.push(
    speedupTarget(
      `echo-trap preset iteration: cheaper passes off ÷ on, same run${recorded}`,
      presetSpeedup,
      TARGETS.presetSpeedup,
    ),
  );
  const d = decodeRow(m);
  const vsBefore = d ? round(d.cachedTokensPerSec / BEFORE_ISSUE_22.decodeTokensPerSec) : null;
  out.push(
    speedupTarget(
      `decoding tokens/s (wasm, nano, ${d?.rows ?? 64} rows) ÷ before (${BEFORE_ISSUE_22.decodeTokensPerSec}/s, another run and load)`,
      vsBefore,
      TARGETS.decodeSpeedup,
    ),
  );
  const decSpeedup = m.beforeAfter
    ? (m.beforeAfter.decoding?.speedup ?? null)
    : CHEAPER_PASSES_RECORDED.decodingSpeedup;
  out.push(
    speedupTarget(
      `decoding tokens/s: cheaper decoding on ÷ off, same run${recorded}`,
      decSpeedup,
      TARGETS.decodeSpeedup,
    ),
  );
  const row = m.roofline?.rows.find((r) => r.backend === 'wasm');
  const step = row?.phases.find((x) => x.phase === 'trainingStep' && x.size === 'nano');
  out.push({
    name: `training step (wasm, nano, ${step?.shape ?? '8×128'}): share of the same-run 2-D matMul rate`,
    target: `>= ${TARGETS.trainingShare}`,
    value: step ? round(step.share, 3) : null,
    met: step ? step.share >= TARGETS.trainingShare : null,
    ...(step && step.share < TARGETS.trainingShare
      ? {
          note: `missed by ${round(TARGETS.trainingShare - step.share, 3)}: ${round(step.gflops, 1)} of ${round(row?.matmul.gflops ?? 0, 1)} GFLOP/s`,
        }
      : {}),
  });
  return out;
}

/** Ratios of issue 22: roofline shares, threads on/off, cheaper passes on/off. */
export function speedRatios(m: Measured): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const r of m.roofline?.rows ?? [])
    for (const p of r.phases) out[`rooflineShare.${r.backend}.${p.phase}.${p.size}`] = p.share;
  const w = m.wasmThreads?.result;
  if (w) for (const [k, v] of Object.entries(w.speedup)) out[`wasmThreadsSpeedup.${k}`] = v;
  if (m.beforeAfter?.preset) out['cheaperPasses.presetIteration'] = m.beforeAfter.preset.speedup;
  if (m.beforeAfter?.decoding) out['cheaperPasses.decoding'] = m.beforeAfter.decoding.speedup;
  return out;
}
