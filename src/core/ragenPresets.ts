// Presets for RAGEN's own environments (issue 12): Bandit, FrozenLake-4x4 and Sokoban-6x6 in
// the paper's setting scaled to our nano models, each as vanilla StarPO (where the paper shows
// the echo trap) and its StarPO-S counterpart with the same budget. Every override carries its
// reason; a value not settled by a measured run says "provisional". Merged into PRESETS by
// core/presets.ts, so the playground, the CLI and the study see one table.
import type { Config } from './config.js';
import type { Preset } from './presetType.js';
import { FILTER_ARMS } from './rl/filterArms.js';

type Reasons = Partial<Record<keyof Config, string>>;

/** One RAGEN environment: its id, episode settings (those of its shipped base model) and why. */
interface RagenEnv {
  key: string;
  env: string;
  label: string;
  episode: Partial<Config>;
  episodeReasons: Reasons;
  /** What the paper shows for this env, for the summaries. */
  paper: { trap: string; stable: string };
  /** What the echo-trap study measured here (docs/echo-trap.md), once it ran; else "provisional". */
  outcome?: { trap: string; stable: string };
  /** How long the vanilla preset runs, measured on a 2-core machine (WASM), said before Start. */
  time?: string;
  /** Reasons that cite a measured run, where one was made (else the provisional common ones). */
  measured?: Reasons;
  /** Per-env values that replace the common budget (each with its reason in `measured`). */
  tuned?: Partial<Config>;
}

/** The budget both sides of a pair share, so they differ only in the algorithm's switches. */
const COMMON: Partial<Config> = {
  groups: 8,
  groupSize: 8,
  iterations: 80,
  lr: 1e-3,
  stepsPerIteration: 4,
  temperature: 1,
  evalEvery: 10,
  evalEpisodes: 32,
  miEvery: 10,
  miSamples: 8,
  checkpointEvery: 10,
};

const COMMON_REASONS: Reasons = {
  groups: 'P = 8 start states as in RAGEN (env_groups 8)',
  groupSize: 'N = 8 rollouts per start state: half RAGEN’s 16, so an iteration fits a CPU budget',
  iterations:
    'provisional: the paper’s collapses come between steps 10 and 170 of 200 (Fig 5–6), and the measured runs below showed none within 30 iterations',
  lr: 'provisional: RAGEN’s 1e-6 is for a pretrained 0.5B LLM; a nano model trained from scratch needs a far larger Adam step',
  stepsPerIteration:
    'provisional: 4 optimizer steps per iteration, RAGEN’s 128 trajectories in minibatches of 32, matched across both presets of a pair so filtering cannot protect by updating less',
  temperature: 'T = 1 sampling for rollouts, as RAGEN',
  evalEvery: 'held-out success every 10 iterations, enough points for a curve',
  evalEpisodes: '32 held-out start states: a cheap validation curve (binomial standard error up to 0.09)',
  miEvery: 'reasoning-MI proxy every 10 iterations (RAGEN-2’s template-collapse signal)',
  miSamples: '8 prompts teacher-forced against each other (chance retrieval 1/8), kept small for CPU time',
  checkpointEvery: 'a checkpoint every 10 iterations, so a reload or a closed tab resumes the run exactly',
};

const SHORT_CONTEXT: Reasons = {
  historyTurns: 'only the current turn in the prompt, as the shipped base model was trained',
  contextLength: '256 tokens, the shipped base model’s context: short sequences keep training cheap',
};

/** FrozenLake and Sokoban: RAGEN's 5 turns and 10 actions, 2 per turn, as their base models. */
const GRID_EPISODE: RagenEnv['episode'] = {
  maxTurns: 5,
  maxActionsPerTurn: 2,
  maxActionsPerTraj: 10,
  historyTurns: 1,
  contextLength: 256,
};

