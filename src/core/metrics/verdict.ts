// A run's verdict under the pre-registered collapse rule (detector.ts), in four words a person
// can act on, with the numbers behind it: trapped (rose beyond the noise, then fell back to its
// start or below), collapsed (ended below its start beyond the noise without such a rise), held
// (neither), or too short to judge (fewer iterations than the rule reads). The page's end-of-run
// banner, the Runs list, the seeds side by side and the round's pick rule all read this one:
// the detector's summary carries it (detector.ts), so a stored run keeps the verdict it ended with.

export type Verdict = 'trapped' | 'collapsed' | 'held' | 'too-short';

export const VERDICTS: readonly Verdict[] = ['trapped', 'collapsed', 'held', 'too-short'];

/** What a person reads for each verdict. */
export const VERDICT_LABELS: Readonly<Record<Verdict, string>> = {
  trapped: 'Trapped',
  collapsed: 'Collapsed without a rise',
  held: 'Held',
  'too-short': 'Too short to judge',
};

export interface RunVerdict {
  verdict: Verdict;
  iterations: number;
  /** Iterations the rule needs before it can judge (warm-up + peak window + final window). */
  minIterations: number;
  /** Standard errors the rise and the fall must each exceed. */
  z: number;
  /** Absent when too short to judge. */
  start?: number;
  seStart?: number;
  peak?: number;
  sePeak?: number;
  /** The iteration the peak window ended at. */
  peakIteration?: number;
  /** Mean success over the last `finalWindow` iterations. */
  last?: number;
  seLast?: number;
  riseZ?: number;
  fallZ?: number;
  /** The iteration at which the collapse rule first held (trapped runs). */
  collapseIteration?: number | null;
}

/** What the verdict reads: the collapse rule's reading at the end (null before it can judge). */
export interface VerdictInput {
  reading: {
    start: number;
    seStart: number;
    peak: number;
    sePeak: number;
    peakAt: number;
    now: number;
    seNow: number;
    riseZ: number;
    fallZ: number;
  } | null;
  /** The rule holds at the end (detector summary's echoTrap). */
  trapped: boolean;
  collapseIteration: number | null;
  iterations: number;
  minIterations: number;
  z: number;
}

/** Drops non-finite numbers (they would not survive JSON; the text shows them as "–"). */
const finite = (x: number): number | undefined => (Number.isFinite(x) ? x : undefined);

/** The verdict from the rule's reading at the end of a run. */
export function verdictFrom(v: VerdictInput): RunVerdict {
  const { reading: r, iterations, minIterations, z } = v;
  if (!r) return { verdict: 'too-short', iterations, minIterations, z };
  const fellBelowStart = r.start - r.now > z * Math.hypot(r.seStart, r.seNow);
  const verdict: Verdict = v.trapped ? 'trapped' : fellBelowStart ? 'collapsed' : 'held';
  const out: RunVerdict = { verdict, iterations, minIterations, z, collapseIteration: v.collapseIteration };
  const fields: [keyof RunVerdict, number][] = [
    ['start', r.start],
    ['seStart', r.seStart],
    ['peak', r.peak],
    ['sePeak', r.sePeak],
    ['peakIteration', r.peakAt],
    ['last', r.now],
    ['seLast', r.seNow],
    ['riseZ', r.riseZ],
    ['fallZ', r.fallZ],
  ];
  for (const [k, x] of fields) {
    const f = finite(x);
    if (f !== undefined) (out as unknown as Record<string, number>)[k] = f;
  }
  return out;
}

const pm = (x: number | undefined, se: number | undefined) =>
  `${(x ?? Number.NaN).toFixed(2)} ± ${(se ?? Number.NaN).toFixed(2)}`;

const pct = (x: number | undefined) => `${Math.round(100 * (x ?? Number.NaN))}%`;

/**
 * The verdict as a class reads it: one plain sentence first (what success did, in percent), then
 * the numbers and the rule, and for a run that was not trapped which part of the rule it did not
 * meet. The banner, the Runs list, the seeds side by side and the CLI's summary line all show it.
 */
export function verdictText(v: RunVerdict): string {
  if (v.verdict === 'too-short')
    return `Too short to judge: the rule reads at least ${v.minIterations} iterations and this run has ${v.iterations}.`;
  const numbers = `Start ${pm(v.start, v.seStart)}, peak ${pm(v.peak, v.sePeak)} (iteration ${v.peakIteration}), last 10 ${pm(v.last, v.seLast)} (mean ± standard error); rise ${fmtZ(v.riseZ)} and fall ${fmtZ(v.fallZ)} standard errors.`;
  const rule = `The rule: a rise and a fall each beyond ${v.z} standard errors, and the last 10 at or below the start.`;
  return `${plainSentence(v)} ${numbers} ${rule}${unmet(v)}`;
}

/** What success did, in words and percentages. */
export function plainSentence(v: RunVerdict): string {
  const rose = (v.riseZ ?? 0) > v.z;
  switch (v.verdict) {
    case 'trapped':
      return `Trapped: success rose from ${pct(v.start)} to ${pct(v.peak)}, then fell to ${pct(v.last)} (back to its start at iteration ${v.collapseIteration}).`;
    case 'collapsed':
      return `Collapsed without a rise: success fell from ${pct(v.start)} to ${pct(v.last)} without rising first.`;
    default:
      if (rose && (v.fallZ ?? 0) <= v.z)
        return `Held: it rose and stayed up — success rose from ${pct(v.start)} to ${pct(v.peak)} and ended at ${pct(v.last)}.`;
      if (rose)
        return `Held: it rose and fell back part of the way — success rose from ${pct(v.start)} to ${pct(v.peak)} and ended at ${pct(v.last)}, still above its start.`;
      // Lower as the text shows it (whole percent), not by a rounding error.
      if ((v.start ?? 0) - (v.last ?? 0) >= 0.005)
        return `Held, but it did not learn: success went from ${pct(v.start)} to ${pct(v.last)}, no clear rise and no clear fall.`;
      return `Held: success stayed near ${pct(v.start)} (${pct(v.last)} at the end), no clear rise and no clear fall.`;
  }
}

/** For a run not trapped: the part of the rule it did not meet. */
function unmet(v: RunVerdict): string {
  if (v.verdict === 'trapped') return '';
  const parts: string[] = [];
  if ((v.riseZ ?? 0) <= v.z) parts.push(`its rise (${fmtZ(v.riseZ)}) is not beyond ${v.z}`);
  if ((v.fallZ ?? 0) <= v.z) parts.push(`its fall (${fmtZ(v.fallZ)}) is not beyond ${v.z}`);
  if ((v.last ?? 0) > (v.start ?? 0))
    parts.push(
      `its last 10 (${(v.last ?? 0).toFixed(2)}) ended above its start (${(v.start ?? 0).toFixed(2)})`,
    );
  return parts.length > 0 ? ` Not met: ${parts.join('; ')}.` : '';
}

function fmtZ(x: number | undefined): string {
  if (x === undefined || Number.isNaN(x)) return '–';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  return x.toFixed(1);
}
