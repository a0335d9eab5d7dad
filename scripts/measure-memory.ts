// Measures what core/model/rowBytes.ts is fitted to: the tfjs-wasm heap's high-water mark of one
// phase on rows of full length, each shape in a fresh Node process (the heap never shrinks), and
// prints per shape the heap per row beside the estimate's bytes per row as one JSON line.
//   update  — one policy step (the critic's is the same size and runs after it);
//   scoring — the policy, reference and critic forwards of one scoring group.
// Run: npx tsx scripts/measure-memory.ts            (the table: nano T 256 and 512, micro, WebShop-lite's shape)
//      npx tsx scripts/measure-memory.ts --one update,102,256,200,8,nano
import { execFileSync } from 'node:child_process';
import * as tf from '@tensorflow/tfjs';
import { flagStrings } from '../src/cli/flags.js';
import { defaultConfig } from '../src/core/config.js';
import { Adam } from '../src/core/model/adam.js';
import { type ModelSize, modelConfig } from '../src/core/model/config.js';
import { createCritic, createPolicy } from '../src/core/model/params.js';
import { forwardRowBytes, updateRowBytes } from '../src/core/model/rowBytes.js';
import { scoreBatch } from '../src/core/model/scoreBatch.js';
import { policyStep, policyStepSettings } from '../src/core/rl/update.js';
import { Rng } from '../src/core/rng.js';
import { setupNodeBackend } from '../src/workers/node/backend.js';

/** phase, vocabulary, T, R (loss tokens a row), rows, model size. */
const SHAPES = [
  'update,102,256,200,8,nano',
  'update,102,512,200,4,nano',
  'update,102,256,200,8,micro',
  'update,2239,384,288,8,nano',
  'scoring,102,256,200,32,nano',
  'scoring,102,512,200,32,nano',
  'scoring,102,256,200,32,micro',
  'scoring,2239,384,288,32,nano',
];

const MiB = 2 ** 20;

async function measureOne(shape: string): Promise<object> {
  const [phase, v, t, r, b, size] = shape.split(',');
  const [vocab, T, R, rows] = [v, t, r, b].map(Number) as [number, number, number, number];
  await setupNodeBackend('wasm');
  const heap = () =>
    (tf.backend() as unknown as { wasm: { HEAPU8: Uint8Array } }).wasm.HEAPU8.buffer.byteLength;
  const mc = modelConfig(size as ModelSize, vocab, T);
  const rng = new Rng(1);
  const policy = createPolicy(mc, rng.fork('policy'));
  const W = T - 1;
  const tokens = Int32Array.from({ length: rows * T }, (_, i) => (i * 7) % vocab);
  const mask = new Float32Array(rows * W);
  for (let k = 0; k < rows; k++) mask.fill(1, k * W + W - R, (k + 1) * W);
  const before = heap();
  if (phase === 'update') {
    const z = () => new Float32Array(rows * W);
    const opt = new Adam({ epsilon: 1e-8 });
    const mb = {
      b: rows,
      T,
      tokens,
      mask,
      advantages: mask.map((m, i) => m * ((i % 3) - 1)),
      oldLogp: mask.map((m) => -2 * m),
      refLogp: mask.map((m) => -2 * m),
      returns: z(),
      oldValues: z(),
    };
    await policyStep(policy, opt, mb, policyStepSettings(defaultConfig(), 1e-4));
  } else {
    const reference = createPolicy(mc, rng.fork('reference'));
    const critic = createCritic(mc, rng.fork('critic'));
    const seqs = Array.from({ length: rows }, (_, k) => Array.from(tokens.subarray(k * T, (k + 1) * T)));
    const masks = seqs.map((_, k) => mask.slice(k * W, (k + 1) * W));
    await scoreBatch(
      seqs,
      [
        { model: policy, temperature: 1 },
        { model: reference, temperature: 1 },
      ],
      critic,
      { masks, maxRows: rows },
    );
  }
  const perRow = (heap() - before) / rows;
  const estimate = (phase === 'update' ? updateRowBytes : forwardRowBytes)(mc, T, R);
  return {
    phase,
    size,
    vocab,
    T,
    R,
    rows,
    heapMiBPerRow: +(perRow / MiB).toFixed(1),
    estimateMiBPerRow: +(estimate / MiB).toFixed(1),
  };
}

const args = flagStrings(process.argv.slice(2), [
  { name: 'one', kind: 'string', help: 'one shape: phase,vocab,T,R,rows,size' },
]);
const one = args.get('one');
if (one !== undefined) console.log(JSON.stringify(await measureOne(one)));
else
  for (const shape of SHAPES)
    process.stdout.write(
      execFileSync('npx', ['tsx', 'scripts/measure-memory.ts', '--one', shape], { encoding: 'utf8' }),
    );
