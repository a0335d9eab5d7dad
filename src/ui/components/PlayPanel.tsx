// "Play it yourself" (REINFORCEjs' WaterWorld): the env the setup shows, playable with clicks
// or the keyboard under the setup's episode rules (turns, actions per turn, action budget:
// playEpisode.ts), showing exactly the text the agent reads — the instruction, then each turn's
// "turn i state: … actions left: k" — and the env drawn beside it. Only the actions the agent is
// shown are offered (WebShop's greyed results are not).
import { useCallback, useEffect, useRef, useState } from 'react';
import { envSpec, makeEnv } from '../../envs/registry.js';
import { useApp } from '../store/index.js';
import { EnvView } from '../viewer/EnvView.js';
import {
  actionsLeftInTurn,
  agentText,
  endTurn,
  type PlayState,
  playAction,
  startEpisode,
} from './playEpisode.js';

/** MiniGrid keys, as in MiniGrid's manual_control.py. */
const KEYS: Record<string, string> = {
  ArrowLeft: 'turn left',
  ArrowRight: 'turn right',
  ArrowUp: 'go forward',
  ' ': 'toggle',
  p: 'pick up',
  d: 'drop',
  Enter: 'done',
};

/** Products on the shop's results page that the agent does not read (drawn greyed, not offered). */
function hiddenToAgent(view: unknown): Set<string> {
  const r = (view as { results?: { products: { asin: string }[]; shown: number } | null } | null)?.results;
  return new Set((r?.products ?? []).slice(r?.shown ?? 0).map((p) => `click[${p.asin.toLowerCase()}]`));
}

/** While the episode runs: actions left this turn, a button per action, End turn, a typed action. */
function PlayControls({
  state,
  envId,
  buttons,
  act,
  onEndTurn,
}: {
  state: PlayState;
  envId: string;
  buttons: string[];
  act: (action: string) => void;
  onEndTurn: () => void;
}) {
  const [typed, setTyped] = useState('');
  const inTurn = actionsLeftInTurn(state);
  return (
    <>
      <p className="field-help" data-testid="play-turn-left">
        {inTurn} more action{inTurn === 1 ? '' : 's'} this turn; the agent reads the new state at the next
        turn.
      </p>
      <fieldset className="play-actions">
        <legend className="sr-only">Actions</legend>
        {buttons.map((a) => (
          <button
            key={a}
            type="button"
            className="small"
            data-testid={`play-action-${a.replace(/\W+/g, '-')}`}
            onClick={() => act(a)}
          >
            {a}
          </button>
        ))}
        <button
          type="button"
          className="small"
          data-testid="play-end-turn"
          disabled={state.inTurn === 0}
          onClick={onEndTurn}
        >
          End turn
        </button>
      </fieldset>
      <form
        className="play-typed"
        onSubmit={(e) => {
          e.preventDefault();
          act(typed);
          setTyped('');
        }}
      >
        <label htmlFor="play-typed">Type an action</label>
        <input
          id="play-typed"
          data-testid="play-typed"
          value={typed}
          placeholder={state.env.validActions() === null ? 'search[red shampoo]' : buttons[0]}
          onChange={(e) => setTyped(e.target.value)}
        />
        <button type="submit" className="small">
          Send
        </button>
      </form>
      {envId.startsWith('minigrid/') ? (
        <p className="field-help">Keys: ← → turn, ↑ forward, space toggle, p pick up, d drop, Enter done.</p>
      ) : null}
    </>
  );
}

/**
 * Keys act while focus is in the play area (not in a text field). A ref callback (React 19
 * cleanup form) attaches the listener whenever the area mounts.
 */
function usePlayKeys(envId: string, act: (action: string) => void) {
  const envIdRef = useRef(envId);
  envIdRef.current = envId;
  const actRef = useRef(act);
  actRef.current = act;
  return useCallback((el: HTMLDivElement | null) => {
    if (!el) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLInputElement) return;
      const a = KEYS[e.key];
      if (a && envIdRef.current.startsWith('minigrid/')) {
        e.preventDefault();
        actRef.current(a);
      }
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, []);
}

