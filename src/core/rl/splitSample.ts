// One turn's sampling on two workers (issue 47): the rows split in two, the first half decoded
// here and the second by the run's second worker (its copy of the policy gets this iteration's
// weights with the call), at once. The numbers are those of one batch: a row's tokens and
// log-probs do not depend on the rows beside it (decodeRows.ts) once both halves pad to the whole
// batch's prompt length (on wasm a softmax over another number of keys rounds its sum in another
// order: a page run on two workers left the recorded run at iteration 109 until they did), and each row gets the uniforms
// the one batch would have drawn for it — drawn ahead from a copy of the stream (turnUniforms),
// the stream then advanced by the draws that batch makes (one a row a step, for as many steps as
// the longest row took). bench/rolloutGolden.test.ts and bench/splitSample.test.ts hold it to the bit.
import type { Model } from '../model/params.js';
import { weightValues } from '../model/params.js';
import {
  type SampledRow,
  type SampleOptions,
  sampleBatch,
  skipTurn,
  turnSteps,
  turnUniforms,
} from '../model/sampling.js';
import type { Tokenizer } from '../tokenizer.js';

/** What the other worker is asked for: its rows' prompts and their share of the uniforms. */
export interface SampleShare {
  prompts: number[][];
  maxNewTokens: number;
  temperature: number;
  /** The share's uniforms, step after step (rows of the share a step). */
  draws: Float32Array;
  /** The whole batch's padded prompt length: the share pads to it as the one batch would. */
  padTo: number;
}

/** A second worker that samples a share of a turn's rows with the weights it is sent. */
export interface SampleApart {
  sample(weights: Float32Array[], share: SampleShare): Promise<SampledRow[]>;
}

/** How one turn is sampled (rollout.ts): by default sampleBatch on this thread. */
export type TurnSampler = (
  prompts: readonly (readonly number[])[],
  options: SampleOptions,
) => Promise<SampledRow[]>;

/** Rows [from, to)'s columns of a turn's uniforms [steps × B], step after step. */
function columns(draws: Float32Array, B: number, from: number, to: number): Float32Array {
  const steps = draws.length / B;
  const n = to - from;
  const out = new Float32Array(steps * n);
  for (let s = 0; s < steps; s++) out.set(draws.subarray(s * B + from, s * B + to), s * n);
  return out;
}

/** The turn sampler of `policy` that gives the second half of every turn's rows to `apart`. */
export function splitSampler(policy: Model, tok: Tokenizer, apart: SampleApart): TurnSampler {
  return async (prompts, options) => {
    const B = prompts.length;
    if (B < 2 || options.draws) return sampleBatch(policy, tok, prompts, options);
    const { maxNewTokens, temperature } = options;
    const draws = turnUniforms(options.rng, B, maxNewTokens);
    const cut = Math.ceil(B / 2);
    // Both halves pad to the whole batch's length, so every softmax has the one batch's width.
    const padTo = Math.max(...prompts.map((p) => p.length));
    const weights = await weightValues(policy);
    const [here, there] = await Promise.all([
      sampleBatch(policy, tok, prompts.slice(0, cut), {
        ...options,
        draws: columns(draws, B, 0, cut),
        padTo,
      }),
      apart.sample(weights, {
        prompts: prompts.slice(cut).map((p) => [...p]),
        maxNewTokens,
        temperature,
        draws: columns(draws, B, cut, B),
        padTo,
      }),
    ]);
    const rows = [...here, ...there];
    skipTurn(options.rng, B, turnSteps(rows));
    return rows;
  };
}
