// The model core's public API in one import: configs, weights, forward pass, sampling,
// scoring and checkpoints (see each file for details and tensor ownership).
export {
  type CheckpointExpectation,
  type CheckpointManifest,
  loadCheckpoint,
  saveCheckpoint,
} from './checkpoint.js';
export {
  DEFAULT_CONTEXT,
  MODEL_PRESETS,
  type ModelConfig,
  type ModelSize,
  modelConfig,
  validateConfig,
} from './config.js';
export {
  cloneModel,
  copyWeights,
  createCritic,
  createPolicy,
  disposeModel,
  type Model,
  type ModelKind,
  modelVariables,
  parameterCount,
} from './params.js';
export { type SampledRow, type SampleOptions, sampleBatch } from './sampling.js';
export {
  bucketLength,
  criticValues,
  padRows,
  policyLogProbs,
  predictValues,
  SCORE_BUCKETS,
  type ScoredRows,
  scoreSequences,
} from './scoring.js';
export { forward, type KvCache, lmLogits, valueHead } from './transformer.js';
