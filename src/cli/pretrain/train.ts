// The SFT run of pretrain, from the model's creation to its checkpoint: the policy (fresh with
// --position-init's start, or continued), the SFT loop with its loss log, the copy drills and
// openings it mixes in and the --eval-every checks, the held-out measurement, and the checkpoint
// file. SFT's own step is core/sft/sft.ts; this file drives it and keeps the time.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultConfig } from '../../core/config.js';
import { saveCheckpoint } from '../../core/model/checkpoint.js';
import { modelConfig } from '../../core/model/config.js';
import { createPolicy, type Model } from '../../core/model/params.js';
import { POSITION_INITS } from '../../core/model/positionInit.js';
import type { EnvPool } from '../../core/rl/envPool.js';
import { type EvalResult, evaluatePolicy } from '../../core/rl/evaluate.js';
import type { Rng } from '../../core/rng.js';
import { copyDrills, type SftOptions, sftTrain } from '../../core/sft/sft.js';
import { mean } from '../../core/stats.js';
import { UsageError } from '../command.js';
import type { PretrainData } from './corpus.js';
import type { PretrainPlan } from './options.js';

/** A pretraining run under way: what every step after the model's creation works on. */
export interface PretrainRun {
  plan: PretrainPlan;
  data: PretrainData;
  policy: Model;
  /** The held-out start states success is measured on. */
  pool: EnvPool;
  log: (s: string) => void;
}

/** What SFT left: every step's loss, the demonstration steps' alone, and its seconds. */
export interface Trained {
  losses: number[];
  demoLosses: number[];
  /** SFT time only: the periodic held-out checks are left out. */
  seconds: number;
}

/** The policy: the continued checkpoint's, or fresh weights with --position-init's start. */
export async function createModel(plan: PretrainPlan, data: PretrainData, rng: Rng): Promise<Model> {
  const { init } = data;
  const context = plan.settings.contextLength;
  const policy = init
    ? init.base.policy
    : createPolicy(modelConfig(plan.size, data.tok.size, context), rng.fork('weights'));
  if (!init) await POSITION_INITS[plan.options.positionInit](policy);
  if (init && init.base.policy.config.context !== context) {
    throw new UsageError(
      `--init: the checkpoint's context is ${init.base.policy.config.context}, not --context ${context}`,
    );
  }
  return policy;
}

/** Greedy and sampled success on `episodes` held-out goals (the same seeds each time), logged. */
export async function measure(run: PretrainRun, episodes: number): Promise<EvalResult> {
  const { plan, data, policy, pool, log } = run;
  const r = await evaluatePolicy(
    policy,
    data.tok,
    pool,
    { ...plan.settings, formatPenalty: defaultConfig().formatPenalty },
    episodes,
    plan.seed,
  );
  log(
    `greedy success ${r.greedy.toFixed(3)} (mean reward ${r.greedyReturn.toFixed(3)}), ` +
      `sampled success ${r.sampled.toFixed(3)} (mean reward ${r.sampledReturn.toFixed(3)})`,
  );
  return r;
}

/** Writes the checkpoint (`<out>/<stem>.json` + `.bin`) after `done` of this run's steps. */
export async function writeModel(
  run: PretrainRun,
  done: number,
  seconds: number,
  r?: { greedy: number; sampled: number },
): Promise<void> {
  const { plan, data } = run;
  const saved = await saveCheckpoint({
    policy: run.policy,
    tokenizer: data.tok,
    meta: {
      env: plan.env,
      size: plan.size,
      seed: plan.seed,
      settings: plan.settings,
      steps: done + data.initSteps,
      tokenizer: data.init ? (data.init.meta.tokenizer ?? null) : plan.options.tokenizer,
      trainSeconds: Math.round(seconds + data.initSeconds),
      ...(r ? { greedySuccess: r.greedy, sampledSuccess: r.sampled } : {}),
    },
  });
  await mkdir(plan.out, { recursive: true });
  await writeFile(join(plan.out, `${plan.stem}.json`), JSON.stringify(saved.manifest));
  await writeFile(join(plan.out, `${plan.stem}.bin`), saved.blob);
}

