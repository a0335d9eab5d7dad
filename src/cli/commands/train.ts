// `npm run starpo -- train --env <id> --algo <name> --iters <n> --seed <s> --out <dir>`: one
// run in Node. Every config field is a flag (the field table's `flag` names), or
// comes from `--config file.json`; the base model's episode settings come first, then the
// algorithm's switches, then `--preset`, then the file, then the flags (core/resolve.ts). Writes <out>/config.json,
// metrics.jsonl, events.jsonl, summary.json and checkpoints; progress with ETA on stderr (the run
// itself: cli/runTraining.ts, which a sweep's runs share).
import { FIELDS } from '../../core/config.js';
import { PRESETS } from '../../core/presets.js';
import { WORKER_CHOICES, type WorkerChoice } from '../../core/rl/schedule.js';
import { type Command, UsageError } from '../command.js';
import { fieldFlag } from '../fieldFlags.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import type { OutMode } from '../runDir.js';
import { runTraining } from '../runTraining.js';
import { baseLookup, resolveTrainConfig } from '../trainConfig.js';

/** One flag per config field, named by the field table. */
export const TRAIN_FIELD_FLAGS: FlagSpec[] = FIELDS.map(fieldFlag);

const EXTRA_FLAGS: FlagSpec[] = [
  { name: 'out', kind: 'string', help: 'output directory (required)' },
  { name: 'config', kind: 'string', help: 'a JSON file with config fields (validated)' },
  {
    name: 'preset',
    kind: 'string',
    help: `a playground preset under the file and flags (${Object.keys(PRESETS).join(', ')})`,
  },
  {
    name: 'base',
    kind: 'string',
    help: 'base model: a checkpoint .json path, or "random" (default: the models index)',
  },
  { name: 'models', kind: 'string', help: 'directory of the models index (default public/models)' },
  { name: 'quiet', kind: 'bool', help: 'no progress line' },
  {
    name: 'resume',
    kind: 'bool',
    help: 'continue the run in --out from its last checkpoint (the rows an uninterrupted run writes); a finished run is left as it is',
  },
  {
    name: 'force',
    kind: 'bool',
    help: 'start again from 0 in an --out that holds a run (its files are overwritten)',
  },
  {
    name: 'workers',
    kind: 'string',
    help: 'auto: a second worker thread, when the machine has 2 cores for every run on it, takes the critic (beside the policy) or, without a critic, half of each turn’s sampling, half the reference scoring and the measurements; 1: one thread; 2: two (default auto; the numbers are the same)',
  },
  {
    name: 'lanes',
    kind: 'int',
    help: 'runs sharing this machine, this one included (a sweep sets it; default 1)',
  },
];

const FLAGS = [...EXTRA_FLAGS, ...TRAIN_FIELD_FLAGS];

export const TRAIN_USAGE = `usage: npm run starpo -- train --env <id> --algo <name> --iters <n> --seed <s> --out <dir> [options]\n\n${flagHelp(FLAGS)}`;

export const trainCommand: Command = {
  name: 'train',
  summary: 'train one run; writes metrics.jsonl, events.jsonl, summary.json and checkpoints',
  usage: TRAIN_USAGE,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (typeof flags.out !== 'string' || flags.out === '') throw new UsageError('--out <dir> is required');
    const base = typeof flags.base === 'string' ? flags.base : undefined;
    const workers = flags.workers ?? 'auto';
    if (!(WORKER_CHOICES as readonly unknown[]).includes(workers))
      throw new UsageError(`--workers: "${workers}" is not one of ${WORKER_CHOICES.join(', ')}`);
    const lanes = flags.lanes ?? 1;
    if (typeof lanes !== 'number' || lanes < 1)
      throw new UsageError(`--lanes: must be at least 1 (got ${lanes})`);
    const config = await resolveTrainConfig(flags, baseLookup(base, flags.models as string | undefined));
    const summary = await runTraining(
      config,
      {
        out: flags.out,
        base,
        models: flags.models as string | undefined,
        quiet: Boolean(flags.quiet),
        mode: outMode(flags),
        workers: workers as WorkerChoice,
        lanes,
      },
      io,
    );
    io.stdout.write(`${JSON.stringify(summary)}\n`);
    if ('fault' in summary) {
      io.stderr.write(`starpo train: ${String(summary.fault)}\n`);
      return 1;
    }
    return 0;
  },
};

/** --resume, --force or neither (both is a usage error). */
function outMode(flags: Record<string, unknown>): OutMode {
  if (flags.resume && flags.force) throw new UsageError('--resume and --force: give one of them');
  return flags.resume ? 'resume' : flags.force ? 'force' : 'new';
}
