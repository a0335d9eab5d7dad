// The echo-trap study's reference bands (issue 8): per env, per algorithm and per chart metric,
// the mean over seeds and a min–max band, iteration by iteration, thinned to at most
// MAX_BAND_POINTS. The study command writes the file (public/study/echo-trap.json); the
// playground draws it faintly behind a live run. One zod schema serves both sides, so a
// malformed file is refused with the field that is wrong.
import { z } from 'zod';
import type { Config } from '../config.js';
import { mean } from '../stats.js';
import { ALGORITHMS } from '../variants/algorithms.js';
import type { MetricRow } from './keys.js';

/** The file's format tag. */
export const STUDY_BANDS_FORMAT = 'starpo-study-bands';

/** Most points per band (the writer thins longer series). */
export const MAX_BAND_POINTS = 200;

/** Metrics the file carries bands for (those the playground's charts draw first). */
export const BAND_METRICS = [
  'rollout/successRate',
  'eval/successRate',
  'rollout/inGroupRewardStd',
  'actor/entropy',
] as const;

/** The algorithms the file carries (one per family), with the family's name. */
export const BAND_FAMILIES = [
  { algo: 'starpo-ppo', label: 'StarPO' },
  { algo: 'starpo-s', label: 'StarPO-S' },
] as const;

/** One metric's band: parallel arrays, iterations strictly increasing, lo ≤ mean ≤ hi. */
export interface Band {
  iteration: number[];
  mean: number[];
  lo: number[];
  hi: number[];
}

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

const bandSchema = z
  .object({
    iteration: z.array(z.number().int().min(0)).min(1).max(MAX_BAND_POINTS),
    mean: z.array(finite),
    lo: z.array(finite),
    hi: z.array(finite),
  })
  .superRefine((b, ctx) => {
    const n = b.iteration.length;
    for (const k of ['mean', 'lo', 'hi'] as const) {
      if (b[k].length !== n)
        ctx.addIssue({ code: 'custom', path: [k], message: `has ${b[k].length} values, iteration has ${n}` });
    }
    for (let i = 1; i < n; i++) {
      if ((b.iteration[i] as number) <= (b.iteration[i - 1] as number)) {
        ctx.addIssue({ code: 'custom', path: ['iteration', i], message: 'iterations must increase' });
        return;
      }
    }
    for (let i = 0; i < n; i++) {
      const [lo, m, hi] = [b.lo[i], b.mean[i], b.hi[i]];
      if (lo !== undefined && m !== undefined && hi !== undefined && !(lo <= m && m <= hi)) {
        ctx.addIssue({ code: 'custom', path: ['lo', i], message: 'lo ≤ mean ≤ hi does not hold' });
        return;
      }
    }
  });

const algoBandsSchema = z.object({
  seeds: z.number().int().min(1),
  variant: z.string().min(1),
  config: z.object({
    groups: z.number().int().positive(),
    groupSize: z.number().int().positive(),
    lr: z.number().positive(),
    stepsPerIteration: z.number().int().min(0),
    iterations: z.number().int().positive(),
  }),
  metrics: z.record(z.string(), bandSchema),
});

export const studyBandsSchema = z.object({
  format: z.literal(STUDY_BANDS_FORMAT),
  version: z.literal(1),
  study: z.string().min(1),
  envs: z.record(z.string(), z.record(z.string(), algoBandsSchema)),
});

export type StudyBands = z.infer<typeof studyBandsSchema>;
export type AlgoBands = z.infer<typeof algoBandsSchema>;

/** Validates a parsed band file; throws a message naming the bad field. */
export function parseStudyBands(json: unknown): StudyBands {
  const r = studyBandsSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    const at = i?.path.map(String).join('.') || '(top level)';
    throw new Error(`study bands: ${at}: ${i?.message ?? 'invalid'}`);
  }
  return r.data;
}

type BandFamily = (typeof BAND_FAMILIES)[number];

/**
 * The family whose study band a run of `algo` is compared with: the one whose algorithm runs the
 * same rollout filter (StarPO-S's subsample for starpo-s and starpo-s+), else StarPO's.
 */