/** SFT's running time: wall time since it began, less the held-out checks'. */
class SftClock {
  private readonly t0 = performance.now();
  private evalMs = 0;

  /** Seconds of SFT up to `now`. */
  seconds(now: number = performance.now()): number {
    return (now - this.t0 - this.evalMs) / 1000;
  }

  /** Leaves the time since `e0` (a held-out check's) out of SFT's. */
  exclude(e0: number): void {
    this.evalMs += performance.now() - e0;
  }
}

/** The extra pool sftTrain mixes in: copy drills and the openings' turns together (undefined: none). */
function drillPool(run: PretrainRun, rng: Rng): SftOptions['drills'] {
  const o = run.plan.options;
  const { demos, tok, openingSequences } = run.data;
  const drillTexts = demos.flatMap((x) => [x.instruction, ...x.turns.map((t) => t.observation)]);
  const extra = [
    ...(o.drills > 0 ? copyDrills(tok, drillTexts, o.drills, rng.fork('drills')) : []),
    ...openingSequences,
  ];
  return extra.length > 0 ? { sequences: extra, steps: o.drillSteps, share: o.drillShare } : undefined;
}

/** sftTrain's onStep: keeps the demonstration steps' losses and logs the mean losses every 50 steps. */
function stepLogger(
  run: PretrainRun,
  clock: SftClock,
  demoLosses: number[],
): NonNullable<SftOptions['onStep']> {
  const { steps } = run.plan.options;
  const { initSteps } = run.data;
  let recent: number[] = [];
  let recentDrills: number[] = [];
  return (s, loss, b) => {
    if (b.drill) recentDrills.push(loss);
    else {
      recent.push(loss);
      demoLosses.push(loss);
    }
    if (s % 50 === 0 || s === steps - 1) {
      const secs = clock.seconds();
      const d = recentDrills.length
        ? `, copy drills ${mean(recentDrills).toFixed(4)} over ${recentDrills.length}`
        : '';
      run.log(
        `step ${initSteps + s}: demonstrations ${mean(recent).toFixed(4)} over ${recent.length} steps${d} (${secs.toFixed(0)} s)`,
      );
      recent = [];
      recentDrills = [];
    }
  };
}

/** The --eval-every check: held-out success on --check-episodes goals, and the checkpoint written. */
function heldOutCheck(run: PretrainRun, clock: SftClock): (done: number) => Promise<void> {
  return async (done) => {
    const e0 = performance.now();
    run.log(`held-out check after ${run.data.initSteps + done} steps:`);
    const r = await measure(run, run.plan.options.checkEpisodes);
    // Saved at every check, so an interrupted run can go on with --init.
    await writeModel(run, done, clock.seconds(e0), r);
    clock.exclude(e0);
  };
}

/** The SFT loop, with its loss log and --eval-every checks. */
export async function train(run: PretrainRun, rng: Rng): Promise<Trained> {
  const o = run.plan.options;
  const { initSteps } = run.data;
  // Started before the drills are made: making them counts as training time.
  const clock = new SftClock();
  const drills = drillPool(run, rng);
  const demoLosses: number[] = [];
  const losses = await sftTrain(run.policy, run.data.sequences, {
    steps: o.steps,
    batchSize: o.batch,
    lr: o.lr,
    warmupSteps: o.warmup,
    schedule: o.schedule,
    envWeight: o.envWeight,
    epsilon: 1e-8,
    // A continued run draws new batches, not the first run's again.
    rng: rng.fork(initSteps > 0 ? `sft/${initSteps}` : 'sft'),
    ...(drills ? { drills } : {}),
    onStep: stepLogger(run, clock, demoLosses),
    ...(o.evalEvery > 0 ? { periodic: { every: o.evalEvery, run: heldOutCheck(run, clock) } } : {}),
  });
  return { losses, demoLosses, seconds: clock.seconds() };
}
