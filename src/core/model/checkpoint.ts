// Checkpoints as one JSON manifest plus one binary blob: weights (float32, little-endian, in
// each network's fixed parameter order), model configs, and the tokenizer's vocabulary.
// Pure functions on Uint8Array — no file system here; the CLI and the UI do the I/O.
// Loading checks everything against what the caller expects and refuses a mismatch with a
// message naming the field, the weight or the first differing vocabulary token. A manifest is
// schema-checked first (manifest.ts: types and bounds), the blob's size is capped, and weights
// holding NaN or ±Inf are refused, so an imported file can neither crash nor poison a run.
import type * as tf from '@tensorflow/tfjs';
import { Tokenizer, type Vocabulary } from '../tokenizer.js';
import type { AdamState } from './adam.js';
import { type ModelConfig, validateConfig } from './config.js';
import { MAX_CHECKPOINT_BYTES, parseManifest } from './manifest.js';
import { type Model, type ModelKind, modelFromValues, paramSpecs } from './params.js';

export const CHECKPOINT_FORMAT = 'starpo-checkpoint';

/** Where one weight's values sit in the blob (offset and length in float32 elements). */
export interface TensorEntry {
  name: string;
  shape: number[];
  offset: number;
  length: number;
}

/** One saved network. */
export interface NetworkEntry {
  kind: ModelKind;
  config: ModelConfig;
  tensors: TensorEntry[];
}

/** The JSON half of a checkpoint. */
export interface CheckpointManifest {
  format: typeof CHECKPOINT_FORMAT;
  version: 1;
  vocabulary: Vocabulary;
  policy: NetworkEntry;
  critic?: NetworkEntry;
  /** Free-form plain data (env id, iteration, seed, …). */
  meta: Record<string, unknown>;
  /** A run's position beside its weights (trainer.ts `TrainingState`), so a resume continues it exactly. */
  training?: TrainingEntry;
}

/** One Adam optimizer: its counters here, its moments in the blob (one entry per weight, `<weight>/m` and `/v`). */
export interface OptimizerEntry {
  steps: number;
  accBeta1: number;
  accBeta2: number;
  first: TensorEntry[];
  second: TensorEntry[];
}

export interface TrainingEntry {
  /** Plain data, checked by whoever resumes (trainingState.ts `parseTrainerPosition`). */
  position: Record<string, unknown>;
  optimizers: { policy: OptimizerEntry; critic?: OptimizerEntry };
}

/** What a checkpoint's `training` holds once loaded. */
export interface LoadedTraining {
  position: unknown;
  optimizers: { policy: AdamState; critic?: AdamState };
}

export interface SavedCheckpoint {
  manifest: CheckpointManifest;
  /** float32 little-endian weights of every network, back to back. */
  blob: Uint8Array;
}

export interface LoadedCheckpoint {
  policy: Model;
  critic?: Model;
  tokenizer: Tokenizer;
  meta: Record<string, unknown>;
  training?: LoadedTraining;
}

/** What the caller needs the checkpoint to match; absent fields are not checked. */
export interface CheckpointExpectation {
  vocabulary?: Vocabulary;
  policyConfig?: ModelConfig;
  criticConfig?: ModelConfig;
  /** Require a critic in the file. */
  needCritic?: boolean;
}

/** Serialises networks and vocabulary. Reads the weights with `await data()`. */
export async function saveCheckpoint(input: {
  policy: Model;
  critic?: Model;
  tokenizer: Tokenizer;
  meta?: Record<string, unknown>;
  /** The run's position and optimizers (trainer.ts `trainingState`), for an exact resume. */
  training?: { position: object; optimizers: { policy: AdamState; critic?: AdamState } };
}): Promise<SavedCheckpoint> {
  if (input.policy.config.vocabSize !== input.tokenizer.size) {
    throw new Error(
      `saveCheckpoint: policy vocabSize ${input.policy.config.vocabSize} ≠ tokenizer size ${input.tokenizer.size}`,
    );
  }
  const chunks: Float32Array[] = [];
  let offset = 0;
  const entry = async (model: Model): Promise<NetworkEntry> => {
    const tensors: TensorEntry[] = [];
    for (const name of model.names) {
      const v = model.weights[name] as tf.Variable;
      const data = (await v.data()) as Float32Array;
      tensors.push({ name, shape: [...v.shape], offset, length: data.length });
      chunks.push(data);
      offset += data.length;
    }
    return { kind: model.kind, config: { ...model.config }, tensors };
  };
  const manifest: CheckpointManifest = {
    format: CHECKPOINT_FORMAT,
    version: 1,
    vocabulary: input.tokenizer.toJSON(),
    policy: await entry(input.policy),
    meta: { ...(input.meta ?? {}) },
  };
  if (input.critic) manifest.critic = await entry(input.critic);
  if (input.training) {
    const moments = (model: Model, list: Float32Array[], suffix: string): TensorEntry[] =>
      list.map((values, i) => {
        const name = model.names[i] as string;
        const e = {
          name: `${name}/${suffix}`,
          shape: [...(model.weights[name]?.shape ?? [])],
          offset,
          length: values.length,
        };
        chunks.push(values);
        offset += values.length;
        return e;
      });
    const optimizer = (model: Model, a: AdamState): OptimizerEntry => ({
      steps: a.steps,
      accBeta1: a.accBeta1,
      accBeta2: a.accBeta2,
      first: moments(model, a.first, 'm'),
      second: moments(model, a.second, 'v'),
    });
    const { policy, critic } = input.training.optimizers;
    manifest.training = {
      position: JSON.parse(JSON.stringify(input.training.position)) as Record<string, unknown>,
      optimizers: {
        policy: optimizer(input.policy, policy),
        ...(critic && input.critic ? { critic: optimizer(input.critic, critic) } : {}),
      },
    };
  }
  const floats = new Float32Array(offset);
  let at = 0;
  for (const c of chunks) {
    floats.set(c, at);
    at += c.length;
  }
  return { manifest, blob: new Uint8Array(floats.buffer) };
}

