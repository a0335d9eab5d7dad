// The steps of "See the echo trap in 5 minutes": what each highlights (data-testids), what it
// does on entering (switch a tab, replay the recording to a point, open the comparison) and
// what it says. Every text about the run is computed from the recording itself — its config,
// its detector events and its sampled trajectories — so the tour never claims what the
// recording does not show. Entering a step is idempotent, so Back and Next can go either way.
import type { ReactNode } from 'react';
import type { MetricRow } from '../../core/metrics/keys.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import type { RunData } from '../runs/runFile.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';
import type { Recordings } from './recordings.js';
import { nearestSample, type Replayer, showRecorded, stopPoints } from './replay.js';

export interface TourContext {
  rec: Recordings;
  replayer: Replayer;
  speed: number;
}

export interface TourStep {
  id: string;
  title: string;
  /** data-testids of the elements to highlight. */
  targets: string[];
  enter(ctx: TourContext): Promise<void> | void;
  body(ctx: TourContext): ReactNode;
}

const pct = (v: number | undefined) =>
  v === undefined || !Number.isFinite(v) ? '–' : `${Math.round(v * 100)}%`;
const num = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '–' : v.toPrecision(3));

function points(run: RunData) {
  const p = stopPoints(run);
  const warningAt = p.warning ? p.warning.iteration + 1 : Math.min(p.end, Math.max(1, Math.round(p.end / 3)));
  const collapseAt = p.collapse !== null ? Math.min(p.end, p.collapse + 6) : p.end;
  return { ...p, warningAt, collapseAt };
}

/** Mean of a metric over rows (skipping missing values). */
function meanOf(rows: readonly MetricRow[], key: string): number | undefined {
  const xs = rows
    .map((r) => (r as Record<string, number | undefined>)[key])
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : undefined;
}

function rowsIn(run: RunData, from: number, to: number): MetricRow[] {
  return run.rows.filter((r) => r.iteration >= from && r.iteration < to);
}

/** The first turn of the sample nearest to `iteration`, as the agent wrote it. */
function quoteAt(
  run: RunData,
  iteration: number,
): { iteration: number; text: string; observation: string } | null {
  const i = nearestSample(run.samples, iteration);
  const s = i === null ? undefined : run.samples[i];
  const t = s?.turns[0];
  return s && t ? { iteration: s.iteration, text: t.responseText, observation: t.observation } : null;
}

/** Shows the loaded run's sample nearest `iteration` in the trajectory tab. */
function focusSample(iteration: number): void {
  const samples = useApp.getState().samples;
  useApp.setState({ sampleIndex: nearestSample(samples, iteration), turnIndex: 0, rightTab: 'trajectory' });
}

function configText(run: RunData): string {
  const c = run.meta.config;
  return `${c.algorithm} on ${c.env}, seed ${c.seed}, lr ${c.lr}, ${c.stepsPerIteration || 'epoch-based'} optimizer steps per iteration, ${c.groups} × ${c.groupSize} rollouts, ${run.rows.length} iterations, base: ${run.meta.base.label}`;
}

const Quote = ({ q }: { q: { iteration: number; text: string } | null }) =>
  q ? (
    <blockquote className="tour-quote" data-testid="tour-quote">
      <small>iteration {q.iteration}, first turn:</small>
      <pre>{q.text || '(empty answer)'}</pre>
    </blockquote>
  ) : (
    <p className="note">This recording kept no sampled trajectories.</p>
  );

