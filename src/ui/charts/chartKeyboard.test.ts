// The chart cursor's keys: ←/→ step one iteration within the chart, Home/End jump, the first key
// starts from the newest iteration, other keys are left to the page.
import { describe, expect, it } from 'vitest';
import { nextIndex } from './chartKeyboard.js';

describe('nextIndex', () => {
  it('steps, jumps and stops at the ends', () => {
    expect(nextIndex('ArrowLeft', null, 5)).toBe(3);
    expect(nextIndex('ArrowRight', null, 5)).toBe(4);
    expect(nextIndex('ArrowLeft', 0, 5)).toBe(0);
    expect(nextIndex('ArrowRight', 2, 5)).toBe(3);
    expect(nextIndex('Home', 3, 5)).toBe(0);
    expect(nextIndex('End', 0, 5)).toBe(4);
    expect(nextIndex('Tab', 2, 5)).toBeNull();
    expect(nextIndex('ArrowLeft', null, 0)).toBeNull();
  });
});
