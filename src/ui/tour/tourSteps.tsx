// The guided tour's steps, in order (TOUR_STEPS): welcome, the environment, the base agent,
// vanilla StarPO's recorded run, the detector's warning, the collapse and its thinking, and the
// same seed under StarPO-S. Each step names the regions it points at, what entering it does to the
// replay, and its text, every number of which is read off the recordings (tourParts.tsx,
// tourText.ts).
import { estimatorOf } from '../../core/variants/estimators.js';
import { CHARTS } from '../charts/chartSpecs.js';
import { ExplainButton } from '../explain/ExplainButton.js';
import { signalLabel } from '../explain/texts.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';
import { showRecorded } from './replay.js';
import {
  configText,
  FinishNote,
  filterWords,
  focusLateFailure,
  focusSample,
  meanOf,
  pct,
  points,
  presetFor,
  Quote,
  quoteAt,
  quoteOf,
  rowsIn,
  stepTargets,
  type TourContext,
  type TourStep,
  warningMetric,
} from './tourParts.js';
import {
  advantageWords,
  changeWords,
  firstMeasured,
  lateFailure,
  latestBefore,
  meanOver,
  noTrapWords,
  successStretch,
  trend,
  watchWords,
} from './tourText.js';

export { points, presetFor, stepTargets, type TourContext, type TourStep };

