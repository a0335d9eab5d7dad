// Seeds side by side (fanoutRunner.ts): the current setup on N seeds at once, with an optional
// frozen-control lane per seed. One lane per run with its state and verdict, every seed's success
// overlaid with its collapse marker, and "trapped in k of N" with its 95% interval. The group is
// stored as a sweep (lr × seed) and each lane as a run, so it reloads, exports and compares.
import { useMemo, useRef, useState } from 'react';
import { DEFAULT_DETECTOR } from '../../core/metrics/detector.js';
import { VERDICT_LABELS, type Verdict, verdictText } from '../../core/metrics/verdict.js';
import { wilsonInterval } from '../../core/stats.js';
import type { ChartRun } from '../charts/chartData.js';
import { CHARTS } from '../charts/chartSpecs.js';
import { MetricChart } from '../charts/MetricChart.js';
import { OverlayPanel } from '../components/OverlayPanel.js';
import { PRESETS } from '../presets.js';
import { presetEdited } from '../store/configSlice.js';
import type { Lane } from '../store/fanoutSlice.js';
import { useApp } from '../store/index.js';
import { RUN_COLORS } from '../store/viewSlice.js';
import {
  defaultParallel,
  type FanoutControl,
  newFanoutControl,
  runFanout,
  stopFanout,
} from './fanoutRunner.js';

const SUCCESS = CHARTS.find((c) => c.id === 'success');
const FROZEN_COLOR = '#9ca3af';

/** Iterations the rule reads before it can judge (warm-up 5 + peak window 5 + last 10). */
const MIN_JUDGED = DEFAULT_DETECTOR.warmup + DEFAULT_DETECTOR.window + DEFAULT_DETECTOR.finalWindow;

/**
 * "trapped in k of N (95%: lo–hi)" over the finished lanes of one kind that the rule could judge;
 * `finished` counts every finished lane, `tooShort` those too short to judge.
 */
export function trapCount(lanes: readonly Lane[]): {
  k: number;
  n: number;
  finished: number;
  tooShort: number;
  interval: [number, number];
} {
  const done = lanes.filter((l) => l.state === 'finished' && l.summary);
  const judged = done.filter((l) => laneVerdict(l) !== 'too-short');
  const k = judged.filter((l) => laneVerdict(l) === 'trapped').length;
  return {
    k,
    n: judged.length,
    finished: done.length,
    tooShort: done.length - judged.length,
    interval: wilsonInterval(k, judged.length),
  };
}

/** A finished lane's verdict (a summary stored before verdicts existed: trapped or held). */
export function laneVerdict(l: Lane): Verdict | null {
  const s = l.summary;
  if (l.state !== 'finished' || !s) return null;
  return s.verdict?.verdict ?? (s.echoTrap ? 'trapped' : 'held');
}

function laneText(l: Lane): string {
  if (l.state === 'failed') return `failed: ${l.error ?? 'unknown error'}`;
  if (l.state === 'stopped') return `stopped at iteration ${l.iteration} of ${l.planned}`;
  if (l.state === 'queued') return 'queued';
  if (l.state === 'running') return `iteration ${l.iteration} of ${l.planned}`;
  const v = laneVerdict(l);
  if (!v) return 'finished';
  const s = l.summary;
  if (v === 'trapped') return `trapped (collapse marked at iteration ${s?.collapseIteration})`;
  return VERDICT_LABELS[v].toLowerCase();
}

/** How the lanes run, in words: "4 at a time" or "one after another". */
export function parallelText(parallel: number): string {
  return parallel > 1 ? `${parallel} at a time` : 'one after another';
}

