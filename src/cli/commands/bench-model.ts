// `starpo bench-model`: speed of the model core per backend and size, as one JSON document —
// tokens/s of batched sampling with and without the KV cache, teacher-forced scoring time and
// one gradient step. Node only (CPU and WASM backends; the WebGPU numbers come from the browser).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { type ModelSize, modelConfig } from '../../core/model/config.js';
import {
  createPolicy,
  disposeModel,
  type Model,
  modelVariables,
  parameterCount,
} from '../../core/model/params.js';
import { sampleBatch } from '../../core/model/sampling.js';
import { policyLogProbs, scoreSequences } from '../../core/model/scoring.js';
import { Rng } from '../../core/rng.js';
import { buildVocabulary, Tokenizer } from '../../core/tokenizer.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

interface Settings {
  backends: string[];
  sizes: ModelSize[];
  rows: number;
  promptTokens: number;
  newTokens: number;
  vocabWords: number;
  gradRows: number;
}

const FULL: Settings = {
  backends: ['cpu', 'wasm'],
  sizes: ['nano', 'micro'],
  rows: 64,
  promptTokens: 64,
  newTokens: 16,
  vocabWords: 1000,
  gradRows: 16,
};
const QUICK: Settings = {
  backends: ['cpu', 'wasm'],
  sizes: ['nano'],
  rows: 4,
  promptTokens: 12,
  newTokens: 4,
  vocabWords: 100,
  gradRows: 2,
};

/** A tokenizer of about `words` letter-only words plus specials (the size of an env vocabulary). */
function syntheticTokenizer(words: number): Tokenizer {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const names: string[] = [];
  for (let i = 0; names.length < words; i++)
    names.push(
      `w${letters[Math.floor(i / 26) % 26]}${letters[i % 26]}${i >= 676 ? letters[Math.floor(i / 676) % 26] : ''}`,
    );
  return new Tokenizer(buildVocabulary([names.join(' ')]));
}

async function selectBackend(name: string): Promise<void> {
  if (name === 'wasm') {
    const dist = dirname(createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm'));
    setWasmPaths(`${dist}/`);
  }
  if (!(await tf.setBackend(name)) || tf.getBackend() !== name)
    throw new Error(`backend ${name} is not available`);
  await tf.ready();
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await f();
  return { ms: performance.now() - t0, value };
}

async function benchOne(policy: Model, tok: Tokenizer, s: Settings): Promise<Record<string, unknown>> {
  const rng = new Rng(1);
  const first = tok.size - s.vocabWords;
  const prompts = Array.from({ length: s.rows }, () =>
    Array.from({ length: s.promptTokens }, () => rng.int(first, tok.size)),
  );
  const sample = (useCache: boolean) =>
    sampleBatch(policy, tok, prompts, {
      maxNewTokens: s.newTokens,
      temperature: 1,
      rng: new Rng(2),
      stopIds: [],
      useCache,
    });
  await sample(true); // warm-up: kernels, buffers
  const generated = s.rows * s.newTokens;
  const cached = await timed(() => sample(true));
  const uncached = await timed(() => sample(false));
  const seqs = cached.value.map((r, b) => [...(prompts[b] as number[]), ...r.ids]);
  await scoreSequences(policy, seqs);
  const score = await timed(() => scoreSequences(policy, seqs));
  const gradStep = () =>
    timed(async () => {
      const T = s.promptTokens + s.newTokens;
      const tokens = tf.tensor2d(seqs.slice(0, s.gradRows).flat(), [s.gradRows, T], 'int32');
      const { value, grads } = tf.variableGrads(
        () => policyLogProbs(policy, tokens).logp.mean().neg() as tf.Scalar,
        modelVariables(policy),
      );
      await value.data();
      tf.dispose([tokens, value, grads]);
    });
  await gradStep();
  const grad = await gradStep();
  const perSec = (n: number, ms: number) => Math.round((n / ms) * 1000);
  return {
    sampleCached: { ms: Math.round(cached.ms), tokensPerSec: perSec(generated, cached.ms) },
    sampleNoCache: { ms: Math.round(uncached.ms), tokensPerSec: perSec(generated, uncached.ms) },
    cacheSpeedup: Number((uncached.ms / cached.ms).toFixed(2)),
    score: {
      ms: Math.round(score.ms),
      tokensPerSec: perSec(s.rows * (s.promptTokens + s.newTokens), score.ms),
    },
    gradStep: { rows: s.gradRows, ms: Math.round(grad.ms) },
  };
}

const FLAGS: FlagSpec[] = [
  { name: 'quick', kind: 'bool', help: 'a tiny version (4 rows, nano) in a few seconds' },
  { name: 'backends', kind: 'string', help: 'backends, comma-separated: cpu, wasm' },
  { name: 'sizes', kind: 'string', help: 'model sizes, comma-separated: nano, micro, small' },
  { name: 'rows', kind: 'int', help: 'rows sampled and scored (default 64)' },
];

function parseBenchArgs(args: string[]): Settings {
  const f = parseFlags(args, FLAGS);
  let s = f.quick === true ? { ...QUICK } : { ...FULL };
  if (typeof f.backends === 'string') s = { ...s, backends: f.backends.split(',') };
  if (typeof f.sizes === 'string') {
    const sizes = f.sizes.split(',');
    for (const z of sizes)
      if (!['nano', 'micro', 'small'].includes(z)) throw new UsageError(`--sizes: unknown size "${z}"`);
    s = { ...s, sizes: sizes as ModelSize[] };
  }
  if (f.rows !== undefined) {
    const n = Number(f.rows);
    if (n < 1) throw new UsageError('--rows must be a positive integer');
    s = { ...s, rows: n };
  }
  for (const b of s.backends)
    if (b !== 'cpu' && b !== 'wasm') throw new UsageError(`--backends: "${b}" is not cpu or wasm`);
  return s;
}

export const benchModelCommand: Command = {
  name: 'bench-model',
  summary:
    'Sampling (with/without KV cache), scoring and gradient-step speed per backend and model size, as JSON',
  usage: [
    'usage: npm run -s starpo -- bench-model [--quick] [--backends cpu,wasm] [--sizes nano,micro] [--rows 64]',
    '',
    'Times batched sampling of 16 new tokens after a 64-token prompt for 64 rows, with and',
    'without the KV cache, scoring of the same rows, and one gradient step on 16 of them,',
    'for each backend and size, and writes one JSON document to stdout.',
    '--quick runs a tiny version (4 rows, nano) in a few seconds.',
    '',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const settings = parseBenchArgs(args);
    const tok = syntheticTokenizer(settings.vocabWords);
    const results: Record<string, unknown>[] = [];
    const initial = tf.getBackend();
    for (const backend of settings.backends) {
      await selectBackend(backend);
      for (const size of settings.sizes) {
        const context = settings.promptTokens + settings.newTokens;
        const policy = createPolicy(modelConfig(size, tok.size, Math.max(context, 64)), new Rng(0));
        try {
          results.push({
            backend,
            size,
            params: parameterCount(policy),
            ...(await benchOne(policy, tok, settings)),
          });
        } finally {
          disposeModel(policy);
        }
        io.stderr.write(`bench-model: ${backend} ${size} done\n`);
      }
    }
    if (initial) await tf.setBackend(initial);
    const report = { tfjs: tf.version.tfjs, vocabSize: tok.size, ...settings, results };
    io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return 0;
  },
};
