// What the page is shown of an iteration, as plain data: a trajectory for the viewer, the MI
// proxy's cross-scoring matrix (RAGEN-2's reasoning-collapse check, metrics/mi.ts) and the
// reasoning panel's first turns of every paired group, with the frozen base model's beside them
// on MI iterations. The trainer builds them only for a caller that takes samples (the page).
import type { Config } from '../config.js';
import type { MiResult } from '../metrics/mi.js';
import type { Model } from '../model/params.js';
import { Rng } from '../rng.js';
import type { Tokenizer } from '../tokenizer.js';
import { type EnvPool, streamInstance } from './envPool.js';
import { type RolloutStart, rollout, type Trajectory } from './rollout.js';
import { rolloutSettings } from './runSchedule.js';

/**
 * RAGEN-2's cross-scoring matrix of an iteration where the MI proxy was computed: row i is the
 * i-th reasoning sample scored under every prompt j (log p(z_i | x_j), the thinking's tokens only).
 */
export interface MiSnapshot {
  matrix: number[][];
  /** The end of each prompt (the state the thinking was written for), for labels. */
  prompts: string[];
  /** Each reasoning sample's text. */
  thinks: string[];
  mi: number;
  retrievalAcc: number;
}

/** One rollout's first turn: what it thought and what it did first. */
export interface FirstTurn {
  think: string;
  action: string;
  success: boolean;
}

/**
 * The reasoning across inputs of an iteration (the reasoning panel): for each paired group (the
 * first P), its start seed, its rollouts' first turns, and — on iterations where the MI proxy is
 * computed — the frozen base model's first turns from the same start seed (sampled at the same
 * temperature on a stream of its own, so the run's own rows do not change).
 */
export interface ReasoningSnapshot {
  groups: { seed: number; rollouts: FirstTurn[]; base?: FirstTurn[] }[];
}

/** A trajectory as plain data for the viewer. */
export interface SampledTrajectory {
  iteration: number;
  group: number;
  seed: number;
  instruction: string;
  reward: number;
  success: boolean;
  /** The iteration's cross-scoring matrix, on iterations where the MI proxy was computed. */
  mi?: MiSnapshot;
  /** Every paired group's first turns this iteration (and the frozen base's, every MI iteration). */
  reasoning?: ReasoningSnapshot;
  turns: {
    observation: string;
    responseText: string;
    tokens: string[];
    logps: number[];
    actions: string[];
    valid: boolean[];
    reward: number;
    penalised: boolean;
    /** The actions left shown at the turn's start (absent in samples stored before it was kept). */
    actionsLeft?: number;
  }[];
}

/** The matrix of an MI result with its labels, or undefined when it scored no pair. */
export function miSnapshotOf(r: MiResult, tok: Tokenizer): MiSnapshot | undefined {
  if (r.matrix.length === 0) return undefined;
  return {
    matrix: r.matrix,
    prompts: r.pairs.map((p) => tok.decode(p.promptIds.slice(-24))),
    thinks: r.pairs.map((p) => tok.decode(p.thinkIds)),
    mi: r.mi,
    retrievalAcc: r.retrievalAcc,
  };
}

/** A rollout's first turn: its thinking and its first action (lower case). */
const firstTurnOf = (t: Trajectory): FirstTurn => ({
  think: t.turns[0]?.parsed.think ?? '',
  action: (t.turns[0]?.actions[0] ?? '(none)').toLowerCase().trim(),
  success: t.success,
});

/** Rolls out the frozen base model from `starts` (on its own random stream). */
export type BaseRollout = (starts: RolloutStart[]) => Promise<readonly Trajectory[]>;

/** The start of every rollout the frozen base takes for the panel: each paired group's seed, N times. */
export function baseStartsOf(
  trajs: readonly Trajectory[],
  c: Pick<Config, 'groups' | 'groupSize' | 'groupStreams'>,
): RolloutStart[] {
  return pairedGroups(trajs, c).flatMap((gr, g) =>
    Array.from({ length: c.groupSize }, (_, k) => ({
      group: g,
      seed: gr.seed,
      instance: streamInstance(c.groupStreams, k),
    })),
  );
}

/** The paired groups' seeds and first turns, in group order (groups without a rollout left out). */
function pairedGroups(trajs: readonly Trajectory[], c: Pick<Config, 'groups'>): ReasoningSnapshot['groups'] {
  const groups: ReasoningSnapshot['groups'] = [];
  for (let g = 0; g < c.groups; g++) {
    const ts = trajs.filter((t) => t.group === g);
    if (ts.length > 0) groups.push({ seed: (ts[0] as Trajectory).seed, rollouts: ts.map(firstTurnOf) });
  }
  return groups;
}

/**
 * The paired groups' first turns, and with `base` the frozen base model's from the same start
 * seeds (one rollout of N per group).
 */
export async function reasoningOf(
  trajs: readonly Trajectory[],
  c: Pick<Config, 'groups' | 'groupSize' | 'groupStreams'>,
  base: BaseRollout | null,
): Promise<ReasoningSnapshot> {
  const groups = pairedGroups(trajs, c);
  if (base && groups.length > 0) {
    const trajectories = await base(baseStartsOf(trajs, c));
    groups.forEach((gr, g) => {
      gr.base = trajectories.filter((t) => t.group === g).map(firstTurnOf);
    });
  }
  return { groups };
}

/** The iteration's first trajectory for the viewer, its tokens as text. */
export function sampleOf(trajs: readonly Trajectory[], iteration: number, tok: Tokenizer): SampledTrajectory {
  const t = trajs[0] as Trajectory;
  return {
    iteration,
    group: t.group,
    seed: t.seed,
    instruction: t.instruction,
    reward: t.reward,
    success: t.success,
    turns: t.turns.map((turn) => ({
      observation: turn.observation,
      responseText: turn.responseText,
      tokens: tok.tokenStrings(turn.responseIds),
      logps: turn.logps,
      actions: turn.actions,
      valid: turn.outcomes.map((o) => o.valid),
      reward: turn.reward,
      penalised: turn.penalised,
      actionsLeft: turn.actionsLeft,
    })),
  };
}

/**
 * The frozen base model's first turns on the given start seeds (N rollouts each, the group's
 * streams), sampled on demand for the reasoning panel at any iteration. Its randomness comes from
 * a stream of its own, derived from the run's seed and the iteration, so asking twice gives the
 * same turns and no training stream moves.
 */
export async function baseFirstTurns(
  base: Model,
  tok: Tokenizer,
  pool: EnvPool,
  seeds: readonly number[],
  c: Config,
  iteration: number,
): Promise<FirstTurn[][]> {
  const starts: RolloutStart[] = seeds.flatMap((seed, g) =>
    Array.from({ length: c.groupSize }, (_, k) => ({
      group: g,
      seed,
      instance: streamInstance(c.groupStreams, k),
    })),
  );
  const rng = new Rng(c.seed).fork(`base-on-demand:${iteration}`);
  const { trajectories } = await rollout(base, tok, pool, starts, rolloutSettings(c, c.temperature), rng);
  return seeds.map((_, g) => trajectories.filter((t) => t.group === g).map(firstTurnOf));
}
