import { describe, expect, it } from 'vitest';
import { gradientSplitOf } from './gradientSplit.js';
import type { MetricRow } from './keys.js';

const row = (iteration: number, task?: number, kl?: number, entropy?: number) =>
  ({
    iteration,
    ...(task !== undefined ? { 'actor/gradNorm/task': task } : {}),
    ...(kl !== undefined ? { 'actor/gradNorm/kl': kl } : {}),
    ...(entropy !== undefined ? { 'actor/gradNorm/entropy': entropy } : {}),
  }) as unknown as MetricRow;

describe('RAGEN-2’s gradient split read off a run', () => {
  it('finds the first measured iteration with the task part below each regularizer', () => {
    const rows = [
      row(0, 5, 0.1),
      row(1),
      row(10, 2, 0.5),
      row(20, 0.3, 0.4),
      row(30, 0.2, 0.1),
      row(40, 0.1, 0.2),
    ];
    expect(gradientSplitOf(rows)).toEqual({
      measured: 5,
      hasKl: true,
      hasEntropy: false,
      taskBelowKl: 20,
      taskBelowEntropy: null,
      below: 2,
    });
  });
  it('says none for a run that never logged it', () => {
    expect(gradientSplitOf([row(0), row(1)])).toBeNull();
  });
  it('compares against the entropy part where there is one', () => {
    expect(gradientSplitOf([row(0, 1, undefined, 2), row(10, 3, undefined, 2)])).toMatchObject({
      hasKl: false,
      hasEntropy: true,
      taskBelowEntropy: 0,
      below: 1,
    });
  });
});
