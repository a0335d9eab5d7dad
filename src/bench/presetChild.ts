// A child process of the throughput bench (throughputBench.ts): one preset's timed iterations
// as a user runs it, alone in its process, printed as one JSON line (benchPreset's figures).
// Run: node --import tsx src/bench/presetChild.ts <preset> <backend> <iterations>
import type { BackendName } from '../workers/backend.js';
import { setupNodeBackend } from '../workers/node/backend.js';
import { benchPreset } from './presetBench.js';

const [preset = 'echo-trap', backend = 'wasm', iterations = '11'] = process.argv.slice(2);
await setupNodeBackend(backend as BackendName);
const r = await benchPreset(preset, backend as BackendName, Number(iterations));
process.stdout.write(`${JSON.stringify(r)}\n`);
