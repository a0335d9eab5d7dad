// `npm run starpo -- sweep --study echo-trap`: the study of the arms (arms.ts) at the echo-trap
// preset's budget, one env at a time: plans every arm × seed, trains what is not yet stored
// (resumable, `--jobs` processes) unless `--report-only`, then judges every stored run with
// today's detector and writes the study's section of docs/echo-trap.md (after its marker; the
// pre-registered sections and the round's results above it are left alone).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, formatErrors } from '../../core/config.js';
import { type BaseLayer, resolveConfig } from '../../core/resolve.js';
import { STUDY_ARMS, type StudyArm } from '../../core/rl/studyArms.js';
import { envIds } from '../../envs/registry.js';
import type { CliIo } from '../command.js';
import { STUDY_MARKER, spliceBetween } from '../commands/echo-trap-round.js';
import { runSweep } from '../sweepRunner.js';
import { type ArmRuns, armRuns, armsMarkdown, planArms } from './arms.js';
import { type CalRun, isFinished, loadCalRun } from './calibrate.js';

export interface ArmsStudyOptions {
  envs: readonly string[];
  arms: readonly StudyArm[];
  seeds: readonly number[];
  out: string;
  docs: string;
  jobs: number;
  overrides: Partial<Config>;
  reportOnly: boolean;
  base?: string;
  models?: string;
  baseLayer: (env: string) => Promise<BaseLayer | null>;
}

/** The study's seeds (docs/echo-trap.md §4): 201–212. */
export const STUDY_SEEDS: readonly number[] = Array.from({ length: 12 }, (_, i) => 201 + i);

/** Vanilla's config on `env`: the echo-trap preset's budget with the flags' overrides. */
async function vanillaFor(env: string, o: ArmsStudyOptions): Promise<Config> {
  const r = resolveConfig(
    {
      base: await o.baseLayer(env),
      preset: 'echo-trap',
      edits: { ...o.overrides, algorithm: 'starpo-ppo', env, seed: STUDY_SEEDS[0] as number },
    },
    envIds(),
  );
  if (r.errors.length > 0) throw new Error(`study config for ${env}: ${formatErrors(r.errors)}`);
  return r.values;
}

export async function runArmsStudy(o: ArmsStudyOptions, io: CliIo): Promise<string> {
  const sections: string[] = [STUDY_MARKER, '', '## 9. The study of the arms: results', ''];
  for (const env of o.envs) {
    const vanilla = await vanillaFor(env, o);
    const plan = planArms(vanilla, o.arms.length > 0 ? o.arms : STUDY_ARMS, o.seeds, o.out);
    if (!o.reportOnly) await runSweep(plan, { out: o.out, jobs: o.jobs, base: o.base, models: o.models }, io);
    const arms: ArmRuns[] = [];
    for (const arm of STUDY_ARMS) {
      const runs: CalRun[] = [];
      for (const r of plan.filter((p) => p.arm === arm)) {
        const run = await loadCalRun(r.dir, o.out);
        if (run && isFinished(run)) runs.push(run);
      }
      if (runs.length > 0) arms.push(armRuns(arm, runs));
    }
    const stored = arms.reduce((a, x) => a + x.runs.length, 0);
    sections.push(
      `### ${env}`,
      '',
      `${stored} of ${plan.length} planned runs stored (seeds ${o.seeds.join(', ')}); vanilla's budget: ${vanilla.groups} × ${vanilla.groupSize} rollouts, lr ${vanilla.lr}, LR warm-up ${vanilla.lrWarmup}, ${vanilla.stepsPerIteration} optimizer steps per iteration, ${vanilla.iterations} iterations, T = ${vanilla.temperature}.`,
      '',
      arms.length > 0 ? armsMarkdown(arms) : 'No stored runs yet.',
      '',
    );
  }
  const md = sections.join('\n');
  let text = '';
  try {
    text = await readFile(o.docs, 'utf8');
  } catch {
    text = '# The echo trap\n';
  }
  await writeFile(o.docs, spliceBetween(text, STUDY_MARKER, '\u0000never', md));
  return `${md}\n`;
}

/** Where a study's runs go by default. */
export const ARMS_OUT = join('results', 'echo-trap', 'study');
