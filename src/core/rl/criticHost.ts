// Where the critic lives during a run (issue 40): in this thread (LocalCritic, the serial
// schedule: its values come out of the policy's scoring pass and its steps follow the policy's),
// or in a second worker (criticPort.ts's RemoteCritic, criticService.ts on the other side) so its
// scoring and steps run beside the policy's. Either way the trainer asks the same things of it —
// values for the samples, a run of steps on the minibatches the policy reached, a snapshot to go
// back to after a non-finite step, its Adam state for a checkpoint — and gets the same numbers:
// the same kernels on the same inputs, only on another thread.
import { now } from '../clock.js';
import { Adam, type AdamSettings, type AdamState } from '../model/adam.js';
import { cloneModel, copyWeights, disposeModel, type Model } from '../model/params.js';
import { scoreBatch } from '../model/scoreBatch.js';
import { weightsFinite } from './faults.js';
import type { Minibatch } from './microBatch.js';
import { criticStep, type StepMetrics } from './update.js';

/** What a run of critic steps did: steps taken, their metrics summed, and why it stopped early. */
export interface CriticStepsReport {
  steps: number;
  sums: StepMetrics;
  /** A step hit NaN/Inf: the run stopped there (later steps were not taken). */
  nonFinite: string | null;
  /** Milliseconds in the steps themselves. */
  ms: number;
}

/** The step settings of a run of critic steps (the config's, as they are). */
export interface CriticStepSettings {
  /** The critic's Adam step size (config.criticLr). */
  lr: number;
  valueClip: number;
  gradClip: number;
}

/**
 * One update's critic steps: `post` hands over each minibatch as the policy reaches it (so the
 * critic never steps past where the policy stopped), `finish` resolves when all are taken.
 */
export interface CriticSteps {
  post(mb: Minibatch, microRows: number): void;
  finish(): Promise<CriticStepsReport>;
}

export interface CriticHost {
  /** The critic's weights in this thread: the copy checkpoints read (`pull` brings it up to date). */
  readonly model: Model;
  /** The critic runs in this thread: its values come out of the policy's scoring pass. */
  readonly inThread: boolean;
  /** Per row, the critic's value of every token, scored in groups of at most `maxRows` rows. */
  values(rows: readonly (readonly number[])[], maxRows: number): Promise<Float32Array[]>;
  steps(settings: CriticStepSettings): CriticSteps;
  /** Every weight finite. */
  finite(): Promise<boolean>;
  /** Keeps a copy of the weights to go back to (`restore`). */
  save(): void;
  restore(): void;
  readAdam(): Promise<AdamState>;
  writeAdam(state: AdamState): void;
  /** The weights in `model` become the critic's (a resume put a checkpoint's there). */
  push(): void;
  /** `model` takes the critic's current weights. */
  pull(): Promise<void>;
  dispose(): void;
}

/** Makes the critic host of a run from its critic and the Adam settings of its optimizer. */
export type CriticHostFactory = (critic: Model, adam: AdamSettings) => CriticHost;

/**
 * A run of critic steps on `model` with `optimizer`, in this thread: `step` takes one minibatch
 * (nothing after a non-finite step), `report` says what was done. Both hosts step through it.
 */
export class CriticStepRun {
  private readonly report: CriticStepsReport = { steps: 0, sums: {}, nonFinite: null, ms: 0 };

  constructor(
    private readonly model: Model,
    private readonly optimizer: Adam,
    private readonly settings: CriticStepSettings,
  ) {}

  async step(mb: Minibatch, microRows: number): Promise<void> {
    if (this.report.nonFinite) return;
    const t0 = now();
    const c = await criticStep(this.model, this.optimizer, mb, this.settings, microRows);
    this.report.ms += now() - t0;
    if (!c.ok) {
      this.report.nonFinite = `critic loss or gradient was ${c.loss}/${c.gradNorm}`;
      return;
    }
    this.report.steps++;
    for (const [k, v] of Object.entries(c.metrics) as [keyof StepMetrics, number][])
      this.report.sums[k] = (this.report.sums[k] ?? 0) + v;
  }

  result(): CriticStepsReport {
    return this.report;
  }
}

/** The critic's values of `rows` (scoreBatch alone on the critic, in groups of `maxRows`). */
export async function criticValues(
  critic: Model,
  rows: readonly (readonly number[])[],
  maxRows: number,
): Promise<Float32Array[]> {
  return (await scoreBatch(rows, [], critic, { maxRows })).values ?? [];
}

/**
 * The serial schedule's critic: in this thread, its steps taken after the policy's (`finish`),
 * its values from the policy's scoring pass (`inThread`).
 */
export class LocalCritic implements CriticHost {
  readonly inThread = true;
  private readonly optimizer: Adam;
  private readonly copy: Model;

  constructor(
    readonly model: Model,
    adam: AdamSettings,
  ) {
    this.optimizer = new Adam(adam);
    this.copy = cloneModel(model, false);
  }

  values(rows: readonly (readonly number[])[], maxRows: number): Promise<Float32Array[]> {
    return criticValues(this.model, rows, maxRows);
  }

  steps(settings: CriticStepSettings): CriticSteps {
    const run = new CriticStepRun(this.model, this.optimizer, settings);
    const queued: [Minibatch, number][] = [];
    return {
      post: (mb, microRows) => void queued.push([mb, microRows]),
      finish: async () => {
        for (const [mb, microRows] of queued) await run.step(mb, microRows);
        return run.result();
      },
    };
  }

  finite(): Promise<boolean> {
    return weightsFinite([this.model]);
  }

  save(): void {
    copyWeights(this.copy, this.model);
  }

  restore(): void {
    copyWeights(this.model, this.copy);
  }

  readAdam(): Promise<AdamState> {
    return this.optimizer.state(this.model);
  }

  writeAdam(state: AdamState): void {
    this.optimizer.restore(this.model, state);
  }

  push(): void {}

  async pull(): Promise<void> {}

  dispose(): void {
    this.optimizer.dispose();
    disposeModel(this.copy);
  }
}

/** The serial schedule's factory. */
export const localCritic: CriticHostFactory = (critic, adam) => new LocalCritic(critic, adam);
