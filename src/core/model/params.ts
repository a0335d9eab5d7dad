// The weights of a network as tf.Variables, made deterministically from a seeded Rng (never
// tf's own random ops), plus cloning (the frozen reference policy), copying and disposal.
// Initialisation follows GPT-2/nanoGPT: N(0, 0.02) weights, residual output projections scaled
// by 1/sqrt(2·layers), zero biases, LayerNorm gain 1.
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../rng.js';
import { type ModelConfig, validateConfig } from './config.js';

/** A policy has tied token embeddings as its LM head; a critic has a scalar value head. */
export type ModelKind = 'policy' | 'critic';

/** A network: its config and its named variables (the order of `names` is fixed by the config). */
export interface Model {
  readonly kind: ModelKind;
  readonly config: ModelConfig;
  /** Variable names in creation order; checkpoints store tensors in this order. */
  readonly names: readonly string[];
  readonly weights: Readonly<Record<string, tf.Variable>>;
  /** False for the frozen reference copy. */
  readonly trainable: boolean;
}

/** Name, shape and initial distribution of one weight. */
interface ParamSpec {
  name: string;
  shape: number[];
  init: 'normal' | 'zeros' | 'ones';
  std?: number;
}

/** The parameter table of a network of this kind and config, in a fixed order. */
export function paramSpecs(kind: ModelKind, c: ModelConfig): ParamSpec[] {
  validateConfig(c);
  const D = c.dModel;
  const F = c.mlpRatio * D;
  const residualStd = 0.02 / Math.sqrt(2 * c.nLayers);
  const specs: ParamSpec[] = [
    { name: 'wte', shape: [c.vocabSize, D], init: 'normal', std: 0.02 },
    { name: 'wpe', shape: [c.context, D], init: 'normal', std: 0.02 },
  ];
  for (let l = 0; l < c.nLayers; l++) {
    const p = `h${l}.`;
    specs.push(
      { name: `${p}ln1.g`, shape: [D], init: 'ones' },
      { name: `${p}ln1.b`, shape: [D], init: 'zeros' },
      { name: `${p}attn.wqkv`, shape: [D, 3 * D], init: 'normal', std: 0.02 },
      { name: `${p}attn.bqkv`, shape: [3 * D], init: 'zeros' },
      { name: `${p}attn.wo`, shape: [D, D], init: 'normal', std: residualStd },
      { name: `${p}attn.bo`, shape: [D], init: 'zeros' },
      { name: `${p}ln2.g`, shape: [D], init: 'ones' },
      { name: `${p}ln2.b`, shape: [D], init: 'zeros' },
      { name: `${p}mlp.wfc`, shape: [D, F], init: 'normal', std: 0.02 },
      { name: `${p}mlp.bfc`, shape: [F], init: 'zeros' },
      { name: `${p}mlp.wproj`, shape: [F, D], init: 'normal', std: residualStd },
      { name: `${p}mlp.bproj`, shape: [D], init: 'zeros' },
    );
  }
  specs.push({ name: 'lnf.g', shape: [D], init: 'ones' }, { name: 'lnf.b', shape: [D], init: 'zeros' });
  if (kind === 'critic') {
    specs.push(
      { name: 'vhead.w', shape: [D, 1], init: 'normal', std: 0.02 },
      { name: 'vhead.b', shape: [1], init: 'zeros' },
    );
  }
  return specs;
}

function initValues(spec: ParamSpec, rng: Rng): Float32Array {
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const values = new Float32Array(n);
  if (spec.init === 'ones') values.fill(1);
  if (spec.init === 'normal') {
    // One stream per parameter name: a weight's values do not depend on the others.
    const r = rng.fork(spec.name);
    const std = spec.std ?? 0.02;
    for (let i = 0; i < n; i++) values[i] = r.normal(0, std);
  }
  return values;
}

/** Makes a model from explicit values per name (checkpoint loading); validates every shape. */
export function modelFromValues(
  kind: ModelKind,
  config: ModelConfig,
  values: (name: string, shape: number[]) => Float32Array,
  trainable = true,
): Model {
  const specs = paramSpecs(kind, config);
  const weights: Record<string, tf.Variable> = {};
  for (const spec of specs) {
    const data = values(spec.name, spec.shape);
    const init = tf.tensor(data, spec.shape, 'float32');
    // The variable shares init's data; disposing init leaves one reference (the variable's).
    weights[spec.name] = tf.variable(init, trainable);
    init.dispose();
  }
  return { kind, config: { ...config }, names: specs.map((s) => s.name), weights, trainable };
}

/** A new network with weights drawn from `rng` (same seed and config ⇒ same weights). */
export function createModel(kind: ModelKind, config: ModelConfig, rng: Rng): Model {
  const specs = new Map(paramSpecs(kind, config).map((s) => [s.name, s]));
  return modelFromValues(kind, config, (name) => initValues(specs.get(name) as ParamSpec, rng));
}

/** The policy network (tied embeddings as the LM head). */
export function createPolicy(config: ModelConfig, rng: Rng): Model {
  return createModel('policy', config, rng);
}

/** The critic: same shape as the policy, separate weights, value head. */
export function createCritic(config: ModelConfig, rng: Rng): Model {
  return createModel('critic', config, rng);
}

/** A copy with its own variables; `trainable: false` gives the frozen reference policy. */
export function cloneModel(model: Model, trainable = false): Model {
  const weights: Record<string, tf.Variable> = {};
  for (const name of model.names) {
    const copy = (model.weights[name] as tf.Variable).clone();
    weights[name] = tf.variable(copy, trainable);
    copy.dispose();
  }
  return { kind: model.kind, config: { ...model.config }, names: [...model.names], weights, trainable };
}

/** Copies `src`'s weights into `dst` (same kind and config), e.g. to reset the reference. */
export function copyWeights(dst: Model, src: Model): void {
  if (dst.kind !== src.kind || JSON.stringify(dst.config) !== JSON.stringify(src.config)) {
    throw new Error('copyWeights: models differ in kind or config');
  }
  for (const name of dst.names) (dst.weights[name] as tf.Variable).assign(src.weights[name] as tf.Variable);
}

/** The model's variables in `names` order (the optimizer's var list). */
export function modelVariables(model: Model): tf.Variable[] {
  return model.names.map((n) => model.weights[n] as tf.Variable);
}

/** The weights of `model` in its `names` order, copied out (for another worker, or a check). */
export function weightValues(model: Model): Promise<Float32Array[]> {
  return Promise.all(
    modelVariables(model).map(async (v) => Float32Array.from((await v.data()) as Float32Array)),
  );
}

/** `values`, in `names` order as weightValues gives them, become `model`'s weights. */
export function assignWeightValues(model: Model, values: readonly Float32Array[]): void {
  modelVariables(model).forEach((v, i) => {
    const t = tf.tensor(values[i] as Float32Array, v.shape, 'float32');
    v.assign(t);
    t.dispose();
  });
}

/** A model of `kind` and `config` with `values` as its weights, in `names` order (the order its specs are made in). */
export function modelFromWeightValues(
  kind: ModelKind,
  config: ModelConfig,
  values: readonly Float32Array[],
  trainable = true,
): Model {
  let i = 0;
  return modelFromValues(kind, config, () => values[i++] as Float32Array, trainable);
}

/** Number of scalar parameters. */
export function parameterCount(model: Model): number {
  return modelVariables(model).reduce((n, v) => n + v.size, 0);
}

/** Frees every variable of the model. */
export function disposeModel(model: Model): void {
  for (const v of modelVariables(model)) v.dispose();
}