export const TOUR_STEPS: readonly TourStep[] = [
  {
    id: 'welcome',
    title: 'Tour: a recorded collapse, in 5 minutes',
    targets: [],
    enter: (ctx) => {
      ctx.replayer.stop();
      useApp.getState().closeCompare();
    },
    body: ({ rec }) => (
      <>
        <p>
          RAGEN reports that RL on a language-model agent can improve at first and then fall into the{' '}
          <b>echo trap</b>: the policy settles into one repetitive, input-agnostic way of thinking and acting,
          and success collapses. This tour walks through what happened in two recorded runs of this
          playground, replayed at the speed you choose — a collapse, and whether it counts as the trap:
        </p>
        <ul>
          <li data-testid="tour-recording">{rec.starpo.meta.name}</li>
          <li data-testid="tour-recording">{rec.starpoS.meta.name}</li>
        </ul>
        <p className="note">
          They were recorded with the command-line trainer (scripts/record-tour-runs.ts), not trained now, so
          the demo never stalls. Every number below is read from them. At this setting 7 of 8 fresh seeds rose
          and then collapsed; the StarPO seed (303) is the one a rule fixed in advance picked from them, the
          median fall, and it is the page’s default seed, so Start after the tour trains it again (which seed
          and why: public/recorded/README.md; every seed: docs/echo-trap.md).
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
    body: ({ rec }) => {
      const c = rec.starpo.meta.config;
      const p = points(rec.starpo);
      return (
        <>
          <p data-testid="tour-algorithm">
            Replaying the <b>recorded run of {configText(rec.starpo)}</b>.{' '}
            {estimatorOf(c).samples === 'turn'
              ? 'PPO treats each turn as its own sample'
              : 'StarPO optimises whole multi-turn trajectories'}
            ; in this run {advantageWords(c)}.
          </p>
          <p data-testid="tour-watch">
            {watchWords(successStretch(rec.starpo.rows, p.warningAt))}{' '}
            {p.warning
              ? 'The replay pauses when the echo-trap detector first speaks.'
              : 'The detector never speaks in this recording: the replay pauses a third of the way in.'}
          </p>
        </>
      );
    },
  },
  {
    id: 'warning',
    title: 'The detector warns',
    // The chart of the signal that warned first (it is scrolled into view), then reward std.
    targets: (rec) => {
      const metric = points(rec.starpo).warning ? warningMetric(rec.starpo) : null;
      const chart = CHARTS.find((c) => c.keys.some((k) => k === metric))?.id ?? 'mi';
      return [...new Set([`chart-${chart}`, 'chart-reward-std'])];
    },
    enter: (ctx) => {
      ctx.replayer.stop();
      useApp.getState().closeCompare();
      ctx.replayer.position = points(ctx.rec.starpo).warningAt;
      showRecorded(ctx.rec.starpo, ctx.replayer.position);
    },
    body: ({ rec }) => {
      const p = points(rec.starpo);
      const rows = rec.starpo.rows;
      const stdKey = 'rollout/inGroupRewardStd';
      const stdStart = meanOver(rows, stdKey, 0, 5);
      const stdNow = meanOver(rows, stdKey, Math.max(0, p.warningAt - 5), p.warningAt);
      const stdTrend = trend(stdStart, stdNow);
      const miFirst = firstMeasured(rows, 'reasoning/mi');
      const miNow = latestBefore(rows, 'reasoning/mi', p.warningAt);
      const miEvery = rec.starpo.meta.config.miEvery;
      return (
        <>
          {p.warning ? (
            <p data-testid="tour-warning">
              At iteration <b>{p.warning.iteration}</b> the detector fired: {p.warning.messages.join('; ')}.{' '}
              {p.warning.signals.map((s) => (
                <ExplainButton
                  key={s}
                  title={signalLabel(s)}
                  items={[{ kind: 'signal', key: s }]}
                  testId={`tour-explain-${s}`}
                  label={signalLabel(s)}
                />
              ))}
            </p>
          ) : (
            <p data-testid="tour-warning">
              In this recording the detector never fired, so the replay stopped a third of the way in. The
              charts to watch are the same.
            </p>
          )}
          <p data-testid="tour-reward-std">
            <b>In-group reward std</b> (mean of the first 5 iterations against the 5 before this point:{' '}
            {changeWords(stdStart, stdNow)}): when rollouts from one start state all get the same reward, the
            update has no contrast between them to learn from — only the KL and entropy terms still push.
            {stdTrend === 'flat' || stdTrend === 'rose'
              ? ' Here it has not fallen, so it is not what warned.'
              : stdTrend === 'fell'
                ? ' Here it has fallen.'
                : ''}
          </p>
          <p data-testid="tour-mi">
            <b>Reasoning MI</b>
            {miFirst && miNow && miNow.iteration > miFirst.iteration
              ? ` (${miFirst.value.toPrecision(3)} nats at iteration ${miFirst.iteration}, ${miNow.value.toPrecision(3)} nats at iteration ${miNow.iteration}: ${{ rose: 'risen', fell: 'fallen', flat: 'hardly changed', unknown: 'not comparable' }[trend(miFirst.value, miNow.value)]})`
              : miFirst
                ? ` (measured every ${miEvery} iterations: ${miFirst.value.toPrecision(3)} nats at iteration ${miFirst.iteration}, not measured again before this point)`
                : ' (not measured in this recording)'}
            : how much the thinking depends on the state it was written for. Falling MI means the thinking is
            becoming a template, even while entropy looks normal.
          </p>
        </>
      );
    },
  },
  {
    id: 'collapse',
    title: 'The collapse, and what the thinking did',
    targets: ['chart-success', 'trajectory-viewer'],
    enter: async (ctx) => {
      useApp.getState().closeCompare();
      const p = points(ctx.rec.starpo);
      if (ctx.replayer.position > p.collapseAt) ctx.replayer.position = p.warningAt;
      await ctx.replayer.play(p.collapseAt, ctx.speed, (at) =>
        useApp.getState().setTour({ tourPosition: at }),
      );
      focusLateFailure(p.collapseAt);
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
                title={signalLabel('successCollapse')}
                items={[{ kind: 'signal', key: 'successCollapse' }]}
                testId="tour-explain-collapse"
                label={signalLabel('successCollapse')}
              />
            </p>
          ) : (
            <p data-testid="tour-collapse">
              {s && s.startSuccess !== undefined && s.finalSuccess <= s.startSuccess
                ? `Success fell to ${pct(s.finalSuccess)} over the last 10 iterations, at or below its start of ${pct(s.startSuccess)}: a collapse. But its rise before the fall (to ${pct(s.peakSuccess)}) stayed within the batch’s noise, so by the rule this is not an echo trap — a collapse without a rise first.`
                : `This recording did not collapse (peak ${pct(s?.peakSuccess)}, final ${pct(s?.finalSuccess)}): the rule needs success to rise beyond the noise and then fall back to at or below where it started.`}
            </p>
          )}
          <p>
            Near the end, {pct(meanOf(late, 'reasoning/modalThinkShare'))} of turns share one identical
            thinking string and {pct(meanOf(late, 'rollout/malformedRate'))} are malformed. Read the late
            thinking of a failed episode:
          </p>
          <Quote q={quoteOf(rec.starpo, lateFailure(rec.starpo.samples, p.collapseAt))} />
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
          {b && !b.echoTrap ? (
            <p data-testid="tour-compare-no-trap">StarPO-S: {noTrapWords(rec.starpoS.rows, b)}</p>
          ) : null}
          <p>
            StarPO-S keeps only high-variance groups (here: {filterWords(rec.starpoS.meta.config.filterMode)}
            ), uses clip-higher and no KL. The table lists only what differs between the two configs. One pair
            of runs proves nothing either way: run a sweep over seeds before concluding (the StarPO-S presets'
            notes say what 8 seeds did at this setting; round 12's pre-registered study, in
            docs/echo-trap-round12.md, found no part of StarPO-S that prevents the trap at 8 seeds).
          </p>
          <FinishNote run={rec.starpo} />
        </>
      );
    },
  },
];
