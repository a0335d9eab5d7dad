// Two sweeps of the same setup get names that tell them apart.
import { describe, expect, it } from 'vitest';
import { uniqueSweepName } from './sweepsDb.js';

describe('uniqueSweepName', () => {
  it('keeps a free name and numbers a taken one', () => {
    expect(uniqueSweepName('lr sweep', [])).toBe('lr sweep');
    expect(uniqueSweepName('lr sweep', ['lr sweep'])).toBe('lr sweep (2)');
    expect(uniqueSweepName('lr sweep', ['lr sweep', 'lr sweep (2)'])).toBe('lr sweep (3)');
  });
});
