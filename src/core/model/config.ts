// Sizes and shape of the tiny decoder-only transformer: nano, micro and small, a
// configurable context, and a check that a config is usable before any weight is made.

/** Named model sizes: width, depth and heads. */
export const MODEL_PRESETS = {
  nano: { dModel: 64, nLayers: 2, nHeads: 4 },
  micro: { dModel: 128, nLayers: 4, nHeads: 4 },
  small: { dModel: 256, nLayers: 6, nHeads: 8 },
} as const;

export type ModelSize = keyof typeof MODEL_PRESETS;

/** Default context in tokens: room for a few MiniGrid turns or two WebShop pages. */
export const DEFAULT_CONTEXT = 512;

/** Plain-JSON description of a network; saved in checkpoints. */
export interface ModelConfig {
  /** Tokens in the vocabulary (the tokenizer's size). */
  vocabSize: number;
  /** Residual width D. */
  dModel: number;
  nLayers: number;
  /** Attention heads H; D must be divisible by H. */
  nHeads: number;
  /** Longest sequence, and the number of learned positions. */
  context: number;
  /** MLP hidden width as a multiple of D (GPT-2 uses 4). */
  mlpRatio: number;
}

/** A preset's config for a vocabulary size and context. */
export function modelConfig(size: ModelSize, vocabSize: number, context = DEFAULT_CONTEXT): ModelConfig {
  const preset = MODEL_PRESETS[size];
  if (!preset) throw new Error(`modelConfig: unknown size "${size}" (nano, micro, small)`);
  const config = { vocabSize, context, mlpRatio: 4, ...preset };
  validateConfig(config);
  return config;
}

/** Throws an error naming the first unusable field. */
export function validateConfig(c: ModelConfig): void {
  const positive: (keyof ModelConfig)[] = ['vocabSize', 'dModel', 'nLayers', 'nHeads', 'context', 'mlpRatio'];
  for (const key of positive) {
    if (!Number.isInteger(c[key]) || c[key] < 1) {
      throw new Error(`model config: ${key} must be a positive integer, got ${c[key]}`);
    }
  }
  if (c.dModel % c.nHeads !== 0) {
    throw new Error(`model config: dModel ${c.dModel} is not divisible by nHeads ${c.nHeads}`);
  }
}
