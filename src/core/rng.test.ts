import { describe, expect, it } from 'vitest';
import { Rng } from './rng.js';

function draw(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.nextU32());
}

describe('Rng', () => {
  it('gives the same sequence for the same seed and different ones for different seeds', () => {
    expect(draw(new Rng(42), 100)).toEqual(draw(new Rng(42), 100));
    expect(draw(new Rng(42), 100)).not.toEqual(draw(new Rng(43), 100));
  });

  it('keeps instances independent', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    draw(a, 10);
    const fresh = new Rng(7);
    expect(draw(b, 5)).toEqual(draw(fresh, 5));
  });

  it('forks by label, independent of the parent stream and of each other', () => {
    const parent = new Rng(5);
    const f1 = draw(parent.fork('env'), 50);
    draw(parent, 1000);
    expect(draw(parent.fork('env'), 50)).toEqual(f1);
    expect(draw(parent.fork('model'), 50)).not.toEqual(f1);
    expect(draw(new Rng(6).fork('env'), 50)).not.toEqual(f1);
    // A fork's stream is not the parent's own stream.
    expect(draw(new Rng(5), 50)).not.toEqual(f1);
  });

  it('int stays in [lo, hi) and is roughly uniform', () => {
    const rng = new Rng(1);
    const counts = new Array(6).fill(0);
    const n = 60000;
    for (let i = 0; i < n; i++) {
      const v = rng.int(-2, 4);
      if (v < -2 || v >= 4 || !Number.isInteger(v)) throw new Error(`out of range: ${v}`);
      counts[v + 2]++;
    }
    // Chi-square with 5 dof: 99.9th percentile is 20.5.
    const expected = n / 6;
    const chi2 = counts.reduce((s, c) => s + (c - expected) ** 2 / expected, 0);
    expect(chi2).toBeLessThan(20.5);
  });

  it('float has the mean and variance of U(0,1)', () => {
    const rng = new Rng(2);
    const xs = Array.from({ length: 50000 }, () => rng.float());
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mean).toBeCloseTo(0.5, 2);
    expect(variance).toBeCloseTo(1 / 12, 2);
  });

  it('normal has the requested mean and std', () => {
    const rng = new Rng(3);
    const xs = Array.from({ length: 50000 }, () => rng.normal(2, 3));
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const std = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
    expect(Math.abs(mean - 2)).toBeLessThan(0.05);
    expect(Math.abs(std - 3)).toBeLessThan(0.05);
  });

  it('shuffle is a permutation, choice picks members, weighted follows weights', () => {
    const rng = new Rng(4);
    const arr = Array.from({ length: 20 }, (_, i) => i);
    const shuffled = rng.shuffle([...arr]);
    expect(shuffled).not.toEqual(arr);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(arr);
    for (let i = 0; i < 100; i++) expect(['a', 'b', 'c']).toContain(rng.choice(['a', 'b', 'c']));
    const counts = [0, 0, 0];
    for (let i = 0; i < 30000; i++) counts[rng.weighted([1, 0, 3])]!++;
    expect(counts[1]).toBe(0);
    expect(counts[2]! / counts[0]!).toBeGreaterThan(2.7);
    expect(counts[2]! / counts[0]!).toBeLessThan(3.3);
  });

  it('rejects bad arguments with a message', () => {
    const rng = new Rng(0);
    expect(() => rng.int(3, 3)).toThrow(/lo < hi/);
    expect(() => rng.choice([])).toThrow(/empty/);
    expect(() => new Rng(Number.NaN)).toThrow(/finite/);
  });

  it('continues a stream exactly from its state, a pending normal draw included, through JSON', () => {
    const a = new Rng(11);
    for (let i = 0; i < 7; i++) a.float();
    a.normal(); // leaves a spare normal cached
    const saved = JSON.parse(JSON.stringify(a.state()));
    const b = new Rng(99);
    b.restore(saved);
    const draws = (r: Rng) => [r.normal(), r.normal(), r.float(), r.int(0, 1000), r.nextU32()];
    expect(draws(b)).toEqual(draws(a));
    expect(() => b.restore({ s: [1, 2, 3], spareNormal: null })).toThrow(/four 32-bit words/);
    expect(() => b.restore({ s: [1, 2, 3, 0.5], spareNormal: null })).toThrow(/four 32-bit words/);
    expect(() => b.restore({ s: [1, 2, 3, 4], spareNormal: Number.NaN })).toThrow(/spareNormal/);
  });
});
