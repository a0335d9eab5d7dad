// `npm run starpo -- round run <plan> --jobs 2`: a pre-registered round from its plan file,
// resumably (cli/study/roundRunner.ts); `round status <plan>`: what is done; `round report
// <plan>`: the round judged from its stored runs, written into its section of the docs
// (cli/study/roundReport.ts). Nothing about a round lives outside its plan.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import { loadPlan } from '../study/plan.js';
import { writeRoundReport } from '../study/roundReport.js';
import { roundStatus, runRound } from '../study/roundRunner.js';
import { warningRatesOf } from '../study/warnings.js';

const FLAGS: FlagSpec[] = [
  {
    name: 'warnings',
    kind: 'string',
    help: 'report: also write the signals’ false-alarm and lead record to this file (the playground ships public/study/warnings.json)',
  },
  {
    name: 'frozen-also',
    kind: 'string',
    help: 'report --warnings: folders of another round’s frozen runs at this round’s shape to count with its own (comma-separated)',
  },
  { name: 'jobs', kind: 'int', help: 'run: runs at a time, each in its own process (default 1)' },
  { name: 'base', kind: 'string', help: 'base model for every run: a checkpoint .json or "random"' },
  { name: 'models', kind: 'string', help: 'directory of the models index (default public/models)' },
  {
    name: 'docs',
    kind: 'string',
    help: 'report: the Markdown file to write (default: the plan\u2019s report.docs; "" for none)',
  },
];

const ACTIONS = ['run', 'status', 'report'] as const;

export const roundCommand: Command = {
  name: 'round',
  summary:
    'a pre-registered echo-trap round from one plan file: run it (resumable), see its status, report it',
  usage: `usage: npm run starpo -- round run|status|report <plan.yaml> [--jobs 2]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const [action, planPath, ...rest] = args;
    if (!action || !(ACTIONS as readonly string[]).includes(action))
      throw new UsageError(`the first word must be one of ${ACTIONS.join(', ')} (got "${action ?? ''}")`);
    if (!planPath || planPath.startsWith('--')) throw new UsageError(`round ${action}: give the plan file`);
    const flags = parseFlags(rest, FLAGS);
    const jobs = Number(flags.jobs ?? 1);
    if (!(jobs >= 1 && jobs <= 16)) throw new UsageError('--jobs must be from 1 to 16');
    const lp = await loadPlan(planPath).catch((err: Error) => {
      throw new UsageError(err.message);
    });
    const opts = {
      jobs,
      codeRoot: resolve('.'),
      ...(typeof flags.base === 'string' ? { base: flags.base } : {}),
      ...(typeof flags.models === 'string' ? { models: flags.models } : {}),
    };
    if (action === 'run') {
      const pick = await runRound(lp, opts, io);
      io.stdout.write(`${JSON.stringify({ round: lp.plan.round, chosen: pick.chosen ?? null })}\n`);
      return 0;
    }
    if (action === 'status') {
      for (const s of await roundStatus(lp, opts))
        io.stdout.write(`${s.batch.padEnd(24)} ${s.cell.padEnd(24)} ${s.done}/${s.planned}\n`);
      return 0;
    }
    const docs = typeof flags.docs === 'string' ? flags.docs : lp.plan.report.docs;
    io.stdout.write(await writeRoundReport(lp, docs === '' ? null : docs));
    if (typeof flags.warnings === 'string') {
      const shape = Object.entries(lp.plan.shape)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ');
      const also = typeof flags['frozen-also'] === 'string' ? flags['frozen-also'].split(',') : [];
      const alsoText = also.length > 0 ? `; frozen runs also from ${also.join(', ')}` : '';
      const rates = await warningRatesOf(
        lp.dir,
        `${lp.plan.title} (round ${lp.plan.round}; ${shape}${alsoText})`,
        { ...(lp.plan.study ? { cell: lp.plan.study.frozen } : {}), dirs: also },
      );
      await writeFile(flags.warnings, `${JSON.stringify(rates, null, 2)}\n`);
    }
    return 0;
  },
};
