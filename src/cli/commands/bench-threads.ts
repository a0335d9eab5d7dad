// `starpo bench-threads`: only the WASM-threads part of the benchmark (issue 22) — threads off
// and on in Chromium, alternating, with the speed-ups as ratios and the differences between the
// two builds — written into the `wasmThreads` section of an existing results file (the full
// `npm run bench` measures it too). Needs Debian's Chromium (or STARPO_CHROMIUM).
import { readFile, writeFile } from 'node:fs/promises';
import { deriveRatios, deriveTargets } from '../../bench/derived.js';
import { measureWasmThreads } from '../../bench/harness.js';
import { type BenchResults, benchResults } from '../../bench/schema.js';
import { formatWasmThreads } from '../../bench/table.js';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';

const FLAGS: FlagSpec[] = [
  { name: 'rounds', kind: 'int', help: 'rounds of threads off, then on (default 2)' },
  { name: 'out', kind: 'string', help: 'the results file to update (default bench/results.json)' },
];

export const benchThreadsCommand: Command = {
  name: 'bench-threads',
  summary: 'WASM threads off vs on in Chromium: speed-ups and result differences, into bench/results.json',
  usage: [
    'usage: npm run starpo -- bench-threads [--rounds 2] [--out bench/results.json]',
    '',
    'Builds src/bench/browser/ with Vite, serves it cross-origin isolated and opens it in Chromium',
    '(STARPO_CHROMIUM, default /usr/bin/chromium), alternating threads off and on for --rounds',
    'rounds; replaces the wasmThreads section of --out and re-derives its ratios and targets.',
    '',
    flagHelp(FLAGS),
  ].join('\n'),
  async run(args, io) {
    const f = parseFlags(args, FLAGS);
    const rounds = Number(f.rounds ?? 2);
    const out = typeof f.out === 'string' ? f.out : 'bench/results.json';
    if (rounds < 1) throw new UsageError('--rounds must be an integer ≥ 1');
    let existing: BenchResults;
    try {
      existing = benchResults.parse(JSON.parse(await readFile(out, 'utf8')));
    } catch (err) {
      throw new UsageError(
        `bench-threads updates an existing results file: ${out}: ${(err as Error).message}`,
      );
    }
    const wasmThreads = await measureWasmThreads(rounds, (line) => io.stderr.write(`${line}\n`));
    const { ratios: _r, targets: _t, ...measured } = { ...existing, wasmThreads };
    const results = benchResults.parse({
      ...measured,
      ratios: deriveRatios(measured),
      targets: deriveTargets(measured),
    });
    await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
    io.stdout.write(`${formatWasmThreads(wasmThreads)}\nwritten to ${out}\n`);
    return wasmThreads.ran ? 0 : 1;
  },
};