const RAGEN_ENVS: readonly RagenEnv[] = [
  {
    key: 'bandit',
    env: 'bandit/Bandit',
    label: 'Bandit',
    episode: { maxTurns: 1, maxActionsPerTurn: 1, maxActionsPerTraj: 1, historyTurns: 1, contextLength: 256 },
    time: 'about 3½ minutes on a 2-core laptop (WASM), measured alone: 2.6 s an iteration over 10 iterations, loading included',
    episodeReasons: {
      maxTurns: 'one turn, as RAGEN’s Bandit',
      maxActionsPerTurn: 'one pull per episode',
      maxActionsPerTraj: 'one pull per episode',
      ...SHORT_CONTEXT,
    },
    paper: {
      trap: 'the paper’s PPO peaks near step 100, then crashes',
      stable: 'near 1.0 at step 200 in the paper',
    },
    measured: {
      lr: 'measured on Bandit before this round’s fixes, with independent rollout streams (the code now shares a group’s stream): 5e-3 broke the answer format within one iteration (no rise, so no echo trap to watch); at 1e-3 (2 seeds × 80 iterations) vanilla StarPO rose from ~0.3 to ~0.99 training success and held while its entropy fell about tenfold. Under shared streams a group’s rollouts see the same payout, so GRPO’s per-group z-score and the top-25% std filter act on luck the whole group shares: “GRPO collapses, StarPO-S holds” on Bandit follows from the expected gradient, not from echo-trap dynamics. Re-measured under shared streams at this budget (seeds 201–208, docs/echo-trap.md section 11): GRPO went to the safe arm in 8 of 8 seeds, as that gradient predicts; StarPO ended on the risky arm in 6 of 8 and StarPO-S in 5 of 8, neither separated from the frozen control (48% risky)',
      iterations:
        'measured: 80 iterations, the study’s length here; under shared streams no run of vanilla StarPO was called an echo trap in 80 iterations (8 seeds; the paper’s PPO falls after step ~100 of 200)',
    },
    outcome: {
      trap: 'under shared streams (seeds 201–208, 80 iterations) every run settled on one arm, the risky one in 6 of 8 and the safe one in 2; none was called an echo trap',
      stable:
        'under shared streams (seeds 201–208, steps matched) every run settled on one arm, the risky one in 5 of 8 and the safe one in 3, not separated from the frozen control; none was called an echo trap: not the paper’s stable curve',
    },
  },
  {
    key: 'frozenlake',
    env: 'frozenlake/FrozenLake-4x4',
    label: 'FrozenLake',
    time: 'about 12 minutes on a 2-core laptop (WASM), measured in the page',
    episode: GRID_EPISODE,
    episodeReasons: {
      maxTurns: '5 turns, as RAGEN',
      maxActionsPerTurn:
        'at most 2 actions per turn (RAGEN allows 5): fewer tokens per turn for a nano model, the base model’s setting',
      maxActionsPerTraj: '10 actions per episode, as RAGEN',
      ...SHORT_CONTEXT,
    },
    paper: {
      trap: 'the paper’s PPO peaks ≈ 0.19 near step 60, 0 by ~130',
      stable: '≈ 0.20 at step 200 in the paper',
    },
    measured: {
      lr: 'measured on FrozenLake at 1e-3: vanilla StarPO’s train success wandered between 0.0 and 0.47 around its ~0.2 start; in the study (1 seed, 40 iterations, 4 × 8 rollouts) its greedy held-out success fell from 0.25 to 0 while StarPO-S’s ended at 0.25 (docs/echo-trap-study.md, made before this round’s fixes; one seed: suggestive only)',
    },
    outcome: {
      trap: 'in a run made before this round’s fixes (1 seed, 40 iterations) held-out success fell from 0.25 to 0, but training success never rose beyond its start’s noise: no echo trap by the calibrated detector (the run-time one said trapped)',
      stable:
        'in a run made before this round’s fixes (1 seed, 40 iterations) held-out success ended where it began, 0.25',
    },
  },
  {
    key: 'sokoban',
    env: 'sokoban/Sokoban-6x6',
    label: 'Sokoban',
    time: 'about 31 minutes on a 2-core laptop (WASM), measured in the page',
    episode: GRID_EPISODE,
    episodeReasons: {
      maxTurns: '5 turns, as RAGEN’s SimpleSokoban',
      maxActionsPerTurn:
        'at most 2 actions per turn (RAGEN allows 5): fewer tokens per turn for a nano model, the base model’s setting',
      maxActionsPerTraj: '10 actions per episode, as RAGEN',
      ...SHORT_CONTEXT,
    },
    paper: { trap: 'the paper’s PPO peaks ≈ 0.12, 0 by ~step 90', stable: '≈ 0.19 at step 200 in the paper' },
    tuned: { lr: 3e-4 },
    measured: {
      lr: 'measured on Sokoban: at 1e-3 every turn was malformed from iteration 2 on (return at the −0.5 floor, 5 turns × −0.1 format penalty), a break, not a rise and fall; at 3e-4 the study (1 seed, 30 iterations, 4 × 8 rollouts) saw vanilla StarPO rise from ~0.09 to 0.28 and fall to 0 as malformed turns climbed to ~0.7 (docs/echo-trap-study.md, made before this round’s fixes)',
    },
    outcome: {
      trap: 'in a run made before this round’s fixes (1 seed, 30 iterations) it rose to 0.28 and fell to 0, malformed turns climbing to ~0.7: a rise and fall by hand, too brief for the calibrated detector, which does not flag it',
      stable:
        'in a run made before this round’s fixes (1 seed, 30 iterations, steps matched, critic warm-up) it rose and fell too (by hand; not flagged) and broke faster, every turn malformed from iteration 14: StarPO-S did not prevent it here',
    },
  },
];

