// A run's summary.json, the same from `starpo train` and from a browser sweep, so the sweep
// tables and bundles read one shape wherever a run came from.
import type { Config } from '../config.js';
import type { RunSummary } from '../metrics/detector.js';
import { type StudyArm, studyArmOf } from '../rl/studyArms.js';

// A type alias (not an interface) so it also fits record-typed readers of summary.json.
export type SummaryFile = {
  algo: Config['algorithm'];
  /** The echo-trap study arm its switches make (core/rl/studyArms.ts), when they make one. */
  arm?: StudyArm;
  env: string;
  seed: number;
  iterations: number;
  completed: boolean;
  /** Why the run stopped early after repeated non-finite iterations, when it did. */
  fault?: string;
  echoTrap: boolean;
  peakSuccess: number;
  finalSuccess: number;
  firstWarningLead: number | null;
  recovered: boolean;
  converged: boolean;
  collapseIteration: number | null;
  firstWarningIteration: number | null;
  falseWarnings: number;
  firstFired: Record<string, number>;
  wallSeconds: number;
  secondsPerIteration: number;
  /** A resumed run: the checkpoint's iteration it went on from (wallSeconds counts from there). */
  resumedFrom?: number;
  backend: string;
  base: string;
};

/** The summary of a run of `config` that made `iterations` iterations in `wallSeconds`. */
export function summaryFile(
  config: Config,
  s: RunSummary,
  run: {
    iterations: number;
    wallSeconds: number;
    backend: string;
    base: string;
    fault?: string | null;
    /** The iteration a resumed run continued from (its wall time counts from there). */
    resumedFrom?: number;
  },
): SummaryFile {
  const arm = studyArmOf(config);
  return {
    algo: config.algorithm,
    ...(arm ? { arm } : {}),
    env: config.env,
    seed: config.seed,
    iterations: run.iterations,
    completed: run.iterations >= config.iterations && !run.fault,
    ...(run.fault ? { fault: run.fault } : {}),
    echoTrap: s.echoTrap,
    peakSuccess: s.peakSuccess,
    finalSuccess: s.finalSuccess,
    firstWarningLead: s.firstWarningLead,
    recovered: s.recovered,
    converged: s.converged,
    collapseIteration: s.collapseIteration,
    firstWarningIteration: s.firstWarningIteration,
    falseWarnings: s.falseWarnings,
    firstFired: s.firstFired,
    wallSeconds: run.wallSeconds,
    secondsPerIteration: run.wallSeconds / Math.max(1, run.iterations - (run.resumedFrom ?? 0)),
    ...(run.resumedFrom ? { resumedFrom: run.resumedFrom } : {}),
    backend: run.backend,
    base: run.base,
  };
}
