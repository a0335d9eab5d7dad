// One training step and one scoring pass of a model size on the active backend, on synthetic
// data shaped like a real minibatch: the unit the backend probe, the model table and the
// dispatch counts of the benchmark are built from. The step is update.ts policyStep (forward,
// backward, global-norm clip, Adam, one readback), exactly what the trainer runs.
import { Adam } from '../core/model/adam.js';
import { type ModelSize, modelConfig } from '../core/model/config.js';
import { createPolicy, disposeModel, type Model, parameterCount } from '../core/model/params.js';
import { scoreSequences } from '../core/model/scoring.js';
import { type Minibatch, policyStep } from '../core/rl/update.js';
import { Rng } from '../core/rng.js';

/** Shape of the synthetic work. */
export interface StepShape {
  /** Rows per optimizer step. */
  rows: number;
  /** Padded tokens per row (a scoring bucket). */
  T: number;
  /** Rows scored in one scoring call. */
  scoreRows: number;
  vocab: number;
}

export const STEP_SETTINGS = {
  lr: 1e-4,
  clipLow: 0.2,
  clipHigh: 0.2,
  entropyCoef: 0.001,
  klLossCoef: 0.001,
  klEstimator: 'k1' as const,
  gradClip: 1,
};

/** A minibatch of random tokens with every target in the loss. */
export function syntheticMinibatch(rng: Rng, b: number, T: number, vocab: number): Minibatch {
  const W = T - 1;
  const fill = (f: () => number) => Float32Array.from({ length: b * W }, f);
  return {
    b,
    T,
    tokens: Int32Array.from({ length: b * T }, () => rng.int(1, vocab)),
    mask: fill(() => 1),
    advantages: fill(() => rng.normal(0, 1)),
    oldLogp: fill(() => -Math.log(vocab) + rng.normal(0, 0.1)),
    refLogp: fill(() => -Math.log(vocab) + rng.normal(0, 0.1)),
    returns: fill(() => rng.normal(0, 1)),
    oldValues: fill(() => rng.normal(0, 1)),
  };
}

/** A random policy of `size` for the shape, with its optimizer (explicit epsilon). */
export function stepModel(size: ModelSize, shape: StepShape, seed = 0): { policy: Model; optimizer: Adam } {
  const policy = createPolicy(modelConfig(size, shape.vocab, Math.max(64, shape.T)), new Rng(seed));
  return { policy, optimizer: new Adam({ epsilon: 1e-8 }) };
}

/** Runs one training step; resolves when its readback is done. */
export async function trainingStep(policy: Model, optimizer: Adam, mb: Minibatch): Promise<void> {
  await policyStep(policy, optimizer, mb, STEP_SETTINGS);
}

export interface StepTimes {
  params: number;
  /** First step: shader compilation and buffer allocation included. */
  firstStepMs: number;
  /** Median of the timed steps. */
  stepMs: number;
  /** One scoring call over `scoreRows` rows (median; 0 when not measured). */
  scoreMs: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] as number);
};

/** Times `reps` training steps and scoring calls of `size` on the active backend. */
export async function timeSteps(
  size: ModelSize,
  shape: StepShape,
  reps: number,
  options: { score?: boolean } = {},
): Promise<StepTimes> {
  const rng = new Rng(3);
  const { policy, optimizer } = stepModel(size, shape);
  const mb = syntheticMinibatch(rng, shape.rows, shape.T, shape.vocab);
  const rows = Array.from({ length: shape.scoreRows }, () =>
    Array.from({ length: shape.T }, () => rng.int(1, shape.vocab)),
  );
  try {
    let t0 = performance.now();
    await trainingStep(policy, optimizer, mb);
    const firstStepMs = performance.now() - t0;
    const steps: number[] = [];
    for (let i = 0; i < reps; i++) {
      t0 = performance.now();
      await trainingStep(policy, optimizer, mb);
      steps.push(performance.now() - t0);
    }
    const scores: number[] = [];
    if (options.score !== false) await scoreSequences(policy, rows, { batchSize: shape.scoreRows });
    for (let i = 0; i < (options.score === false ? 0 : reps); i++) {
      t0 = performance.now();
      await scoreSequences(policy, rows, { batchSize: shape.scoreRows });
      scores.push(performance.now() - t0);
    }
    return { params: parameterCount(policy), firstStepMs, stepMs: median(steps), scoreMs: median(scores) };
  } finally {
    optimizer.dispose();
    disposeModel(policy);
  }
}