function pair(e: RagenEnv): [Preset, Preset] {
  const overrides: Partial<Config> = { env: e.env, ...e.episode, ...COMMON, ...e.tuned };
  const reasons: Reasons = {
    env: `RAGEN’s ${e.label}, with its shipped nano base model`,
    ...e.episodeReasons,
    ...COMMON_REASONS,
    ...e.measured,
  };
  return [
    {
      name: `${e.key}-starpo`,
      title: `${e.label}: vanilla StarPO`,
      summary: `${e.label} with vanilla StarPO (PPO, KL 0.001, no filter), where ${e.paper.trap}; ${e.outcome?.trap ?? 'provisional here'}`,
      algorithm: 'starpo-ppo',
      overrides,
      reasons,
      ...(e.time ? { time: e.time } : {}),
    },
    {
      name: `${e.key}-starpo-s`,
      title: `${e.label}: StarPO-S, steps matched`,
      summary: `${e.label} with StarPO-S (top 25% groups by reward std, clip-higher, no KL; ${FILTER_ARMS['steps-matched'].label}), ${e.paper.stable}; ${e.outcome?.stable ?? 'provisional here'}`,
      algorithm: 'starpo-s',
      // The pair shares stepsPerIteration 4 and the subsample filter: the steps-matched arm.
      arm: 'steps-matched',
      overrides,
      reasons,
      // Not timed on its own: the same rollouts as the vanilla preset, and its steps train on a
      // quarter of the groups, so it is at most as long.
      ...(e.time
        ? {
            time: `at most as long as the vanilla preset (${e.time.replace(/, measured.*$/, '')}): the same rollouts, and its optimizer steps train on a quarter of the groups; not timed on its own`,
          }
        : {}),
    },
  ];
}

/** The RAGEN-environment presets by name: `<env>-starpo` and `<env>-starpo-s` for each env. */
export const RAGEN_PRESETS: Readonly<Record<string, Preset>> = Object.fromEntries(
  RAGEN_ENVS.flatMap(pair).map((p) => [p.name, p]),
);
