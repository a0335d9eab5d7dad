// How often each detector signal fired where it should not and how early it came where it should:
// on a round's frozen null (a policy that cannot move: every firing is a false alarm), on its
// holding learner (RAGEN's precursors can appear in a run that never falls), and in its trapped
// runs (fired at or before the collapse, with the lead). `starpo round report --warnings` writes
// the file the playground ships (public/study/warnings.json); the early-warning banner shows only
// signals whose false-alarm rate on the frozen null was measured at most 1 in 16.
import { z } from 'zod';

export const WARNING_RATES_FORMAT = 'starpo-warning-rates';

/** The banner's bar: at most this share of frozen runs fired, measured on at least MIN_FROZEN_RUNS. */
export const MAX_FROZEN_RATE = 1 / 16;
export const MIN_FROZEN_RUNS = 16;
/** … and at most this share of a learner that held, where one was measured (round 13: 2 of 16). */
export const MAX_HOLD_RATE = 2 / 16;

const count = z.number().int().nonnegative();

const rateSchema = z.object({
  signal: z.string().min(1),
  kind: z.enum(['warning', 'context']),
  /** Null where a frozen control cannot measure it (held-out success cannot move when nothing learns). */
  frozenFired: count.nullable(),
  frozenRuns: count,
  holdFired: count,
  holdRuns: count,
  /** Trapped runs in which it fired at or before the collapse, of `trappedRuns`. */
  beforeFall: count,
  trappedRuns: count,
  /** Mean iterations between its first firing and the collapse, over `beforeFall` runs. */
  meanLead: z.number().nullable(),
});

const fileSchema = z.object({
  format: z.literal(WARNING_RATES_FORMAT),
  version: z.literal(1),
  /** Which runs measured it, in words (round, shape, seeds). */
  source: z.string().min(1),
  rates: z.array(rateSchema),
});

export type SignalRate = z.infer<typeof rateSchema>;
export type WarningRates = z.infer<typeof fileSchema>;

export function parseWarningRates(json: unknown): WarningRates {
  return fileSchema.parse(json);
}

/**
 * Whether the banner may show the signal, as its record earns it: it fired before the fall in
 * most trapped runs, its false-alarm rate on the frozen null is measured and low, and it fired
 * rarely in a learner that held (where one was measured). The others stay in the charts' context.
 */
export function shownInBanner(r: SignalRate | undefined): boolean {
  return (
    r !== undefined &&
    r.frozenFired !== null &&
    r.frozenRuns >= MIN_FROZEN_RUNS &&
    r.frozenFired / r.frozenRuns <= MAX_FROZEN_RATE &&
    r.trappedRuns > 0 &&
    2 * r.beforeFall > r.trappedRuns &&
    (r.holdRuns === 0 || r.holdFired / r.holdRuns <= MAX_HOLD_RATE)
  );
}

/** One sentence of a signal's record, for the banner. */
export function rateText(r: SignalRate): string {
  const frozen =
    r.frozenFired === null
      ? 'not measurable on a frozen policy'
      : `${r.frozenFired} of ${r.frozenRuns} frozen runs`;
  const hold =
    r.holdRuns === 0
      ? ' (no learner that held has been measured at this setting)'
      : ` and in ${r.holdFired} of ${r.holdRuns} runs of a learner that held`;
  const lead =
    r.trappedRuns === 0
      ? 'no trapped run to measure its lead on'
      : `before the fall in ${r.beforeFall} of ${r.trappedRuns} trapped runs${r.meanLead !== null ? `, on average ${r.meanLead.toFixed(0)} iterations ahead` : ''}`;
  return `It fired in ${frozen}${hold}; ${lead}.`;
}