/** How the StarPO-S recording filtered its groups, in words. */
function filterWords(mode: string): string {
  if (mode === 'oversample') return 'by oversampling, so each update sees as many samples';
  if (mode === 'subsample') return 'by dropping the rest, so each update sees fewer samples';
  return 'no filter in this recording';
}

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'welcome',
    title: 'See the echo trap in 5 minutes',
    targets: [],
    enter: (ctx) => {
      ctx.replayer.stop();
      useApp.getState().closeCompare();
    },
    body: ({ rec }) => (
      <>
        <p>
          RL on a language-model agent often improves at first and then falls into the <b>echo trap</b>: the
          policy settles into one repetitive, input-agnostic way of thinking and acting, and success
          collapses. This tour shows it on two recorded runs, replayed here at the speed you choose:
        </p>
        <ul>
          <li data-testid="tour-recording">{rec.starpo.meta.name}</li>
          <li data-testid="tour-recording">{rec.starpoS.meta.name}</li>
        </ul>
        <p className="note">
          They were recorded with the command-line trainer (scripts/record-tour-runs.ts), not trained now, so
          the demo never stalls. Every number below is read from them.
        </p>
      </>
    ),
  },
  {
    id: 'environment',
    title: 'Meet the environment',
    targets: ['trajectory-viewer'],
    enter: (ctx) => {
      ctx.replayer.stop();
      useApp.getState().closeCompare();
      useApp.getState().setRightTab('play');
    },
    body: () => (
      <p>
        The agent reads text only: a mission, then each turn the state in words and how many actions are left.
        Play a turn yourself on the right — click an action or type one — and you get exactly the reward the
        agent would. The agent must answer{' '}
        <code>&lt;think&gt;…&lt;/think&gt;&lt;answer&gt;…&lt;/answer&gt;</code>; a malformed answer costs 0.1.
      </p>
    ),
  },
  {
    id: 'base-agent',
    title: 'Meet the base agent',
    targets: ['trajectory-viewer'],
    enter: (ctx) => {
      ctx.replayer.stop();
      useApp.getState().closeCompare();
      ctx.replayer.position = 1;
      showRecorded(ctx.rec.starpo, 1);
      focusSample(0);
    },
    body: ({ rec }) => (
      <>
        <p>
          Before any RL, this is what the recorded run’s starting policy ({rec.starpo.meta.base.label}) thinks
          and answers. The viewer colours each token by its log-probability; step through the turns.
        </p>
        <Quote q={quoteAt(rec.starpo, 0)} />
        <p>First-iteration success: {pct(rec.starpo.rows[0]?.['rollout/successRate'])}.</p>
      </>
    ),
  },
  {
    id: 'start',
    title: 'Start vanilla StarPO',
    targets: ['chart-success', 'transport-bar'],
    enter: async (ctx) => {
      useApp.getState().closeCompare();
      const p = points(ctx.rec.starpo);
      if (ctx.replayer.position > p.warningAt) ctx.replayer.position = 1;
      await ctx.replayer.play(p.warningAt, ctx.speed, (at) =>
        useApp.getState().setTour({ tourPosition: at }),
      );
    },
    body: ({ rec }) => (
      <>
        <p>
          Replaying the <b>recorded run of {configText(rec.starpo)}</b>. StarPO optimises whole multi-turn
          trajectories; with GRPO each rollout’s advantage is its reward normalised within its group of
          rollouts from the same start state.
        </p>
        <p>Watch success rise. The replay pauses when the echo-trap detector first speaks.</p>
      </>
    ),
  },
  {
    id: 'warning',
    title: 'The detector warns',
    targets: ['chart-reward-std', 'chart-mi'],
    enter: (ctx) => {
      ctx.replayer.stop();
      useApp.getState().closeCompare();
      ctx.replayer.position = points(ctx.rec.starpo).warningAt;
      showRecorded(ctx.rec.starpo, ctx.replayer.position);
    },
    body: ({ rec }) => {
      const p = points(rec.starpo);
      const start = rowsIn(rec.starpo, 0, 5);
      const now = rowsIn(rec.starpo, Math.max(0, p.warningAt - 5), p.warningAt);
      return (
        <>
          {p.warning ? (
            <p data-testid="tour-warning">
              At iteration <b>{p.warning.iteration}</b> the detector fired: {p.warning.messages.join('; ')}.{' '}
              {p.warning.signals.map((s) => (
                <ExplainButton
                  key={s}
                  title={s}
                  items={[{ kind: 'signal', key: s }]}
                  testId={`tour-explain-${s}`}
                  label={s}
                />
              ))}
            </p>
          ) : (
            <p data-testid="tour-warning">
              In this recording the detector never fired, so the replay stopped a third of the way in. The
              charts to watch are the same.
            </p>
          )}
          <p>
            <b>In-group reward std</b> (start {num(meanOf(start, 'rollout/inGroupRewardStd'))}, now{' '}
            {num(meanOf(now, 'rollout/inGroupRewardStd'))}): when rollouts from one start state all get the
            same reward, their normalised advantages are zero and the update carries no task signal — only the
            KL and entropy terms still push.
          </p>
          <p>
            <b>Reasoning MI</b> (start {num(meanOf(start, 'reasoning/mi'))}, now{' '}
            {num(meanOf(now, 'reasoning/mi'))}
            nats): how much the thinking depends on the state it was written for. Falling MI means the
            thinking is becoming a template, even while entropy looks normal.
          </p>
        </>
      );
    },
  },
  {
    id: 'collapse',
    title: 'The collapse, and the templated thinking',
    targets: ['chart-success', 'trajectory-viewer'],
    enter: async (ctx) => {
      useApp.getState().closeCompare();
      const p = points(ctx.rec.starpo);
      if (ctx.replayer.position > p.collapseAt) ctx.replayer.position = p.warningAt;
      await ctx.replayer.play(p.collapseAt, ctx.speed, (at) =>
        useApp.getState().setTour({ tourPosition: at }),
      );
      focusSample(p.collapseAt - 1);
    },
    body: ({ rec }) => {
      const p = points(rec.starpo);
      const s = rec.starpo.meta.summary;
      const late = rowsIn(rec.starpo, Math.max(0, p.collapseAt - 5), p.collapseAt);
      return (
        <>
          {p.collapse !== null ? (
            <p data-testid="tour-collapse">
              Success collapsed at iteration <b>{p.collapse}</b>: from a peak of {pct(s?.peakSuccess)}{' '}
              (iteration {s?.peakIteration}) to {pct(s?.finalSuccess)} at the end.{' '}
              <ExplainButton
                title="successCollapse"
                items={[{ kind: 'signal', key: 'successCollapse' }]}
                testId="tour-explain-collapse"
                label="successCollapse"
              />
            </p>
          ) : (
            <p data-testid="tour-collapse">
              This recording did not collapse (peak {pct(s?.peakSuccess)}, final {pct(s?.finalSuccess)}): the
              detector’s collapse rule needs success to fall to half of a peak of at least 20%.
            </p>
          )}
          <p>
            Near the end, {pct(meanOf(late, 'reasoning/modalThinkShare'))} of turns share one identical
            thinking string and {pct(meanOf(late, 'rollout/malformedRate'))} are malformed. Read the late
            thinking:
          </p>
          <Quote q={quoteAt(rec.starpo, p.collapseAt - 1)} />
        </>
      );
    },
  },
  {
    id: 'compare',
    title: 'Same seed, StarPO-S',
    targets: ['compare-view'],
    enter: (ctx) => {
      ctx.replayer.stop();
      const { starpo, starpoS } = ctx.rec;
      ctx.replayer.position = points(starpo).end;
      showRecorded(starpo, ctx.replayer.position);
      useApp.getState().openCompare('Recorded StarPO vs StarPO-S (same seed)', [
        {
          id: starpo.meta.id,
          name: starpo.meta.name,
          color: RUN_COLORS[0] as string,
          config: starpo.meta.config,
          rows: starpo.rows,
          events: starpo.events,
        },
        {
          id: starpoS.meta.id,
          name: starpoS.meta.name,
          color: RUN_COLORS[1] as string,
          config: starpoS.meta.config,
          rows: starpoS.rows,
          events: starpoS.events,
        },
      ]);
    },
    body: ({ rec }) => {
      const a = rec.starpo.meta.summary;
      const b = rec.starpoS.meta.summary;
      const trap = (x: typeof a) =>
        x ? (x.echoTrap ? `echo trap at ${x.collapseIteration}` : 'no echo trap') : '–';
      return (
        <>
          <p data-testid="tour-compare-summary">
            StarPO: {trap(a)}, peak {pct(a?.peakSuccess)}, final {pct(a?.finalSuccess)}. StarPO-S: {trap(b)},
            peak {pct(b?.peakSuccess)}, final {pct(b?.finalSuccess)}.
          </p>
          <p>
            StarPO-S keeps only high-variance groups (here: {filterWords(rec.starpoS.meta.config.filterMode)}
            ), uses clip-higher and no KL. The table lists only what differs between the two configs. One pair
            of runs proves nothing either way: run a sweep over seeds before concluding (the study's tables
            are in docs/echo-trap.md).
          </p>
        </>
      );
    },
  },
];
