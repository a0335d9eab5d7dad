// The rollout engine (RAGEN's agent_proxy / es_manager / ctx_manager loop): every
// trajectory of the iteration advances turn by turn in ONE batch — build each active
// trajectory's prompt, sample all responses together with the KV cache, parse them, send the
// actions to the environment pool in one call, record everything. A trajectory ends when its
// episode is done, at the turn limit, or when its action budget is spent.
// Reward (RAGEN es_manager): the sum of env rewards minus `formatPenalty` for each turn whose
// answer is malformed or holds an invalid action (or no action at all).

import { now } from '../clock.js';
import type { Model } from '../model/params.js';
import { type SampledRow, sampleBatch } from '../model/sampling.js';
import { type ParsedResponse, parseResponse } from '../parse.js';
import { buildSequence, type PromptTurn } from '../prompt.js';
import type { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import type { Trajectory } from '../trajectory.js';
import type { EnvPool, TurnResult } from './envPool.js';
import type { TurnSampler } from './splitSample.js';

export type { Trajectory, TurnRecord } from '../trajectory.js';

export interface RolloutSettings {
  maxTurns: number;
  maxActionsPerTurn: number;
  maxActionsPerTraj: number;
  maxTokensPerTurn: number;
  contextLength: number;
  historyTurns: number;
  /** 0 = greedy. */
  temperature: number;
  formatPenalty: number;
}

/** Where each trajectory starts: its group and the seed shared by the group. */
export interface RolloutStart {
  group: number;
  seed: number;
  /** The env's step-randomness instance (envPool.ts streamInstance); default 0. */
  instance?: number;
}

export interface RolloutStats {
  tokens: number;
  envSteps: number;
  sampleMs: number;
  envMs: number;
}

/** The turns of a trajectory as the prompt builder takes them, plus the current state. */
export function promptTurns(
  traj: Trajectory,
  current?: { observation: string; actionsLeft: number },
): PromptTurn[] {
  const turns: PromptTurn[] = traj.turns.map((t) => ({
    observation: t.observation,
    actionsLeft: t.actionsLeft,
    response: { ids: t.responseIds },
    reward: t.reward,
  }));
  if (current) turns.push({ observation: current.observation, actionsLeft: current.actionsLeft });
  return turns;
}

/** Where each trajectory is between turns: its current observation and the actions it has left. */
interface Position {
  observation: string[];
  actionsLeft: number[];
}

/** The prompt of each active trajectory: its history as the settings keep it, and its current state. */
function turnPrompts(
  tok: Tokenizer,
  trajectories: readonly Trajectory[],
  active: readonly number[],
  at: Position,
  settings: RolloutSettings,
): number[][] {
  return active.map((i) => {
    const traj = trajectories[i]!;
    return buildSequence(
      tok,
      traj.instruction,
      promptTurns(traj, { observation: at.observation[i]!, actionsLeft: at.actionsLeft[i]! }),
      {
        historyTurns: settings.historyTurns,
        maxTokens: settings.contextLength,
        reserveTokens: settings.maxTokensPerTurn,
      },
    ).ids;
  });
}

/**
 * Records trajectory i's turn: the sampled response, what it parsed to, the actions sent and
 * their outcomes (`result`, absent when none was sent), the turn's reward (the format penalty
 * when the answer was unusable, sent no action or an invalid one), and where the trajectory is
 * now. Throws on a non-finite env reward.
 */
function recordTurn(
  traj: Trajectory,
  i: number,
  at: Position,
  turn: { promptIds: number[]; row: SampledRow; parsed: ParsedResponse; actions: string[] },
  result: TurnResult | undefined,
  settings: RolloutSettings,
  stats: RolloutStats,
): void {
  const { row, parsed: p, actions } = turn;
  const outcomes = result?.outcomes ?? [];
  const broken = outcomes.find((o) => !Number.isFinite(o.reward));
  if (broken) {
    throw new Error(
      `environment returned a non-finite reward (${broken.reward}) for action "${broken.action.slice(0, 80)}"`,
    );
  }
  const envReward = outcomes.reduce((s, o) => s + o.reward, 0);
  const penalised = !p.formatOk || actions.length === 0 || outcomes.some((o) => !o.valid);
  const reward = envReward - (penalised ? settings.formatPenalty : 0);
  traj.turns.push({
    observation: at.observation[i]!,
    actionsLeft: at.actionsLeft[i]!,
    promptIds: turn.promptIds,
    responseIds: row.ids,
    responseText: row.text,
    logps: Array.from(row.logps),
    parsed: p,
    actions,
    outcomes,
    envReward,
    penalised,
    reward,
  });
  stats.tokens += row.ids.length;
  stats.envSteps += outcomes.length;
  traj.reward += reward;
  // An answer that could not be used still costs a turn; the budget counts actions sent.
  at.actionsLeft[i] = at.actionsLeft[i]! - Math.max(outcomes.length, actions.length);
  if (result) {
    at.observation[i] = result.observation;
    traj.success ||= result.success;
    if (result.done) traj.done = true;
  }
}

/**
 * Runs one trajectory per start, all in lockstep. The pool gets slot i for start i.
 * `rng` drives sampling only (the envs are seeded by `starts`).
 */
export async function rollout(
  policy: Model,
  tok: Tokenizer,
  pool: EnvPool,
  starts: readonly RolloutStart[],
  settings: RolloutSettings,
  rng: Rng,
  /** How a turn's responses are sampled (default: sampleBatch here; splitSample.ts on two workers). */
  sample: TurnSampler = (prompts, options) => sampleBatch(policy, tok, prompts, options),
): Promise<{ trajectories: Trajectory[]; stats: RolloutStats }> {
  const stats: RolloutStats = { tokens: 0, envSteps: 0, sampleMs: 0, envMs: 0 };
  let t0 = now();
  const resets = await pool.reset(
    starts.map((s) => s.seed),
    starts.map((s) => s.instance ?? 0),
  );
  stats.envMs += now() - t0;
  const trajectories: Trajectory[] = starts.map((s, i) => ({
    group: s.group,
    seed: s.seed,
    instruction: resets[i]?.instruction ?? '',
    turns: [],
    reward: 0,
    success: false,
    done: false,
  }));
  const at: Position = {
    observation: resets.map((r) => r.observation),
    actionsLeft: starts.map(() => settings.maxActionsPerTraj),
  };

  for (let turn = 0; turn < settings.maxTurns; turn++) {
    const active = trajectories
      .map((_, i) => i)
      .filter((i) => !trajectories[i]!.done && at.actionsLeft[i]! > 0);
    if (active.length === 0) break;
    const prompts = turnPrompts(tok, trajectories, active, at, settings);
    t0 = now();
    const rows = await sample(prompts, {
      maxNewTokens: settings.maxTokensPerTurn,
      temperature: settings.temperature,
      rng,
    });
    stats.sampleMs += now() - t0;

    const parsed = rows.map((r) => parseResponse(r.text, { maxActionsPerTurn: settings.maxActionsPerTurn }));
    const requests: { slot: number; actions: string[] }[] = [];
    active.forEach((i, k) => {
      const actions = parsed[k]!.formatOk ? parsed[k]!.actions.slice(0, at.actionsLeft[i]) : [];
      if (actions.length > 0) requests.push({ slot: i, actions });
    });
    t0 = now();
    const results = await pool.step(requests);
    stats.envMs += now() - t0;
    const bySlot = new Map(requests.map((r, k) => [r.slot, results[k]!]));

    active.forEach((i, k) => {
      const actions = requests.find((r) => r.slot === i)?.actions ?? [];
      const turnOf = { promptIds: prompts[k]!, row: rows[k]!, parsed: parsed[k]!, actions };
      recordTurn(trajectories[i]!, i, at, turnOf, bySlot.get(i), settings, stats);
    });
  }
  return { trajectories, stats };
}
