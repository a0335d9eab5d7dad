// Demonstrations for base models: the scripted expert plays episodes in the
// rollout's turn structure (up to `maxActionsPerTurn` actions joined with `||`, an action
// budget, a turn limit) and writes each turn as the agent would: `thinking </think> <answer>
// actions </answer>` after the forced `<think>`. A share of turns is noisy — a random action
// with the expert's thinking, or the expert's action with another turn's thinking — so the base
// agent starts at a moderate success rate with varied, partly ungrounded reasoning, like an
// instruct LLM before RL.
import { Rng } from '../core/rng.js';
import type { SftExample } from '../core/sft/sft.js';
import { envSpec } from './registry.js';
import type { TextEnv } from './types.js';

export interface DemoTurn {
  observation: string;
  actionsLeft: number;
  /** The agent's response after the forced `<think>`. */
  responseText: string;
  reward: number;
  noisy: boolean;
}

export interface Demo {
  seed: number;
  instruction: string;
  turns: DemoTurn[];
  success: boolean;
}

export interface DemoOptions {
  episodes: number;
  seed: number;
  maxTurns: number;
  maxActionsPerTurn: number;
  maxActionsPerTraj: number;
  /** Share of turns made noisy, in [0, 1]. */
  noise: number;
  /** Seeds are drawn in [0, seedRange), away from the held-out evaluation seeds. */
  seedRange?: number;
}

/** The agent's text for one turn: thinking, then the answer with `||` between actions. */
export function formatResponse(think: string, actions: readonly string[]): string {
  return `${think} </think> <answer> ${actions.join(' || ')} </answer>`;
}

/** A random valid action, or null where the env has no finite list now (free-text search). */
function randomAction(env: TextEnv, rng: Rng): string | null {
  const valid = env.validActions();
  return valid && valid.length > 0 ? rng.choice(valid) : null;
}

/** Plays `episodes` expert episodes of `envId` with noise; deterministic for `options.seed`. */
export function collectDemos(envId: string, options: DemoOptions): Demo[] {
  const spec = envSpec(envId);
  const expert = spec.expert;
  if (!expert) throw new Error(`${envId} has no scripted expert to make demonstrations from`);
  const rng = new Rng(options.seed);
  const env = spec.make();
  const reasons: string[] = [];
  const demos: Demo[] = [];
  for (let e = 0; e < options.episodes; e++) {
    const seed = rng.int(0, options.seedRange ?? 1_000_000_000);
    let observation = env.reset(seed);
    const demo: Demo = { seed, instruction: env.instruction(), turns: [], success: false };
    let left = options.maxActionsPerTraj;
    for (let turn = 0; turn < options.maxTurns && left > 0; turn++) {
      const k = Math.min(left, rng.int(1, options.maxActionsPerTurn + 1));
      const noisy = rng.bool(options.noise);
      const mode = noisy ? rng.int(0, 2) : -1;
      const actions: string[] = [];
      let think = '';
      let reward = 0;
      let done = false;
      const start = observation;
      for (let j = 0; j < k && !done; j++) {
        const step = expert(env);
        if (step.action === '') break;
        if (j === 0) think = step.reason;
        const action = (mode === 0 && j === 0 ? randomAction(env, rng) : null) ?? step.action;
        actions.push(action);
        const r = env.step(action);
        observation = r.observation;
        reward += r.reward;
        done = r.done;
        demo.success ||= r.info.success;
      }
      if (actions.length === 0) break;
      if (mode === 1 && reasons.length > 0) think = rng.choice(reasons);
      reasons.push(think);
      if (reasons.length > 200) reasons.splice(0, 100);
      demo.turns.push({
        observation: start,
        actionsLeft: left,
        responseText: formatResponse(think, actions),
        reward,
        noisy,
      });
      left -= actions.length;
      if (done) break;
    }
    demos.push(demo);
  }
  return demos;
}

/** Demonstrations as SFT examples (core/sft/sft.ts): each turn's observation, budget, response, reward. */
export function demoExamples(demos: readonly Demo[]): SftExample[] {
  return demos.map((x) => ({
    instruction: x.instruction,
    turns: x.turns.map((t) => ({
      observation: t.observation,
      actionsLeft: t.actionsLeft,
      response: { text: t.responseText },
      reward: t.reward,
    })),
  }));
}

/**
 * Texts covering what the agent will read in `envId`: observations of random-action episodes
 * (invalid actions included, so the "not understood" text is there) for vocabulary building.
 */
export function exploreTexts(envId: string, episodes: number, steps: number, seed: number): string[] {
  const spec = envSpec(envId);
  const rng = new Rng(seed);
  const env = spec.make();
  const texts: string[] = [];
  for (let e = 0; e < episodes; e++) {
    texts.push(env.reset(rng.int(0, 2_000_000_000)), env.instruction());
    for (let s = 0; s < steps; s++) {
      const action = rng.bool(0.05)
        ? 'xyzzy'
        : (randomAction(env, rng) ?? spec.expert?.(env).action ?? 'xyzzy');
      const r = env.step(action);
      texts.push(action, r.observation);
      if (r.done) break;
    }
  }
  return texts;
}