/** The group's count, one line per lane with its verdict, and every lane's success overlaid. */
function FanoutResults({ lanes }: { lanes: readonly Lane[] }) {
  const runs = useMemo<ChartRun[]>(
    () =>
      lanes.map((l, i) => ({
        name: `seed ${l.seed}${l.frozen ? ' · frozen' : ''}`,
        color: l.frozen ? FROZEN_COLOR : (RUN_COLORS[i % RUN_COLORS.length] as string),
        rows: l.rows,
      })),
    [lanes],
  );
  const collapses = useMemo(
    () =>
      lanes.flatMap((l) =>
        l.events
          .filter((e) => e.type === 'echo' && e.kind === 'collapse')
          .map((e) => ({ ...e, message: `seed ${l.seed}: ${e.type === 'echo' ? e.message : ''}` })),
      ),
    [lanes],
  );
  const learners = trapCount(lanes.filter((l) => !l.frozen));
  const controls = trapCount(lanes.filter((l) => l.frozen));
  const short = learners.tooShort + controls.tooShort;
  return (
    <>
      <p
        className="fanout-count"
        data-testid="fanout-count"
        data-trapped={learners.k}
        data-judged={learners.n}
        data-finished={learners.finished}
      >
        Trapped in{' '}
        <b>
          {learners.k} of {learners.n}
        </b>{' '}
        judged seeds (95% interval {learners.interval[0].toFixed(2)}–{learners.interval[1].toFixed(2)})
        {controls.finished > 0 ? `; the frozen control in ${controls.k} of ${controls.n}` : ''}.
        {short > 0
          ? ` ${short} finished lane${short === 1 ? ' is' : 's are'} too short to judge (the rule reads at least ${MIN_JUDGED} iterations) and not counted.`
          : ''}
      </p>
      <ul className="fanout-lanes">
        {lanes.map((l) => (
          <li
            key={`${l.seed}-${l.frozen}`}
            data-testid="fanout-lane"
            data-state={l.state}
            data-seed={l.seed}
            data-frozen={l.frozen}
            data-verdict={laneVerdict(l) ?? undefined}
            title={l.summary?.verdict ? verdictText(l.summary.verdict) : undefined}
          >
            seed {l.seed}
            {l.frozen ? ' · frozen control' : ''} — {laneText(l)}
          </li>
        ))}
      </ul>
      {SUCCESS ? <MetricChart spec={SUCCESS} runs={runs} events={collapses} focus={null} /> : null}
    </>
  );
}

/** What the form holds: seeds, iterations per seed, the frozen lanes; checked for Start. */
function useFanoutForm(setupIterations: number) {
  // Two seeds without frozen lanes: the echo-trap preset's group ends in about 20 minutes.
  const [count, setCount] = useState('2');
  const [iterations, setIterations] = useState<string | null>(null);
  const [frozen, setFrozen] = useState(false);
  const n = Number(count);
  const validSeeds = Number.isInteger(n) && n >= 1 && n <= 32;
  // Iterations per seed: the setup's, unless changed here.
  const itersText = iterations ?? String(setupIterations);
  const iters = Number(itersText);
  const validIters = Number.isInteger(iters) && iters >= 1 && iters <= 2000;
  return { count, setCount, itersText, setIterations, frozen, setFrozen, n, iters, validSeeds, validIters };
}

/**
 * What the group costs on this machine, said before Start: from the preset's measured pace when
 * the setup is an unedited preset that has one, `parallel` runs at a time; else that it is not known.
 */
export function groupCost(
  pace: { learner: number; frozen: number } | undefined,
  form: { n: number; iters: number; frozen: boolean },
  parallel: number,
): string {
  const runs = form.n * (form.frozen ? 2 : 1);
  if (!pace)
    return `${runs} run(s), ${parallel} at a time. Its time is not measured for this setup: each lane shows its own estimate from its second iteration.`;
  const seconds = (form.n * form.iters * (pace.learner + (form.frozen ? pace.frozen : 0))) / parallel;
  const minutes = Math.max(1, Math.round(seconds / 60));
  return `About ${minutes} minutes on this machine: ${runs} run(s), ${parallel} at a time, at the preset’s measured ${pace.learner} s an iteration${form.frozen ? ` (${pace.frozen} s for a frozen control)` : ''}.`;
}

