// `starpo bench-minigrid`: MiniGrid env throughput (steps per second with the text
// observation, one thread, random policy) and the scripted expert's success rate per id,
// printed as JSON. The measuring code is envs/minigrid/bench.ts.
import { writeFileSync } from 'node:fs';
import { benchMinigrid } from '../../envs/minigrid/bench.js';
import { type Command, UsageError } from '../command.js';

interface Args {
  ids?: string[];
  steps: number;
  expertEpisodes: number;
  seed: number;
  out: string | null;
}

function parseArgs(args: string[]): Args {
  const a: Args = { steps: 100_000, expertEpisodes: 100, seed: 0, out: null };
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i];
    const value = args[i + 1];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    const int = (min: number) => {
      const n = Number(value);
      if (!Number.isInteger(n) || n < min)
        throw new UsageError(`${flag} must be an integer ≥ ${min}, got "${value}"`);
      return n;
    };
    if (flag === '--ids') a.ids = value.split(',').filter((s) => s.length > 0);
    else if (flag === '--steps') a.steps = int(1);
    else if (flag === '--expert-episodes') a.expertEpisodes = int(0);
    else if (flag === '--seed') a.seed = int(0);
    else if (flag === '--out') a.out = value;
    else throw new UsageError(`unknown option "${flag}"`);
  }
  return a;
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
  ].join('\n'),
  async run(args, io) {
    const a = parseArgs(args);
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
