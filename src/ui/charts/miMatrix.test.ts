// The heatmap's shading: each row of log p(z_i | x_j) as p(x_j | z_i), by hand.
import { describe, expect, it } from 'vitest';
import { rowPosteriors } from './MiMatrix.js';

describe('rowPosteriors', () => {
  it('turns each row of log-probabilities into a distribution over prompts', () => {
    // Row 0: log p = [ln 3, ln 1] → [0.75, 0.25]; row 1 flat (a template): [0.5, 0.5].
    const p = rowPosteriors([
      [Math.log(3), 0],
      [-40, -40],
    ]);
    expect(p[0]?.[0]).toBeCloseTo(0.75, 12);
    expect(p[0]?.[1]).toBeCloseTo(0.25, 12);
    expect(p[1]).toEqual([0.5, 0.5]);
  });
});
