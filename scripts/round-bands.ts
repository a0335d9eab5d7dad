// The playground's study bands (public/study/echo-trap.json) from stored echo-trap runs: StarPO
// from a confirmation's vanilla runs, StarPO-S from a StarPO-S arm on the same seeds. Nothing is
// rerun. The StarPO family's key is the file's 'starpo-ppo' whatever vanilla algorithm ran (PPO
// in round 9, GRPO in round 11): its variant names the cell and the algorithm measured.
// Run: npx tsx scripts/round-bands.ts --starpo results/echo-trap/round11/confirm-vanilla \
//   --starpo-s results/echo-trap/round12/s-both [--out public/study/echo-trap.json]
import { basename, dirname } from 'node:path';
import { flagStrings } from '../src/cli/flags.js';
import { writeStudyBands } from '../src/cli/study/bands.js';
import { type CalRun, finishedRuns } from '../src/cli/study/calibrate.js';
import {
  type AlgoBands,
  algoBands,
  parseStudyBands,
  STUDY_BANDS_FORMAT,
  type StudyBands,
} from '../src/core/metrics/studyBands.js';

const args = flagStrings(process.argv.slice(2), [
  {
    name: 'starpo',
    kind: 'string',
    help: 'the vanilla cell folder (default results/echo-trap/round9/confirm-vanilla)',
  },
  {
    name: 'starpo-s',
    kind: 'string',
    help: 'the StarPO-S cell folder (default results/echo-trap/round9/study-s-paper)',
  },
  { name: 'out', kind: 'string', help: 'the band file (default public/study/echo-trap.json)' },
]);
const out = args.get('out') ?? 'public/study/echo-trap.json';

/** A cell's finished runs (its round folder is the cell folder's parent). */
const finished = (cell: string): Promise<CalRun[]> => finishedRuns(cell, dirname(cell));

const families: [string, string][] = [
  ['starpo-ppo', args.get('starpo') ?? 'results/echo-trap/round9/confirm-vanilla'],
  ['starpo-s', args.get('starpo-s') ?? 'results/echo-trap/round9/study-s-paper'],
];
const bands: StudyBands = { format: STUDY_BANDS_FORMAT, version: 1, study: 'echo-trap', envs: {} };
for (const [algo, cell] of families) {
  const runs = await finished(cell);
  if (runs.length === 0) throw new Error(`no finished runs under ${cell}`);
  const variant = `${basename(dirname(cell))}/${basename(cell)}: ${runs[0]!.config.algorithm}`;
  const env = runs[0]!.config.env;
  const entry: AlgoBands = algoBands(
    runs.map((r) => r.rows),
    runs[0]!.config,
    variant,
  );
  bands.envs[env] = { ...(bands.envs[env] ?? {}), [algo]: entry };
  console.log(`${algo}: ${runs.length} runs of ${cell}`);
}
const bytes = await writeStudyBands(out, parseStudyBands(bands));
console.log(`wrote ${out} (${bytes} bytes)`);
