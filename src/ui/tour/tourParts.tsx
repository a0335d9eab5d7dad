// What the tour's steps (tourSteps.tsx) are made of: their types, the numbers each reads off a
// recording (points, means over a stretch, the run's warning metric, quotes of its thinking), the
// preset a recording was made with, the viewer focus a step sets, and the small pieces of text and
// markup the steps share. Nothing here says anything the recording does not show.
import type { ReactNode } from 'react';
import type { Config } from '../../core/config.js';
import type { RunData } from '../../core/files/runFile.js';
import type { MetricRow } from '../../core/metrics/keys.js';
import { PRESETS } from '../../core/presets.js';
import { mean } from '../../core/stats.js';
import { FILTERS } from '../../core/variants/filters.js';
import { useApp } from '../store/index.js';
import type { Recordings } from './recordings.js';
import { nearestSample, type Replayer, stopPoints } from './replay.js';
import { lateFailure } from './tourText.js';

export interface TourContext {
  rec: Recordings;
  replayer: Replayer;
  speed: number;
}

export interface TourStep {
  id: string;
  title: string;
  /** data-testids of the elements to highlight (the first is scrolled into view). */
  targets: readonly string[] | ((rec: Recordings) => readonly string[]);
  enter(ctx: TourContext): Promise<void> | void;
  body(ctx: TourContext): ReactNode;
}

export const pct = (v: number | undefined) =>
  v === undefined || !Number.isFinite(v) ? '–' : `${Math.round(v * 100)}%`;

/** Where the tour pauses on a recording: after the first warning, and a little after the collapse. */
export function points(run: RunData) {
  const p = stopPoints(run);
  const warningAt = p.warning ? p.warning.iteration + 1 : Math.min(p.end, Math.max(1, Math.round(p.end / 3)));
  const collapseAt = p.collapse !== null ? Math.min(p.end, p.collapse + 6) : p.end;
  return { ...p, warningAt, collapseAt };
}

/** The metric the recording's first warning read (null without a warning). */
export function warningMetric(run: RunData): string | null {
  const p = stopPoints(run);
  const e = run.events.find((x) => x.type === 'echo' && x.iteration === p.warning?.iteration);
  return e && e.type === 'echo' ? e.metric : null;
}

/** A step's targets for the loaded recordings. */
export function stepTargets(step: TourStep, rec: Recordings): readonly string[] {
  return typeof step.targets === 'function' ? step.targets(rec) : step.targets;
}

/** Mean of a metric over rows (skipping missing values). */
export function meanOf(rows: readonly MetricRow[], key: string): number | undefined {
  const xs = rows
    .map((r) => (r as Record<string, number | undefined>)[key])
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  return xs.length ? mean(xs) : undefined;
}

export function rowsIn(run: RunData, from: number, to: number): MetricRow[] {
  return run.rows.filter((r) => r.iteration >= from && r.iteration < to);
}

export interface QuoteData {
  iteration: number;
  text: string;
  success: boolean;
}

/** The first turn of sample `i` of the run, as the agent wrote it. */
export function quoteOf(run: RunData, i: number | null): QuoteData | null {
  const s = i === null ? undefined : run.samples[i];
  const t = s?.turns[0];
  return s && t ? { iteration: s.iteration, text: t.responseText, success: s.success } : null;
}

/** The first turn of the sample nearest to `iteration`. */
export function quoteAt(run: RunData, iteration: number): QuoteData | null {
  return quoteOf(run, nearestSample(run.samples, iteration));
}

/**
 * The preset whose settings the recording was made with (every override and the algorithm
 * equal), so Finish can leave the setup on the experiment the tour described; null if none.
 */
export function presetFor(config: Config): string | null {
  for (const p of Object.values(PRESETS)) {
    if (p.algorithm !== config.algorithm) continue;
    // How often a run checkpoints does not change the experiment (recordings predate the presets'
    // checkpoints).
    const same = Object.entries(p.overrides).every(
      ([k, v]) => k === 'checkpointEvery' || config[k as keyof Config] === v,
    );
    if (same) return p.name;
  }
  return null;
}

/** Shows the loaded run's sample nearest `iteration` in the trajectory tab. */
export function focusSample(iteration: number): void {
  const samples = useApp.getState().samples;
  useApp.setState({ sampleIndex: nearestSample(samples, iteration), turnIndex: 0, rightTab: 'trajectory' });
}

/** Shows the loaded run's latest failed sample before `before` in the trajectory tab. */
export function focusLateFailure(before: number): void {
  const samples = useApp.getState().samples;
  useApp.setState({ sampleIndex: lateFailure(samples, before), turnIndex: 0, rightTab: 'trajectory' });
}

export function configText(run: RunData): string {
  const c = run.meta.config;
  return `${c.algorithm} on ${c.env}, seed ${c.seed}, lr ${c.lr}, ${c.stepsPerIteration || 'epoch-based'} optimizer steps per iteration, ${c.groups} × ${c.groupSize} rollouts, ${run.rows.length} iterations, base: ${run.meta.base.label}`;
}

export const Quote = ({ q }: { q: QuoteData | null }) =>
  q ? (
    <blockquote className="tour-quote" data-testid="tour-quote" data-success={String(q.success)}>
      <small>
        iteration {q.iteration}, first turn ({q.success ? 'a success' : 'a failure'}):
      </small>
      <pre>{q.text || '(empty answer)'}</pre>
    </blockquote>
  ) : (
    <p className="note">This recording kept no sampled trajectories.</p>
  );

/** How the StarPO-S recording filtered its groups, in words (its FILTERS row's). */
export function filterWords(mode: Config['filterMode']): string {
  return FILTERS[mode].words;
}

/** What Finish does: the setup the recorded StarPO run was made with, ready for Start. */
export function FinishNote({ run }: { run: RunData }) {
  const name = presetFor(run.meta.config);
  const preset = name ? PRESETS[name] : undefined;
  return preset ? (
    <p data-testid="tour-finish" data-preset={preset.name}>
      Finish leaves the setup on <b>{preset.title}</b>, the settings the recorded StarPO run was made with:
      press Start to train the same experiment here, live.
    </p>
  ) : null;
}
