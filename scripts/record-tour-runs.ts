// Records the guided tour's two runs (public/recorded/echo-trap-starpo.json and
// echo-trap-starpo-s.json) with the real CLI trainer: each run is `runTraining` (what
// `starpo train` does) into a temporary run directory, converted to the playground's run-file
// format. The CLI does not keep sampled trajectories, so the same config and seed are run a
// second time in process only to collect them; the script checks that the rerun's metric rows
// equal the CLI's (same seed, same backend → same run) and refuses to write otherwise. Nothing
// is drawn by hand: when the echo-trap study has real recordings, point --base at its model or
// replace the files.
// Run: npx tsx scripts/record-tour-runs.ts [--iters 60] [--base random|<checkpoint.json>] [--out public/recorded]
// Or from finished CLI runs (e.g. the echo-trap study's), rerunning each only to collect its
// trajectories: npx tsx scripts/record-tour-runs.ts --starpo <run dir> --starpo-s <run dir> (either
// alone re-records only its own file)
// A base made for these settings: npm run pretrain -- --env minigrid/Empty-5x5 --context 128
//   --max-turns 2 --max-tokens 12 --history-turns 2 --out <dir> (then --base <dir>/<stem>.json).
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runTraining } from '../src/cli/commands/train.js';
import { flagStrings } from '../src/cli/flags.js';
import { readRecordRows } from '../src/cli/runRecords.js';
import { type Config, completeConfig, defaultConfig } from '../src/core/config.js';
import { cliRunToRunData } from '../src/core/files/cliRun.js';
import { runToFile } from '../src/core/files/runFile.js';
import type { MetricRow } from '../src/core/metrics/keys.js';
import { applyAlgorithm } from '../src/core/rl/algorithms.js';
import { createTrainer } from '../src/core/rl/session.js';
import type { SampledTrajectory, TrainerEvent } from '../src/core/rl/trainer.js';
import { inProcessPools } from '../src/envs/pools.js';
import { envIds, envSpec } from '../src/envs/registry.js';
import { setupNodeBackend } from '../src/workers/node/backend.js';
import { loadBase } from '../src/workers/node/baseModel.js';

const args = flagStrings(process.argv.slice(2), [
  { name: 'iters', kind: 'int', help: 'iterations per run (default 60)' },
  { name: 'base', kind: 'string', help: 'base model: a checkpoint .json or random (default random)' },
  { name: 'out', kind: 'string', help: 'output folder (default public/recorded)' },
  { name: 'seed', kind: 'int', help: 'seed (default 1)' },
  { name: 'env', kind: 'string', help: 'env id (default minigrid/Empty-5x5)' },
  { name: 'lr', kind: 'number', help: 'learning rate (default 0.01)' },
  { name: 'starpo', kind: 'string', help: 'take the StarPO recording from this run file instead' },
  { name: 'starpo-s', kind: 'string', help: 'take the StarPO-S recording from this run file instead' },
]);
const iterations = Number(args.get('iters') ?? 60);
const base = args.get('base') ?? 'random';
const outDir = args.get('out') ?? 'public/recorded';
const seed = Number(args.get('seed') ?? 1);

/** Small, fast settings in the spirit of the echo-trap preset (a large step: lr 1e-2, 4 updates). */
const shared: Partial<Config> = {
  env: args.get('env') ?? 'minigrid/Empty-5x5',
  modelSize: 'nano',
  seed,
  iterations,
  backend: 'wasm',
  groups: 4,
  groupSize: 4,
  maxTurns: 2,
  maxTokensPerTurn: 12,
  contextLength: 128,
  historyTurns: 2,
  minibatch: 16,
  lr: Number(args.get('lr') ?? 0.01),
  stepsPerIteration: 4,
  evalEvery: 5,
  evalEpisodes: 8,
  miEvery: 5,
  miSamples: 8,
  checkpointEvery: 0,
};

function configFor(algorithm: Config['algorithm'], extra: Partial<Config>): Config {
  const start = applyAlgorithm({ ...defaultConfig(), ...shared }, algorithm);
  const r = completeConfig({ ...start, ...shared, ...extra, algorithm }, envIds());
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.config;
}

