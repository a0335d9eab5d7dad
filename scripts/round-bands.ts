// The playground's study bands (public/study/echo-trap.json) from an echo-trap round's stored
// runs: StarPO from the confirmation's vanilla runs, StarPO-S from the study's paper arm
// (StarPO-S as RAGEN ran it) on the same seeds. Nothing is rerun.
// Run: npx tsx scripts/round-bands.ts [--dir results/echo-trap/round9] [--out public/study/echo-trap.json]
import { join } from 'node:path';
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
  { name: 'dir', kind: 'string', help: 'the round folder (default results/echo-trap/round9)' },
  { name: 'out', kind: 'string', help: 'the band file (default public/study/echo-trap.json)' },
]);
const dir = args.get('dir') ?? 'results/echo-trap/round9';
const out = args.get('out') ?? 'public/study/echo-trap.json';

const finished = (cell: string): Promise<CalRun[]> => finishedRuns(join(dir, cell), dir);

const families: [string, string, string][] = [
  ['starpo-ppo', 'confirm-vanilla', 'confirmation'],
  ['starpo-s', 'study-s-paper', 'paper'],
];
const bands: StudyBands = { format: STUDY_BANDS_FORMAT, version: 1, study: 'echo-trap', envs: {} };
for (const [algo, cell, variant] of families) {
  const runs = await finished(cell);
  if (runs.length === 0) continue;
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
