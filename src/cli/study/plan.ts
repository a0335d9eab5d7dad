// A round's plan: one YAML (or JSON) file that pre-registers everything a round does — the shape
// every run shares, the candidate cells with their reasons, the tuning / stage-2 / confirmation
// seeds, the nulls with their pass rules, the trap rule and its z, the pick rule, the
// confirmation's thresholds and the compute estimate. `starpo round run` executes it and
// `starpo round report` judges it (cli/commands/round.ts); nothing about a round lives elsewhere.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DEFAULT_DETECTOR } from '../../core/metrics/detector.js';
import { FROZEN_CONTROL, isFrozenControl } from '../../core/rl/frozenControl.js';

/** Flag values as the command line takes them (`lr: 6e-4` is `--lr 6e-4`). */
const flagValues = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const seedList = z.array(z.number().int().nonnegative()).min(1);
const cellName = z.string().regex(/^[a-z0-9][a-z0-9.-]*$/, 'lower-case letters, digits, "." and "-"');

const cellSchema = z.object({
  name: cellName,
  algo: z.string(),
  flags: flagValues.default({}),
  reason: z.string().min(1),
});

const nullSchema = cellSchema.extend({
  /** What the null stands for: a policy that cannot move, or a learner expected to hold. */
  kind: z.enum(['frozen', 'holding']),
  seeds: seedList,
  /** The null passes when at most this many of its runs are flagged trapped. */
  maxFlagged: z.number().int().nonnegative(),
  /** Where in the queue it runs: first, after stage 1, or after the confirmation runs. */
  after: z.enum(['start', 'stage1', 'confirmation']),
});

/**
 * Any other runs a round makes (a study's arms, a measurement's groups): one or more algorithms on
 * seeds, placed in the queue like the nulls; `onPick` layers its flags over the picked cell's
 * (its algorithm, when it names none, is the picked cell's).
 */
const batchSchema = z.object({
  name: cellName,
  algo: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
  flags: flagValues.default({}),
  seeds: seedList,
  reason: z.string().min(1),
  after: z.enum(['start', 'stage1', 'confirmation']),
  onPick: z.boolean().default(false),
  /** A pre-registered condition the batch runs under (roundRunner.ts BATCH_CONDITIONS); always when absent. */
  onlyIf: z.enum(['stage1-rose-beyond-frozen']).optional(),
});

/** The report generators: this round format, or the one rounds 9 and 10 and the Bandit re-measurement were reported with. */
export const REPORT_FORMATS = ['round', 'echo-trap-v1'] as const;

export const planSchema = z.object({
  round: z.string().min(1),
  title: z.string().min(1),
  /** Where the report goes: a Markdown file (relative to the project root) and its section. */
  report: z.object({
    docs: z.string().min(1),
    heading: z.string().min(1),
    format: z.enum(REPORT_FORMATS).default('round'),
  }),
  /** Flags every run shares. */
  shape: flagValues,
  trapRule: z.object({
    /** The detector whose rule judges every run (core/metrics/detector.ts, pre-registered). */
    detector: z.literal('pre-registered'),
    z: z.number().positive(),
  }),
  seeds: z.object({ tuning: seedList, stage2: seedList, confirmation: seedList }).optional(),
  /** The candidate cells; none for a measurement without a search (then no pick, no confirmation). */
  cells: z.array(cellSchema).default([]),
  pick: z
    .object({
      /** How many of stage 1's best cells stage 2 runs on its seeds. */
      stage2Cells: z.number().int().positive(),
      /** The ranking (roundRunner.ts PICK_RULES); the rule's words in `rule`. */
      by: z.enum(['trapped-then-rise-first', 'trapped-then-drop']).default('trapped-then-rise-first'),
      rule: z.string().min(1),
    })
    .optional(),
  confirmation: z
    .object({
      /** The picked cell's confirmation passes with at least this many trapped runs. */
      minTrapped: z.number().int().positive(),
      /** The frozen control on the confirmation seeds, passing with at most this many flagged. */
      frozen: cellSchema.extend({ maxFlagged: z.number().int().nonnegative() }),
    })
    .optional(),
  nulls: z.array(nullSchema).default([]),
  batches: z.array(batchSchema).default([]),
  /**
   * A study over batches (no cells), judged by a rule fixed here: every batch against `control`
   * (trapped counts, Fisher's exact test, one-sided), valid when `frozen` flags at most
   * `maxFrozenFlagged` and, with `reproduces`, the control's runs equal stored runs row for row.
   */
  study: z
    .object({
      control: cellName,
      frozen: cellName,
      maxFrozenFlagged: z.number().int().nonnegative(),
      /** An arm prevents the trap: trapped in at most `maxTrapped` and Fisher's p at most `fisherP`. */
      prevents: z.object({ maxTrapped: z.number().int().nonnegative(), fisherP: z.number().positive() }),
      /** An arm does not: its trapped count within this many of the control's. */
      noEffectWithin: z.number().int().nonnegative(),
      /** The control must reproduce these stored runs (a folder of seed-N runs, from the project root). */
      reproduces: z.string().min(1).optional(),
      /** Round 13: how the arms' Fisher p-values are adjusted for their number (Holm: family-wise). */
      multiplicity: z.enum(['none', 'holm']).optional(),
      /** Round 13: the study is judged only if the control is trapped in at least this many runs. */
      minControlTrapped: z.number().int().nonnegative().optional(),
      /**
       * Round 13: the baseline arm (the smaller step) every arm's end is also compared with; it is
       * the learner that holds when trapped in at most `maxBaselineTrapped` runs.
       */
      baseline: cellName.optional(),
      maxBaselineTrapped: z.number().int().nonnegative().optional(),
    })
    .optional(),
  compute: z.string().min(1),
});