export function bandFamilyOf(algo: string): BandFamily {
  const filter = ALGORITHMS[algo as Config['algorithm']]?.switches.filterMode;
  const same = BAND_FAMILIES.find((f) => ALGORITHMS[f.algo].switches.filterMode === filter);
  return same ?? (BAND_FAMILIES[0] as BandFamily);
}

/** Mean, min and max over seeds at every iteration any seed measured `key`. */
export function bandOf(seeds: readonly (readonly MetricRow[])[], key: string): Band {
  const at = new Map<number, number[]>();
  for (const rows of seeds) {
    for (const row of rows) {
      const v = (row as Record<string, number | undefined>)[key];
      if (v === undefined || !Number.isFinite(v)) continue;
      at.set(row.iteration, [...(at.get(row.iteration) ?? []), v]);
    }
  }
  const band: Band = { iteration: [], mean: [], lo: [], hi: [] };
  for (const it of [...at.keys()].sort((a, b) => a - b)) {
    const vs = at.get(it) as number[];
    band.iteration.push(it);
    band.mean.push(mean(vs));
    band.lo.push(Math.min(...vs));
    band.hi.push(Math.max(...vs));
  }
  return band;
}

/**
 * At most `max` points (≥ 3): the first and last points as they are, the rest in equal buckets
 * whose point is the middle iteration, the mean of means and the envelope (min of lo, max of hi).
 */
export function thinBand(b: Band, max = MAX_BAND_POINTS): Band {
  if (max < 3) throw new Error(`thinBand: max must be at least 3, got ${max}`);
  const n = b.iteration.length;
  if (n <= max) return b;
  const out: Band = { iteration: [], mean: [], lo: [], hi: [] };
  const push = (from: number, to: number) => {
    const idx = Array.from({ length: to - from }, (_, i) => from + i);
    out.iteration.push(b.iteration[idx[Math.floor((idx.length - 1) / 2)] as number] as number);
    out.mean.push(idx.reduce((a, i) => a + (b.mean[i] as number), 0) / idx.length);
    out.lo.push(Math.min(...idx.map((i) => b.lo[i] as number)));
    out.hi.push(Math.max(...idx.map((i) => b.hi[i] as number)));
  };
  push(0, 1);
  const inner = n - 2;
  const buckets = max - 2;
  for (let k = 0; k < buckets; k++) {
    const from = 1 + Math.floor((k * inner) / buckets);
    const to = 1 + Math.floor(((k + 1) * inner) / buckets);
    if (to > from) push(from, to);
  }
  push(n - 1, n);
  return out;
}

/** Rounds to 4 significant digits, so the file stays small. */
function round4(v: number): number {
  return v === 0 ? 0 : Number(v.toPrecision(4));
}

/** The entry of one algorithm: its seeds' rows and the config the runs shared. */
export function algoBands(
  seeds: readonly (readonly MetricRow[])[],
  config: Pick<Config, 'groups' | 'groupSize' | 'lr' | 'stepsPerIteration' | 'iterations'>,
  variant: string,
  keys: readonly string[] = BAND_METRICS,
): AlgoBands {
  const metrics: Record<string, Band> = {};
  for (const key of keys) {
    const b = thinBand(bandOf(seeds, key));
    if (b.iteration.length === 0) continue;
    metrics[key] = {
      iteration: b.iteration,
      mean: b.mean.map(round4),
      lo: b.lo.map(round4),
      hi: b.hi.map(round4),
    };
  }
  const { groups, groupSize, lr, stepsPerIteration, iterations } = config;
  return {
    seeds: seeds.length,
    variant,
    config: { groups, groupSize, lr, stepsPerIteration, iterations },
    metrics,
  };
}

/** "8 seeds, 8 × 8 rollouts, lr 0.005, 4 steps/iter" — the legend's line for one band. */
export function bandConfigText(a: AlgoBands): string {
  const c = a.config;
  const steps = c.stepsPerIteration === 0 ? 'steps by minibatch' : `${c.stepsPerIteration} steps/iter`;
  return `${a.seeds} seed${a.seeds === 1 ? '' : 's'}, ${c.groups} × ${c.groupSize} rollouts, lr ${c.lr}, ${steps}`;
}