/** The same run again in process, keeping every k-th iteration's sampled trajectory. */
async function samplesOf(
  config: Config,
  every: number,
): Promise<{ rows: MetricRow[]; samples: SampledTrajectory[] }> {
  await setupNodeBackend(config.backend);
  const loaded = await loadBase({
    env: config.env,
    size: config.modelSize,
    base,
    context: config.contextLength,
    seed: config.seed,
  });
  const spec = envSpec(config.env);
  const _evalSpec = envSpec(spec.heldOutId ?? config.env);
  const rows: MetricRow[] = [];
  const samples: SampledTrajectory[] = [];
  const { trainer, models } = createTrainer(config, loaded.base, inProcessPools(config.env), {
    onMetrics: (r) => rows.push(r),
    onSample: (s) => {
      if (s.iteration % every === 0 || s.iteration === config.iterations - 1) samples.push(s);
    },
  });
  try {
    while (trainer.iteration < config.iterations && !trainer.haltReason) await trainer.step();
  } finally {
    trainer.dispose();
    models.dispose();
  }
  return { rows, samples };
}

async function record(file: string, label: string, config: Config, from?: string): Promise<void> {
  const t0 = Date.now();
  let dir = from;
  if (!dir) {
    dir = await mkdtemp(join(tmpdir(), 'starpo-record-'));
    const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin } as never;
    await runTraining(config, { out: dir, base, quiet: true }, io);
  }
  const runDir = dir;
  const read = (f: string) => readFile(join(runDir, f), 'utf8');
  // A stored run's records may be gzip'd (`starpo results compress`); a fresh one's are plain.
  const metrics = await readRecordRows<MetricRow>(runDir, 'metrics.jsonl');
  const events = await readRecordRows<TrainerEvent>(runDir, 'events.jsonl');
  const summary = JSON.parse(await read('summary.json'));
  // Name the base by its file only: the recording must not carry this machine's paths.
  summary.base = base === 'random' ? 'random' : basename(String(summary.base ?? base));
  const again = await samplesOf(config, Math.max(1, Math.round(config.iterations / 30)));
  if (JSON.stringify(again.rows.map(stable)) !== JSON.stringify(metrics.map(stable)))
    throw new Error(`${label}: the rerun's metrics differ from the CLI run's; not writing ${file}`);
  const name = `recorded run of ${label} (${config.env}, seed ${config.seed}, ${config.iterations} iterations, lr ${config.lr}, base ${summary.base})`;
  const data = cliRunToRunData(
    { config, metrics, events, summary, samples: again.samples },
    name,
    Date.now(),
  );
  await writeFile(join(outDir, file), runToFile(data));
  const s = data.meta.summary!;
  console.log(
    `${file}: ${metrics.length} rows, ${events.length} events, ${again.samples.length} samples, ` +
      `peak ${s.peakSuccess.toFixed(2)} final ${s.finalSuccess.toFixed(2)} echo trap ${s.echoTrap} ` +
      `(${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
}

/** A row without its timing and memory keys (those differ between two runs of the same config). */
function stable(r: MetricRow): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(r))
    if (!/^(time|perf|memory)\//.test(k)) out[k] = Number((v as number).toPrecision(6));
  return out;
}

/** A finished CLI run's config, checked as any config is. */
async function configOf(dir: string): Promise<Config> {
  const r = completeConfig(JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')), envIds());
  if (!r.ok) throw new Error(`${dir}/config.json: ${JSON.stringify(r.errors)}`);
  return r.config;
}

await mkdir(outDir, { recursive: true });
const fromStarpo = args.get('starpo');
const fromStarpoS = args.get('starpo-s');
if (fromStarpo || fromStarpoS) {
  // Either alone re-records only its file (the two can run as two jobs).
  if (fromStarpo) {
    const a = await configOf(fromStarpo);
    await record('echo-trap-starpo.json', `StarPO (${a.algorithm})`, a, fromStarpo);
  }
  if (fromStarpoS) {
    const b = await configOf(fromStarpoS);
    await record(
      'echo-trap-starpo-s.json',
      `StarPO-S (${b.algorithm}, filter ${b.filterMode})`,
      b,
      fromStarpoS,
    );
  }
} else {
  await record('echo-trap-starpo.json', 'StarPO (starpo-grpo)', configFor('starpo-grpo', {}));
  await record(
    'echo-trap-starpo-s.json',
    'StarPO-S (oversample filter, warmed-up critic)',
    configFor('starpo-s', { filterMode: 'oversample', criticWarmup: 5 }),
  );
}
