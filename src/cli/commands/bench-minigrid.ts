// `starpo bench-minigrid`: MiniGrid env throughput (steps per second with the text
// observation, one thread, random policy) and the scripted expert's success rate per id,
// printed as JSON. The measuring code is envs/minigrid/bench.ts.
import { writeFileSync } from 'node:fs';
import { benchMinigrid } from '../../envs/minigrid/bench.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

interface Args {
  ids?: string[];
  steps: number;
  expertEpisodes: number;
  seed: number;
  out: string | null;
}

const FLAGS: FlagSpec[] = [
  { name: 'ids', kind: 'string', help: 'MiniGrid ids, comma-separated (default every registered id)' },
  { name: 'steps', kind: 'int', help: 'env steps timed per id (default 100000)' },
  { name: 'expert-episodes', kind: 'int', help: 'scripted-expert episodes per id (default 100)' },
  { name: 'seed', kind: 'int', help: 'the first seed (default 0)' },
  { name: 'out', kind: 'string', help: 'also write the JSON to this file' },
];

function parseBenchArgs(args: string[]): Args {
  const f = parseFlags(args, FLAGS);
  const int = (name: string, fallback: number, min: number) => {
    const n = f[name] === undefined ? fallback : Number(f[name]);
    if (n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, got "${f[name]}"`);
    return n;
  };
  return {
    ...(typeof f.ids === 'string' ? { ids: f.ids.split(',').filter((s) => s.length > 0) } : {}),
    steps: int('steps', 100_000, 1),
    expertEpisodes: int('expert-episodes', 100, 0),
    seed: int('seed', 0, 0),
    out: typeof f.out === 'string' ? f.out : null,
  };
}

export const benchMinigridCommand: Command = {
  name: 'bench-minigrid',
  summary: 'MiniGrid env steps/s with text observations, and expert success rates, as JSON',
  usage: [
    'usage: npm run -s starpo -- bench-minigrid [--ids a,b] [--steps N] [--expert-episodes N]',
    '                                          [--seed S] [--out file.json]',
    '',
    'Times N env steps per id (default 100000; random valid actions, text observation each',
    'step, one thread) and runs the scripted expert for the given number of episodes (default',
    '100). Prints the JSON result; --out also writes it to a file.',
    '',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const a = parseBenchArgs(args);
    let result: object;
    try {
      result = benchMinigrid({ ids: a.ids, steps: a.steps, expertEpisodes: a.expertEpisodes, seed: a.seed });
    } catch (err) {
      if (err instanceof Error && err.message.startsWith('benchMinigrid: unknown ids'))
        throw new UsageError(err.message);
      throw err;
    }
    const text = `${JSON.stringify(result, null, 2)}\n`;
    io.stdout.write(text);
    if (a.out) writeFileSync(a.out, text);
    return 0;
  },
};