/** The form's checks in words: bad numbers, and a length too short for the rule. */
function FormNotes({ form, problem }: { form: ReturnType<typeof useFanoutForm>; problem: string | null }) {
  return (
    <>
      {!form.validSeeds ? <p className="field-error">Seeds: a whole number from 1 to 32.</p> : null}
      {!form.validIters ? (
        <p className="field-error">Iterations per seed: a whole number from 1 to 2000.</p>
      ) : null}
      {form.validIters && form.iters < MIN_JUDGED ? (
        <p className="note" data-testid="fanout-short">
          {form.iters} iterations are too few for the rule to judge (it reads at least {MIN_JUDGED}): each
          lane will say “too short to judge”. Fine for a quick look; use {MIN_JUDGED} or more to count traps.
        </p>
      ) : null}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

/** Seeds, iterations per seed, the frozen lanes, Start and (while the group runs) Stop. */
function FormFields({
  form,
  running,
  startDisabled,
  startTitle,
  onStart,
  onStop,
}: {
  form: ReturnType<typeof useFanoutForm>;
  running: boolean;
  startDisabled: boolean;
  startTitle: string;
  onStart: () => void;
  onStop: () => void;
}) {
  return (
    <div className="fanout-form">
      <label>
        Seeds{' '}
        <input
          type="text"
          size={4}
          data-testid="fanout-seeds"
          value={form.count}
          onChange={(e) => form.setCount(e.target.value)}
        />
      </label>
      <label>
        Iterations per seed{' '}
        <input
          type="text"
          size={5}
          data-testid="fanout-iterations"
          value={form.itersText}
          onChange={(e) => form.setIterations(e.target.value)}
        />
      </label>
      <label>
        <input
          type="checkbox"
          data-testid="fanout-frozen"
          checked={form.frozen}
          onChange={(e) => form.setFrozen(e.target.checked)}
        />{' '}
        frozen-control lane per seed
      </label>
      <button
        type="button"
        className="primary"
        data-testid="fanout-start"
        disabled={startDisabled}
        title={startTitle}
        onClick={onStart}
      >
        Start {form.validSeeds && form.validIters ? form.n * (form.frozen ? 2 : 1) : ''} runs
      </button>
      {running ? (
        <button type="button" data-testid="fanout-stop" onClick={onStop}>
          Stop
        </button>
      ) : null}
    </div>
  );
}

export function FanoutPanel() {
  const open = useApp((s) => s.fanoutOpen);
  const lanes = useApp((s) => s.lanes);
  const running = useApp((s) => s.fanoutRunning);
  const config = useApp((s) => s.config);
  const errors = useApp((s) => s.configErrors);
  const status = useApp((s) => s.runStatus);
  const setFanout = useApp((s) => s.setFanout);
  const parallel = defaultParallel(
    typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency,
  );
  const form = useFanoutForm(config.iterations);
  const presetId = useApp((s) => s.preset);
  const edited = useApp((s) => presetEdited(s.edits));
  const pace = edited ? undefined : PRESETS.find((p) => p.id === presetId)?.perIteration;
  const control = useRef<FanoutControl | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!open) return null;
  const valid = form.validSeeds && form.validIters;
  const busy = status === 'running' || status === 'starting' || status === 'stopping' || status === 'paused';
  const start = () => {
    setProblem(null);
    const seeds = Array.from({ length: form.n }, (_, i) => config.seed + i);
    control.current = newFanoutControl();
    runFanout({ ...config, iterations: form.iters }, seeds, form.frozen, parallel, control.current).catch(
      (err: Error) => setProblem(err.message),
    );
  };
  return (
    <OverlayPanel
      className="fanout-panel"
      label="Seeds side by side"
      testId="fanout-panel"
      title="Seeds side by side"
      closeTestId="fanout-close"
      onClose={() => setFanout({ fanoutOpen: false })}
    >
      <p className="note">
        The echo trap is a property of seeds: it happens in some runs and not others. This runs the current
        setup on seeds {config.seed}…{config.seed + Math.max(0, form.n - 1)}, {parallelText(parallel)} (one
        train worker each; the rest wait), beside a frozen control (lr 0) on the same seeds if ticked. Each
        lane ends with the rule's verdict: trapped, collapsed without a rise, held, or too short to judge.
      </p>
      <FormFields
        form={form}
        running={running}
        startDisabled={!valid || running || busy || errors.length > 0}
        startTitle={busy ? 'Stop the current run first' : errors.length > 0 ? 'Fix the setup first' : ''}
        onStart={start}
        onStop={() => {
          if (control.current) void stopFanout(control.current);
        }}
      />
      {valid ? (
        <p className="note" data-testid="fanout-cost">
          {groupCost(pace, form, parallel)}
        </p>
      ) : null}
      <FormNotes form={form} problem={problem} />
      {lanes.length > 0 ? <FanoutResults lanes={lanes} /> : null}
    </OverlayPanel>
  );
}
