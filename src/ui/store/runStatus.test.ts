// The run-status table read as the transport bar reads it: which statuses train, which count the
// setup's iterations, and what the phase line says in place of the worker's phase.
import { describe, expect, it } from 'vitest';
import { RUN_STATUS } from './runStatus.js';
import type { RunStatus } from './types.js';

const statuses = Object.keys(RUN_STATUS) as RunStatus[];
const where = (pick: (s: (typeof RUN_STATUS)[RunStatus]) => boolean) =>
  statuses.filter((s) => pick(RUN_STATUS[s]));

describe('RUN_STATUS', () => {
  it('trains only while running, and counts the setup only before a run', () => {
    expect(where((s) => s.training)).toEqual(['running']);
    expect(where((s) => s.countsSetup)).toEqual(['idle']);
    // Pause is offered exactly while iterations run.
    expect(where((s) => s.canPause)).toEqual(where((s) => s.training));
  });

  it('says stopping and failure in place of the phase, and nothing else', () => {
    expect(where((s) => s.phaseLine !== null)).toEqual(['stopping', 'failed']);
    expect(RUN_STATUS.stopping.phaseLine?.text(null)).toBe('Stopping after this iteration (at most 5 s)…');
    expect(RUN_STATUS.stopping.phaseLine?.name).toBeNull();
    expect(RUN_STATUS.failed.phaseLine?.name).toBe('failed');
    expect(RUN_STATUS.failed.phaseLine?.text('out of memory')).toBe('Failed: out of memory');
    expect(RUN_STATUS.failed.phaseLine?.text(null)).toBe('Failed: unknown error');
  });

  it('resumes only a paused run', () => {
    expect(where((s) => s.resumes)).toEqual(['paused']);
    expect(where((s) => s.resumes && !s.canStart)).toEqual([]);
  });
});
