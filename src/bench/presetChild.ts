// A child process of the throughput bench (throughputBench.ts): one preset's timed iterations
// as a user runs it, alone in its process, printed as one JSON line (benchPreset's figures).
// With `two`, on two workers (the second a worker thread, workers/node/nodeCritic.ts); with
// `meter`, each phase's matrix-product FLOPs counted (flopMeter.ts).
// Run: node --import tsx src/bench/presetChild.ts <preset> <backend> <iterations> [two] [meter]
import type { BackendName } from '../workers/backend.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { nodeSecondWorker } from '../workers/node/nodeCritic.js';
import { benchPreset } from './presetBench.js';

const [preset = 'echo-trap', backend = 'wasm', iterations = '11', ...more] = process.argv.slice(2);
await setupNodeBackend(backend as BackendName);
const second = more.includes('two') ? nodeSecondWorker(backend === 'cpu' ? 'cpu' : 'wasm') : undefined;
const r = await benchPreset(preset, backend as BackendName, Number(iterations), {}, second, {
  meter: more.includes('meter'),
});
process.stdout.write(`${JSON.stringify(r)}\n`);
