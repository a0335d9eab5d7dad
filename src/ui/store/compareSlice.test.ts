// The compare view never opens over the sweeps dialog: opened from a sweep cell it takes the
// dialog's place, and closing it goes back to the dialog; opened elsewhere it leaves it alone.
import { beforeEach, describe, expect, it } from 'vitest';
import { useApp } from './index.js';

beforeEach(() => {
  useApp.setState({ compareView: null, sweepsOpen: false });
});

describe('compare slice', () => {
  it('opened from the sweeps dialog replaces it, and closing goes back to it', () => {
    const s = () => useApp.getState();
    s().setSweeps({ sweepsOpen: true });
    s().openCompare('lr=0.01', [], 'sweeps');
    expect(s().sweepsOpen).toBe(false);
    expect(s().compareView?.title).toBe('lr=0.01');
    s().closeCompare();
    expect(s().compareView).toBeNull();
    expect(s().sweepsOpen).toBe(true);
  });

  it('opened elsewhere does not touch the sweeps dialog', () => {
    const s = () => useApp.getState();
    s().openCompare('2 stored runs', []);
    s().closeCompare();
    expect(s().sweepsOpen).toBe(false);
  });
});