export type Plan = z.infer<typeof planSchema>;
export type PlanCell = z.infer<typeof cellSchema>;
export type PlanNull = z.infer<typeof nullSchema>;
export type PlanBatch = z.infer<typeof batchSchema>;

/** A plan as read: its text's SHA-256 (recorded in every run) and the folder its runs live in. */
export interface LoadedPlan {
  plan: Plan;
  path: string;
  /** The folder beside the plan file that holds one sub-folder per cell. */
  dir: string;
  hash: string;
}

/**
 * The plan's frozen controls that would not be frozen: a null of kind frozen, the confirmation's
 * frozen control and a study's frozen cell must each run at the frozen control's lr (their own
 * `lr` flag, else the shape's), or every false alarm counted on them is a learner's.
 */
function unfrozenErrors(plan: Plan): string[] {
  const study = plan.study ? plan.batches.filter((b) => b.name === plan.study?.frozen) : [];
  const frozen = [
    ...plan.nulls
      .filter((n) => n.kind === 'frozen')
      .map((n) => ({ where: `null "${n.name}" (kind frozen)`, flags: n.flags })),
    ...(plan.confirmation ? [{ where: 'confirmation.frozen', flags: plan.confirmation.frozen.flags }] : []),
    ...study.map((b) => ({ where: `study.frozen "${b.name}"`, flags: b.flags })),
  ];
  return frozen.flatMap(({ where, flags }) => {
    const lr = flags.lr ?? plan.shape.lr;
    return isFrozenControl({ lr: Number(lr) })
      ? []
      : [
          `${where} is the frozen control but runs at lr ${lr ?? '(the default)'}: set flags { lr: ${FROZEN_CONTROL.lr} }`,
        ];
  });
}

/** Parses and checks a plan's text; errors name the field. */
export function parsePlan(text: string, path: string): Plan {
  let raw: unknown;
  try {
    raw = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new Error(
      `${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message}`,
    );
  }
  const r = planSchema.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`);
    throw new Error(`${path}: ${issues.join('; ')}`);
  }
  const plan = r.data;
  if (plan.cells.length > 0 && (!plan.seeds || !plan.pick || !plan.confirmation))
    throw new Error(`${path}: a plan with cells needs seeds, pick and confirmation`);
  const names = [...plan.cells, ...plan.nulls, ...plan.batches].map((c) => c.name);
  const reserved = new Set(['confirm-vanilla', 'confirm-frozen']);
  for (const n of names) {
    if (reserved.has(n)) throw new Error(`${path}: cell name "${n}" is reserved for the confirmation`);
    if (names.indexOf(n) !== names.lastIndexOf(n)) throw new Error(`${path}: cell name "${n}" appears twice`);
  }
  const confirmation = new Set(plan.seeds?.confirmation ?? []);
  for (const s of [...(plan.seeds?.tuning ?? []), ...(plan.seeds?.stage2 ?? [])])
    if (confirmation.has(s)) throw new Error(`${path}: seed ${s} is both a tuning and a confirmation seed`);
  if (plan.trapRule.z !== DEFAULT_DETECTOR.z)
    throw new Error(
      `${path}: trapRule.z is ${plan.trapRule.z} but the pre-registered detector judges at z ${DEFAULT_DETECTOR.z}`,
    );
  const unfrozen = unfrozenErrors(plan);
  if (unfrozen.length > 0) throw new Error(`${path}: ${unfrozen.join('; ')}`);
  return plan;
}

export async function loadPlan(path: string): Promise<LoadedPlan> {
  const text = await readFile(path, 'utf8');
  return {
    plan: parsePlan(text, path),
    path,
    dir: dirname(resolve(path)),
    hash: createHash('sha256').update(text).digest('hex'),
  };
}
