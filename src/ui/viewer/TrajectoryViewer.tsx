// The trajectory viewer: a sampled trajectory of the current run, turn by turn — the env drawn
// as it was at that turn (replayed from the seed and the recorded actions), the observation the
// agent read, its tokens coloured by log-prob, the actions with their validity, and the turn's
// reward. Browse earlier iterations' samples; step through turns with the buttons or ← →.
import { useEffect, useMemo, useRef } from 'react';
import { turnText } from '../../core/prompt.js';
import type { SampledTrajectory } from '../../core/rl/trainer.js';
import { useApp } from '../store/index.js';
import { useRunBudget } from '../store/runConfig.js';
import { EnvView } from './EnvView.js';
import { replayTrajectory } from './replay.js';
import { TokenKey, TokenStrip } from './TokenStrip.js';

type ViewerTurn = SampledTrajectory['turns'][number];

/** What the agent read at turn `t`, what it wrote (coloured), its actions and the turn's reward. */
function TurnDetail({ turn, t }: { turn: ViewerTurn; t: number }) {
  return (
    <div className="turn-detail" data-testid="turn-detail">
      <h4>What the agent read</h4>
      <pre className="observation">
        {turn.actionsLeft === undefined
          ? turn.observation
          : turnText(t + 1, turn.observation, turn.actionsLeft)}
      </pre>
      <h4>What it wrote (coloured by probability)</h4>
      <TokenStrip tokens={turn.tokens} logps={turn.logps} />
      <TokenKey />
      <p>
        Actions:{' '}
        {turn.actions.length === 0 ? (
          <span className="bad">none usable</span>
        ) : (
          turn.actions.map((a, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same action may repeat within a turn
            <span key={`${i}:${a}`} className={turn.valid[i] === false ? 'action bad' : 'action ok'}>
              {a} {turn.valid[i] === false ? '✗' : '✓'}
            </span>
          ))
        )}
      </p>
      <p>
        Turn reward {turn.reward.toFixed(2)}
        {turn.penalised ? <span className="bad"> · format penalty</span> : null}
      </p>
    </div>
  );
}

/** ◀ Turn · Turn k / n · Turn ▶ */
function TurnNav({ t, n, setTurnIndex }: { t: number; n: number; setTurnIndex: (t: number) => void }) {
  return (
    <fieldset className="turn-nav">
      <legend className="sr-only">Turns</legend>
      <button
        type="button"
        className="small"
        data-testid="turn-prev"
        disabled={t === 0}
        onClick={() => setTurnIndex(t - 1)}
      >
        ◀ Turn
      </button>
      <span data-testid="turn-label">{t < n ? `Turn ${t + 1} / ${n}` : `After turn ${n}`}</span>
      <button
        type="button"
        className="small"
        data-testid="turn-next"
        disabled={t >= n}
        onClick={() => setTurnIndex(t + 1)}
      >
        Turn ▶
      </button>
    </fieldset>
  );
}

/** Sample k / n, a slider over the kept samples, and Latest. */
function SampleNav({ idx, count }: { idx: number; count: number }) {
  const sampleIndex = useApp((s) => s.sampleIndex);
  const setSampleIndex = useApp((s) => s.setSampleIndex);
  return (
    <div className="viewer-nav">
      <label htmlFor="sample-slider">
        Sample {idx + 1}/{count}
      </label>
      <input
        id="sample-slider"
        data-testid="sample-slider"
        type="range"
        min={0}
        max={Math.max(0, count - 1)}
        value={idx}
        onChange={(e) => setSampleIndex(Number(e.target.value))}
      />
      <button
        type="button"
        className="small"
        disabled={sampleIndex === null}
        onClick={() => setSampleIndex(null)}
      >
        Latest
      </button>
    </div>
  );
}

/** ← → step through the turns while the focus is inside the viewer (not in a slider or a field). */
function useTurnKeys(
  body: React.RefObject<HTMLDivElement | null>,
  turns: number,
  setTurnIndex: (t: number) => void,
) {
  useEffect(() => {
    const el = body.current;
    if (!el) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      const t = Math.min(useApp.getState().turnIndex, turns);
      if (e.key === 'ArrowRight' && t < turns) setTurnIndex(t + 1);
      if (e.key === 'ArrowLeft' && t > 0) setTurnIndex(t - 1);
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, [body, turns, setTurnIndex]);
}

export function TrajectoryViewer() {
  const samples = useApp((s) => s.samples);
  const env = useApp((s) => s.runEnv);
  const sampleIndex = useApp((s) => s.sampleIndex);
  const turnIndex = useApp((s) => s.turnIndex);
  const setTurnIndex = useApp((s) => s.setTurnIndex);
  const budget = useRunBudget();
  const idx = sampleIndex ?? samples.length - 1;
  const body = useRef<HTMLDivElement>(null);
  const sample = samples[idx];
  const replay = useMemo(() => {
    if (!sample || !env) return null;
    try {
      return replayTrajectory(env, sample);
    } catch {
      return null;
    }
  }, [sample, env]);
  useTurnKeys(body, sample?.turns.length ?? 0, setTurnIndex);
  if (!sample) {
    return (
      <div className="viewer-body" data-testid="viewer-body">
        <p className="empty-note">
          Sampled trajectories appear here during training, with each token coloured.
        </p>
      </div>
    );
  }
  const n = sample.turns.length;
  const t = Math.min(turnIndex, n);
  const turn = sample.turns[t];
  const view = replay?.views[t];
  return (
    <div className="viewer-body" data-testid="viewer-body" ref={body}>
      <SampleNav idx={idx} count={samples.length} />
      <p className="sample-head" data-testid="sample-head" data-iteration={sample.iteration}>
        Iteration {sample.iteration} · seed {sample.seed} · reward {sample.reward.toFixed(2)} ·{' '}
        {sample.success ? <span className="ok">success</span> : <span className="bad">no success</span>}
      </p>
      <p className="instruction">{sample.instruction}</p>
      <TurnNav t={t} n={n} setTurnIndex={setTurnIndex} />
      {view !== undefined ? (
        <EnvView view={view} budget={budget} />
      ) : (
        <p className="note">This environment could not be replayed here.</p>
      )}
      {replay?.mismatchAt !== null && replay?.mismatchAt !== undefined && t >= replay.mismatchAt ? (
        <p className="note">
          From turn {replay.mismatchAt + 1} the replay differs from what the agent saw (a stochastic
          environment).
        </p>
      ) : null}
      {turn ? <TurnDetail turn={turn} t={t} /> : null}
    </div>
  );
}
