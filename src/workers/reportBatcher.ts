// Run reports leave the train worker at most a few times a second however fast training runs:
// metric rows and events are buffered and sent together, with the latest sampled trajectory,
// when `intervalMs` has passed since the last send (or when forced: pause, step, stop).
import type { MetricRow } from '../core/metrics/keys.js';
import type { SampledTrajectory, TrainerEvent } from '../core/rl/trainer.js';

export interface ReportBatch {
  rows: MetricRow[];
  events: TrainerEvent[];
  samples: SampledTrajectory[];
}

/** Buffers reports and sends them in batches. */
export class ReportBatcher {
  private rows: MetricRow[] = [];
  private events: TrainerEvent[] = [];
  private latest: SampledTrajectory | null = null;
  private last = Number.NEGATIVE_INFINITY;
  /** Number of sends so far. */
  sends = 0;

  constructor(
    private readonly send: (batch: ReportBatch) => void,
    private readonly intervalMs = 250,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  addRow(row: MetricRow): void {
    this.rows.push(row);
  }

  addEvent(event: TrainerEvent): void {
    this.events.push(event);
  }

  /** Keeps only the newest sample between sends (the viewer shows one per send). */
  addSample(sample: SampledTrajectory): void {
    this.latest = sample;
  }

  /** Whether nothing is buffered (everything added so far was sent). */
  get empty(): boolean {
    return this.rows.length === 0 && this.events.length === 0 && this.latest === null;
  }

  /** Sends when the interval has passed; returns whether it sent. */
  maybeFlush(): boolean {
    if (this.clock() - this.last < this.intervalMs) return false;
    return this.flush();
  }

  /** Sends whatever is buffered now; returns whether there was anything. */
  flush(): boolean {
    if (this.empty) return false;
    const batch: ReportBatch = {
      rows: this.rows,
      events: this.events,
      samples: this.latest ? [this.latest] : [],
    };
    this.rows = [];
    this.events = [];
    this.latest = null;
    this.last = this.clock();
    this.sends++;
    this.send(batch);
    return true;
  }
}
