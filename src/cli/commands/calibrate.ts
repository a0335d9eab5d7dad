// `npm run starpo -- calibrate`: the echo-trap detector's calibration recomputed from stored
// runs, nothing rerun (cli/study/calibrate.ts): false positives on the frozen-control runs, each
// signal's firing rate there, recall and lead time on the hand-labelled study runs. Writes
// results/frozen-control/calibration.{md,json} and the section of docs/echo-trap.md.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Command, UsageError } from '../command.js';
import { type FlagSpec, flagHelp, parseFlags } from '../flags.js';
import {
  type CalRun,
  calibrate,
  calibrationMarkdown,
  finishedRuns,
  type LabelledRun,
  loadCalRun,
  policyUnchanged,
  spliceSection,
} from '../study/calibrate.js';

const FLAGS: FlagSpec[] = [
  { name: 'frozen', kind: 'string', help: 'frozen-control runs (default results/frozen-control)' },
  {
    name: 'study',
    kind: 'string',
    help: 'the study results the labels point into (default results/echo-trap)',
  },
  {
    name: 'labels',
    kind: 'string',
    help: 'hand labels of study runs (default <frozen>/collapses.json)',
  },
  {
    name: 'docs',
    kind: 'string',
    help: 'report to put the section in (default docs/echo-trap.md; "" for none)',
  },
  { name: 'z', kind: 'number', help: 'standard errors a rise or fall must exceed (default: the detector’s)' },
  { name: 'window', kind: 'int', help: 'iterations per success window (default: the detector’s)' },
  { name: 'draws', kind: 'int', help: 'resampled and binomial null runs (default 2000)' },
];

export const calibrateCommand: Command = {
  name: 'calibrate',
  summary: 'the echo-trap detector’s false positives on frozen runs and recall on labelled collapses',
  usage: `usage: npm run starpo -- calibrate [--frozen dir] [--study dir] [--labels file] [--docs file]\n\n${flagHelp(FLAGS)}`,
  async run(args, io) {
    const flags = parseFlags(args, FLAGS);
    const frozenDir = typeof flags.frozen === 'string' ? flags.frozen : 'results/frozen-control';
    const studyDir = typeof flags.study === 'string' ? flags.study : 'results/echo-trap';
    const labelsFile = typeof flags.labels === 'string' ? flags.labels : join(frozenDir, 'collapses.json');
    const docs = typeof flags.docs === 'string' ? flags.docs : 'docs/echo-trap.md';
    const draws = Number(flags.draws ?? 2000);
    if (!(draws >= 10 && draws <= 100000)) throw new UsageError('--draws must be from 10 to 100000');
    const options = {
      ...(flags.z !== undefined ? { z: Number(flags.z) } : {}),
      ...(flags.window !== undefined ? { window: Number(flags.window) } : {}),
    };

    const frozen = await finishedRuns(frozenDir, frozenDir);
    if (frozen.length === 0) throw new Error(`no finished runs under ${frozenDir}`);
    const labels = JSON.parse(await readFile(labelsFile, 'utf8')) as { runs: LabelledRun[] };
    const labelled: { run: CalRun; label: LabelledRun }[] = [];
    for (const label of labels.runs) {
      const run = await loadCalRun(join(studyDir, label.run), studyDir);
      if (!run) throw new Error(`${labelsFile}: no run at ${join(studyDir, label.run)}`);
      labelled.push({ run, label });
    }
    const unchanged = await Promise.all(
      frozen.map(async (r) => {
        const base = (r.stored as { base?: string } | undefined)?.base;
        return base ? policyUnchanged(r.dir, base) : null;
      }),
    );
    let commits: string[] = [];
    try {
      const p = JSON.parse(await readFile(join(frozenDir, 'provenance.json'), 'utf8')) as {
        commit?: string;
        commits?: string[];
      };
      commits = p.commits ?? (p.commit ? [p.commit] : []);
    } catch {
      commits = [];
    }

    const c = calibrate({ frozen, labelled, options, draws, unchanged, commits });
    let notes = '';
    try {
      notes = await readFile(join(frozenDir, 'notes.md'), 'utf8');
    } catch {
      notes = '';
    }
    const md = calibrationMarkdown(c, notes);
    await writeFile(join(frozenDir, 'calibration.md'), md);
    const { frozen: fr, collapses, ...figures } = c;
    await writeFile(
      join(frozenDir, 'calibration.json'),
      `${JSON.stringify({ ...figures, frozen: fr, collapses }, (_k, v) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v), 2)}\n`,
    );
    if (docs !== '') await writeFile(docs, spliceSection(await readFile(docs, 'utf8'), md));
    io.stdout.write(
      `calibrate: ${c.falsePositives}/${c.frozen.length} frozen runs flagged at z ${c.options.z} (resampled null ${(100 * c.resampledNull).toFixed(1)}%), recall ${c.recall.flagged}/${c.recall.of}\n`,
    );
    return 0;
  },
};
