// `npm run starpo -- echo-trap-round --dir results/echo-trap/round9`: the round's report from its
// stored runs, nothing rerun (cli/study/roundDocs.ts). Writes <dir>/report.{md,json} and replaces
// everything after the results marker of docs/echo-trap.md (the pre-registered sections above it
// are never touched).
import { readFile, writeFile } from 'node:fs/promises';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { RESULTS_MARKER, roundReport, STUDY_MARKER, spliceBetween } from '../study/roundDocs.js';

const FLAGS: FlagSpec[] = [
  { name: 'dir', kind: 'string', help: 'the round directory: one sub-directory per cell (required)' },
  {
    name: 'docs',
    kind: 'string',
    help: 'report to splice the results into (default docs/echo-trap.md; "" for none)',
  },
];

export const echoTrapRoundCommand: Command = {
  name: 'echo-trap-round',
  summary: 'the echo-trap round report (nulls, search, confirmation) from stored runs, nothing rerun',
  usage: `usage: npm run starpo -- echo-trap-round --dir <round dir> [--docs file]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    if (typeof flags.dir !== 'string' || flags.dir === '')
      throw new UsageError('--dir <round dir> is required');
    const dir = flags.dir;
    const docs = typeof flags.docs === 'string' ? flags.docs : 'docs/echo-trap.md';
    const md = await roundReport(dir);
    if (docs !== '') {
      const text = await readFile(docs, 'utf8');
      await writeFile(docs, spliceBetween(text, RESULTS_MARKER, STUDY_MARKER, md));
    }
    io.stdout.write(`${md}\n`);
    return 0;
  },
};
