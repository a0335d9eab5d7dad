import { describe, expect, it } from 'vitest';
import { chooseSchedule } from './schedule.js';

const base = { choice: 'auto' as const, cores: 2, lanes: 1, backend: 'wasm', critic: true, learns: true };

describe('chooseSchedule', () => {
  it('two workers only where every lane can have two cores', () => {
    expect(chooseSchedule(base)).toEqual({
      workers: 2,
      reason: '2 workers: the critic beside the policy (1 run × 2 ≤ 2 cores)',
    });
    expect(chooseSchedule({ ...base, lanes: 2 })).toEqual({
      workers: 1,
      reason: '1 worker: two each would oversubscribe the machine (2 runs × 2 > 2 cores)',
    });
    expect(chooseSchedule({ ...base, lanes: 2, cores: 4 }).workers).toBe(2);
    expect(chooseSchedule({ ...base, cores: 1 }).workers).toBe(1);
  });

  it('without a critic, the second worker takes a share of the reference scoring', () => {
    expect(chooseSchedule({ ...base, critic: false })).toEqual({
      workers: 2,
      reason:
        '2 workers: half of each turn’s sampling, half the reference scoring and the measurements beside the policy (1 run × 2 ≤ 2 cores)',
    });
    expect(chooseSchedule({ ...base, critic: false, lanes: 2 }).workers).toBe(1);
  });

  it('one worker for a frozen control, on WebGPU, or when asked', () => {
    expect(chooseSchedule({ ...base, critic: false, learns: false })).toEqual({
      workers: 1,
      reason: '1 worker: a frozen control has no update to share',
    });
    expect(chooseSchedule({ ...base, backend: 'webgpu', cores: 16 }).workers).toBe(1);
    expect(chooseSchedule({ ...base, choice: '1' })).toEqual({ workers: 1, reason: '1 worker: asked for' });
    expect(chooseSchedule({ ...base, choice: '2', lanes: 2 }).workers).toBe(2);
  });
});
