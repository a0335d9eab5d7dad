// `npm run starpo -- soak --iters 1000`: a long run on the nano model with tiny rollouts that
// checks what must not grow over time — tfjs tensor count and bytes flat after the warm-up,
// nothing left once the run is disposed, heap growth within a bound, and on webgpu the GPU
// buffer bytes reaching a plateau (src/reliability/soak.ts). WebGPU in Node runs on the `webgpu`
// package (Dawn), which needs a Vulkan driver chosen when the process starts (VK_ICD_FILENAMES).
// Progress on stderr, the report as one JSON line on stdout; exit 1 when a check fails.
import { ALGORITHM_NAMES } from '../../core/config.js';
import { envIds } from '../../envs/registry.js';
import { runSoak } from '../../reliability/soak.js';
import { setupNodeBackend } from '../../workers/node/backend.js';
import { type Command, UsageError } from '../command.js';
import { choiceFlag, type FlagSpec, flagHelp, parseFlags } from '../flags.js';

const FLAGS: FlagSpec[] = [
  { name: 'iters', kind: 'int', help: 'iterations (default 1000, at most 100000)' },
  { name: 'env', kind: 'string', help: 'environment id (default minigrid/Empty-5x5)' },
  { name: 'algo', kind: 'string', help: `algorithm (default starpo-ppo) [${ALGORITHM_NAMES.join('|')}]` },
  { name: 'backend', kind: 'string', help: 'cpu | wasm | webgpu (default wasm)' },
  { name: 'seed', kind: 'int', help: 'seed (default 1)' },
  { name: 'max-heap-growth', kind: 'number', help: 'largest heap growth accepted, MiB (default 64)' },
  { name: 'quiet', kind: 'bool', help: 'no progress line' },
];

export const soakCommand: Command = {
  name: 'soak',
  summary: 'long run on the nano model: tensor count flat, heap and GPU bytes bounded (reliability)',
  usage: `usage: npm run starpo -- soak [--iters 1000] [options]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const f = parseFlags(args, FLAGS);
    const iterations = (f.iters as number | undefined) ?? 1000;
    if (iterations < 2 || iterations > 100_000) throw new UsageError('--iters: must be from 2 to 100000');
    const env = (f.env as string | undefined) ?? 'minigrid/Empty-5x5';
    if (!envIds().includes(env))
      throw new UsageError(`--env: "${env.slice(0, 80)}" is not a registered environment`);
    const algorithm = choiceFlag('algorithm', (f.algo as string | undefined) ?? 'starpo-ppo');
    const backend = (f.backend as string | undefined) ?? 'wasm';
    if (backend !== 'cpu' && backend !== 'wasm' && backend !== 'webgpu')
      throw new UsageError('--backend: must be cpu, wasm or webgpu');
    await setupNodeBackend(backend);
    const t0 = performance.now();
    const report = await runSoak({
      iterations,
      env,
      algorithm,
      seed: (f.seed as number | undefined) ?? 1,
      maxHeapGrowthMiB: (f['max-heap-growth'] as number | undefined) ?? 64,
      onIteration: (done, s) => {
        if (f.quiet || (done % 10 !== 0 && done !== iterations)) return;
        const sec = (performance.now() - t0) / 1000;
        const gpu =
          s.gpuBytesAllocated === null ? '' : `  gpu ${(s.gpuBytesAllocated / 2 ** 20).toFixed(1)} MiB`;
        io.stderr.write(
          `\rsoak ${done}/${iterations}  tensors ${s.numTensors}  heap ${s.heapMiB} MiB${gpu}  ${(sec / done).toFixed(2)} s/it   `,
        );
      },
    });
    if (!f.quiet) io.stderr.write('\n');
    io.stdout.write(`${JSON.stringify(report)}\n`);
    for (const p of report.problems) io.stderr.write(`starpo soak: ${p}\n`);
    return report.ok ? 0 : 1;
  },
};
