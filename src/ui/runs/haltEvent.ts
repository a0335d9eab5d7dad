// Whether the current run is paused by the trainer's fault guard: after repeated NaN/Inf
// iterations the trainer pauses with an error event; a live change clears the pause. Read by the
// fault banner (what it says) and by the report routing (a paused run, not a failed one).
import type { TrainerEvent } from '../../core/rl/trainer.js';

export type FaultEvent = Extract<TrainerEvent, { type: 'error' }>;

/** The fault event that paused the run, unless a live change (which clears the pause) came after. */
export function haltEvent(events: readonly TrainerEvent[]): FaultEvent | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as TrainerEvent;
    if (e.type === 'live') return null;
    if (e.type === 'error' && e.pause) return e;
  }
  return null;
}