/** The env, the seed to play and New episode. */
function PlayHead({
  envId,
  seed,
  setSeed,
  newEpisode,
}: {
  envId: string;
  seed: number;
  setSeed: (s: number) => void;
  newEpisode: () => void;
}) {
  return (
    <div className="play-head">
      <span>{envId}</span>
      <label>
        Seed{' '}
        <input
          data-testid="play-seed"
          type="number"
          min={0}
          value={seed}
          onChange={(e) => setSeed(Math.max(0, Math.floor(Number(e.target.value) || 0)))}
        />
      </label>
      <button type="button" className="small" data-testid="play-new" onClick={newEpisode}>
        New episode
      </button>
    </div>
  );
}

/** Every action so far with its turn and reward. */
function PlayLog({ log }: { log: PlayState['log'] }) {
  return (
    <ol className="play-log">
      {log.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows
        <li key={i} className={l.valid ? '' : 'bad'}>
          turn {l.turn}: {l.action} → reward {l.reward.toFixed(2)}
          {l.valid ? '' : ' (invalid)'}
        </li>
      ))}
    </ol>
  );
}

export function PlayPanel() {
  // What the form shows, runnable or not: Start may be refused (memory, say) while play is not.
  const envId = useApp((s) => s.values.env);
  const maxTurns = useApp((s) => Math.max(1, s.values.maxTurns));
  const maxActionsPerTurn = useApp((s) => Math.max(1, s.values.maxActionsPerTurn));
  const budget = useApp((s) => Math.max(1, s.values.maxActionsPerTraj));
  const formatPenalty = useApp((s) => s.values.formatPenalty);
  const [seed, setSeed] = useState(1);
  const [state, setState] = useState<PlayState | null>(null);

  const newEpisode = useCallback(() => {
    setState(
      startEpisode(makeEnv(envId), seed, {
        maxTurns,
        maxActionsPerTurn,
        maxActionsPerTraj: budget,
        formatPenalty,
      }),
    );
  }, [envId, seed, maxTurns, maxActionsPerTurn, budget, formatPenalty]);

  useEffect(() => {
    newEpisode();
  }, [newEpisode]);

  const act = (action: string) => {
    if (state) setState(playAction(state, action));
  };

  const area = usePlayKeys(envId, act);

  if (!state) return null;
  const hidden = hiddenToAgent(state.view);
  const buttons = (state.env.validActions() ?? []).filter((a) => !hidden.has(a));
  const envLimit = envSpec(envId).maxSteps;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the play area takes the arrow keys
    <div className="play-panel" data-testid="play-panel" ref={area} tabIndex={0}>
      <PlayHead envId={envId} seed={seed} setSeed={setSeed} newEpisode={newEpisode} />
      <EnvView view={state.view} budget={budget} />
      <p className="play-rules" data-testid="play-rules">
        Turn {state.turn} of {maxTurns} · {state.used} of {Math.min(budget, envLimit)} actions used · up to{' '}
        {maxActionsPerTurn} action{maxActionsPerTurn === 1 ? '' : 's'} per turn (the setup’s episode)
      </p>
      {budget > envLimit ? (
        <p className="note" data-testid="play-budget-note">
          {envId} ends an episode after {envLimit} actions by itself, so the setup’s budget of {budget} is
          never reached.
        </p>
      ) : null}
      <h4>What the agent would read</h4>
      <pre className="observation" data-testid="play-text">
        {agentText(state)}
      </pre>
      {state.done ? (
        <p className="play-done" data-testid="play-done">
          Episode over ({state.endedBy}): total reward {state.total.toFixed(2)}.
        </p>
      ) : (
        <PlayControls
          state={state}
          envId={envId}
          buttons={buttons}
          act={act}
          onEndTurn={() => setState(endTurn(state))}
        />
      )}
      <PlayLog log={state.log} />
    </div>
  );
}