function vocabularyDifference(found: Vocabulary, want: Vocabulary): string | null {
  const n = Math.max(found.tokens.length, want.tokens.length);
  for (let i = 0; i < n; i++) {
    if (found.tokens[i] !== want.tokens[i]) {
      return `vocabulary differs at id ${i}: file has ${JSON.stringify(found.tokens[i] ?? null)}, expected ${JSON.stringify(want.tokens[i] ?? null)} (${found.tokens.length} vs ${want.tokens.length} tokens)`;
    }
  }
  if (JSON.stringify(found.atoms) !== JSON.stringify(want.atoms)) return 'vocabulary atoms differ';
  return null;
}

function configDifference(role: string, found: ModelConfig, want: ModelConfig): string | null {
  for (const key of Object.keys(want) as (keyof ModelConfig)[]) {
    if (found[key] !== want[key]) return `${role} config ${key} is ${found[key]}, expected ${want[key]}`;
  }
  return null;
}

function readNetwork(role: string, entry: NetworkEntry, floats: Float32Array): Model {
  if (entry?.kind !== role)
    throw new Error(`checkpoint: ${role} entry is missing or has kind ${entry?.kind}`);
  validateConfig(entry.config);
  const expected = paramSpecs(entry.kind, entry.config);
  const byName = new Map(entry.tensors.map((t) => [t.name, t]));
  for (const spec of expected) {
    const t = byName.get(spec.name);
    if (!t) throw new Error(`checkpoint: ${role} weight ${spec.name} is missing`);
    if (JSON.stringify(t.shape) !== JSON.stringify(spec.shape)) {
      throw new Error(
        `checkpoint: ${role} weight ${spec.name} has shape [${t.shape}], expected [${spec.shape}]`,
      );
    }
    const n = spec.shape.reduce((a, b) => a * b, 1);
    if (t.length !== n || t.offset < 0 || t.offset + n > floats.length) {
      throw new Error(
        `checkpoint: ${role} weight ${spec.name} lies outside the blob (${floats.length} floats)`,
      );
    }
    for (let i = t.offset; i < t.offset + n; i++) {
      if (!Number.isFinite(floats[i] as number)) {
        throw new Error(
          `checkpoint: ${role} weight ${spec.name} holds a non-finite value (${floats[i]}) at element ${i - t.offset}`,
        );
      }
    }
  }
  if (entry.tensors.length !== expected.length) {
    const extra = entry.tensors.find((t) => !expected.some((s) => s.name === t.name));
    throw new Error(`checkpoint: ${role} has an unexpected weight ${extra?.name ?? '(duplicate)'}`);
  }
  return modelFromValues(entry.kind, entry.config, (name) => {
    const t = byName.get(name) as TensorEntry;
    return floats.slice(t.offset, t.offset + t.length);
  });
}

/**
 * Rebuilds the networks and tokenizer from a manifest (parsed JSON) and blob, refusing a file that
 * does not match `expect`. The returned models own new variables: dispose them when done.
 */
