// "Play it yourself" (REINFORCEjs' WaterWorld): the env of the setup, playable with clicks or
// the keyboard, showing exactly the text the agent reads — the instruction, then each turn's
// "turn i state: … actions left: k" — and the env drawn beside it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { makeEnv } from '../../envs/registry.js';
import type { TextEnv } from '../../envs/types.js';
import { useApp } from '../store/index.js';
import { EnvView } from '../viewer/EnvView.js';

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

interface PlayState {
  env: TextEnv;
  observation: string;
  turn: number;
  actionsLeft: number;
  total: number;
  done: boolean;
  log: { action: string; reward: number; valid: boolean }[];
  view: unknown;
}

export function PlayPanel() {
  const envId = useApp((s) => s.config.env);
  const budget = useApp((s) => s.config.maxActionsPerTraj);
  const [seed, setSeed] = useState(1);
  const [typed, setTyped] = useState('');
  const [state, setState] = useState<PlayState | null>(null);

  const newEpisode = useCallback(() => {
    const env = makeEnv(envId);
    const observation = env.reset(seed);
    setState({
      env,
      observation,
      turn: 1,
      actionsLeft: budget,
      total: 0,
      done: false,
      log: [],
      view: env.view(),
    });
  }, [envId, seed, budget]);

  useEffect(() => {
    newEpisode();
  }, [newEpisode]);

  const act = (action: string) => {
    if (!state || state.done || !action.trim()) return;
    const r = state.env.step(action.trim());
    const actionsLeft = state.actionsLeft - 1;
    setState({
      ...state,
      observation: r.observation,
      turn: state.turn + 1,
      actionsLeft,
      total: state.total + r.reward,
      done: r.done || actionsLeft <= 0,
      log: [...state.log, { action: action.trim(), reward: r.reward, valid: r.info.actionIsValid }],
      view: state.env.view(),
    });
  };

  // Keys act while focus is in the play area (not in a text field). A ref callback (React 19
  // cleanup form) attaches the listener whenever the area mounts.
  const envIdRef = useRef(envId);
  envIdRef.current = envId;
  const actRef = useRef(act);
  actRef.current = act;
  const area = useCallback((el: HTMLDivElement | null) => {
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

  if (!state) return null;
  const valid = state.env.validActions();
  const buttons = valid ?? [];
  const agentText = `${state.env.instruction()}\nturn ${state.turn} state:\n${state.observation}\nactions left: ${state.actionsLeft}`;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the play area takes the arrow keys
    <div className="play-panel" data-testid="play-panel" ref={area} tabIndex={0}>
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
      <EnvView view={state.view} />
      <h4>What the agent would read</h4>
      <pre className="observation" data-testid="play-text">
        {agentText}
      </pre>
      {state.done ? (
        <p className="play-done" data-testid="play-done">
          Episode over: total reward {state.total.toFixed(2)}.
        </p>
      ) : (
        <>
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
              placeholder={valid === null ? 'search[red shampoo]' : buttons[0]}
              onChange={(e) => setTyped(e.target.value)}
            />
            <button type="submit" className="small">
              Send
            </button>
          </form>
          {envId.startsWith('minigrid/') ? (
            <p className="field-help">
              Keys: ← → turn, ↑ forward, space toggle, p pick up, d drop, Enter done.
            </p>
          ) : null}
        </>
      )}
      <ol className="play-log">
        {state.log.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows
          <li key={i} className={l.valid ? '' : 'bad'}>
            {l.action} → reward {l.reward.toFixed(2)}
            {l.valid ? '' : ' (invalid)'}
          </li>
        ))}
      </ol>
    </div>
  );
}
