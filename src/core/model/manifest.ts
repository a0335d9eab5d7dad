// The schema of a checkpoint manifest (checkpoint.ts), checked before anything is built from
// it: a manifest comes from files people import, so every field has a type and a bound, and a
// hostile one (wrong types, NaN, negative or huge numbers, thousands of layers) is refused with
// a message naming the field — never a TypeError, a hang or a huge allocation.
import { z } from 'zod';

/** Largest weight blob accepted, in bytes (64 Mi float32: far above the `small` policy + critic). */
export const MAX_CHECKPOINT_BYTES = 256 * 1024 * 1024;

/** Bounds of a saved network's shape (the presets are well inside them). */
export const MODEL_CONFIG_LIMITS = {
  vocabSize: 100_000,
  dModel: 2048,
  nLayers: 48,
  nHeads: 64,
  context: 8192,
  mlpRatio: 8,
} as const;

const MAX_TOKENS = MODEL_CONFIG_LIMITS.vocabSize;
const MAX_TENSORS = 1000;

const count = (max: number) =>
  z
    .number()
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'must be at least 1' })
    .max(max, {
      error: `must be at most ${max}`,
    });

const modelConfigSchema = z.object({
  vocabSize: count(MODEL_CONFIG_LIMITS.vocabSize),
  dModel: count(MODEL_CONFIG_LIMITS.dModel),
  nLayers: count(MODEL_CONFIG_LIMITS.nLayers),
  nHeads: count(MODEL_CONFIG_LIMITS.nHeads),
  context: count(MODEL_CONFIG_LIMITS.context),
  mlpRatio: count(MODEL_CONFIG_LIMITS.mlpRatio),
});

const index = z
  .number()
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must not be negative' })
  .max(Number.MAX_SAFE_INTEGER);

const tensorSchema = z.object({
  name: z.string().min(1).max(100),
  shape: z.array(index.max(MAX_CHECKPOINT_BYTES / 4)).max(4, { error: 'has more than 4 dimensions' }),
  offset: index,
  length: index,
});

const networkSchema = z.object({
  kind: z.enum(['policy', 'critic']),
  config: modelConfigSchema,
  tensors: z.array(tensorSchema).max(MAX_TENSORS, { error: `has more than ${MAX_TENSORS} weights` }),
});

const beta = z.number().gt(0, { error: 'must be above 0' }).lte(1, { error: 'must be at most 1' });

const optimizerSchema = z.object({
  steps: index,
  accBeta1: beta,
  accBeta2: beta,
  first: z.array(tensorSchema).max(MAX_TENSORS, { error: `has more than ${MAX_TENSORS} moments` }),
  second: z.array(tensorSchema).max(MAX_TENSORS, { error: `has more than ${MAX_TENSORS} moments` }),
});

/** The whole manifest; `meta` stays free-form plain data, `training.position` is checked by the trainer. */
export const manifestSchema = z.object({
  format: z.literal('starpo-checkpoint'),
  version: z.literal(1, { error: 'unsupported version (expected 1)' }),
  vocabulary: z.object({
    // 1: words only; 2: words plus spelling pieces (tokenizer.ts).
    version: z.union([z.literal(1), z.literal(2)]),
    tokens: z.array(z.string().max(256)).max(MAX_TOKENS, { error: `has more than ${MAX_TOKENS} tokens` }),
    atoms: z.array(z.string().min(1).max(32)).max(64),
  }),
  policy: networkSchema,
  critic: networkSchema.optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
  training: z
    .object({
      position: z.record(z.string(), z.unknown()),
      optimizers: z.object({ policy: optimizerSchema, critic: optimizerSchema.optional() }),
    })
    .optional(),
});

/** Throws `checkpoint: <field>: <problem>` for the first problem of a manifest; returns it typed. */
export function parseManifest(raw: unknown): z.infer<typeof manifestSchema> {
  const r = manifestSchema.safeParse(raw);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const where = issue?.path.map(String).join('.') || '(manifest)';
  throw new Error(`checkpoint: manifest field ${where}: ${issue?.message ?? 'is invalid'}`);
}