export function loadCheckpoint(
  manifest: unknown,
  blob: Uint8Array,
  expect: CheckpointExpectation = {},
): LoadedCheckpoint {
  const m = manifest as CheckpointManifest;
  if (!m || typeof m !== 'object' || m.format !== CHECKPOINT_FORMAT) {
    throw new Error(
      `checkpoint: not a ${CHECKPOINT_FORMAT} manifest (format field is ${JSON.stringify((m as { format?: unknown })?.format)})`,
    );
  }
  if (m.version !== 1) throw new Error(`checkpoint: unsupported version ${m.version}`);
  if (blob.byteLength > MAX_CHECKPOINT_BYTES)
    throw new Error(
      `checkpoint: blob of ${blob.byteLength} bytes is over the ${MAX_CHECKPOINT_BYTES}-byte limit`,
    );
  parseManifest(m);
  const tokenizer = new Tokenizer(m.vocabulary);
  if (expect.vocabulary) {
    const diff = vocabularyDifference(m.vocabulary, expect.vocabulary);
    if (diff) throw new Error(`checkpoint: ${diff}`);
  }
  if (m.policy?.config?.vocabSize !== tokenizer.size) {
    throw new Error(
      `checkpoint: policy vocabSize ${m.policy?.config?.vocabSize} ≠ vocabulary size ${tokenizer.size}`,
    );
  }
  const checks: [string, ModelConfig | undefined, ModelConfig | undefined][] = [
    ['policy', m.policy.config, expect.policyConfig],
    ['critic', m.critic?.config, expect.criticConfig],
  ];
  for (const [role, found, want] of checks) {
    if (!want) continue;
    if (!found) throw new Error(`checkpoint: has no ${role}`);
    const diff = configDifference(role, found, want);
    if (diff) throw new Error(`checkpoint: ${diff}`);
  }
  if (expect.needCritic && !m.critic) throw new Error('checkpoint: has no critic');
  if (blob.byteLength % 4 !== 0)
    throw new Error(`checkpoint: blob of ${blob.byteLength} bytes is not whole float32s`);
  // Copy so the floats are 4-byte aligned whatever the blob's byteOffset.
  const floats = new Float32Array(blob.slice().buffer);
  const policy = readNetwork('policy', m.policy, floats);
  let critic: Model | undefined;
  try {
    critic = m.critic ? readNetwork('critic', m.critic, floats) : undefined;
  } catch (err) {
    for (const name of policy.names) policy.weights[name]?.dispose();
    throw err;
  }
  let training: LoadedTraining | undefined;
  try {
    training = m.training ? readTraining(m.training, m, floats) : undefined;
  } catch (err) {
    for (const model of [policy, critic])
      if (model) for (const name of model.names) model.weights[name]?.dispose();
    throw err;
  }
  return {
    policy,
    ...(critic ? { critic } : {}),
    tokenizer,
    meta: { ...(m.meta ?? {}) },
    ...(training ? { training } : {}),
  };
}

/** The optimizers' moments, each checked against its network's weights: count, shape, finite values. */
function readTraining(t: TrainingEntry, m: CheckpointManifest, floats: Float32Array): LoadedTraining {
  const optimizer = (
    role: 'policy' | 'critic',
    o: OptimizerEntry,
    net: NetworkEntry | undefined,
  ): AdamState => {
    if (!net) throw new Error(`checkpoint: training has a ${role} optimizer but no ${role}`);
    const list = (entries: TensorEntry[], suffix: string) => {
      if (entries.length !== 0 && entries.length !== net.tensors.length)
        throw new Error(
          `checkpoint: ${role} optimizer has ${entries.length} ${suffix} moments for ${net.tensors.length} weights`,
        );
      return entries.map((e, i) => {
        const w = net.tensors[i] as TensorEntry;
        if (
          e.name !== `${w.name}/${suffix}` ||
          JSON.stringify(e.shape) !== JSON.stringify(w.shape) ||
          e.length !== w.length
        )
          throw new Error(
            `checkpoint: ${role} optimizer moment ${e.name} does not match weight ${w.name} [${w.shape}]`,
          );
        if (e.offset + e.length > floats.length)
          throw new Error(
            `checkpoint: ${role} optimizer moment ${e.name} lies outside the blob (${floats.length} floats)`,
          );
        const values = floats.slice(e.offset, e.offset + e.length);
        const bad = values.findIndex((x) => !Number.isFinite(x));
        if (bad >= 0)
          throw new Error(
            `checkpoint: ${role} optimizer moment ${e.name} holds a non-finite value at element ${bad}`,
          );
        return values;
      });
    };
    const first = list(o.first, 'm');
    const second = list(o.second, 'v');
    if (first.length !== second.length) throw new Error(`checkpoint: ${role} optimizer has unpaired moments`);
    return { steps: o.steps, accBeta1: o.accBeta1, accBeta2: o.accBeta2, first, second };
  };
  const policy = optimizer('policy', t.optimizers.policy, m.policy);
  const critic = t.optimizers.critic ? optimizer('critic', t.optimizers.critic, m.critic) : undefined;
  return { position: t.position, optimizers: { policy, ...(critic ? { critic } : {}) } };
}
