// The memory estimate against the real peak: one update step and one scoring group on rows of
// full length, each in a fresh Node process on tfjs-wasm (scripts/measure-memory.ts), must grow
// the heap by no more than the estimate, and the estimate must not be loose by more than half
// (a refit that overcounts refuses configs that run; one that undercounts crashes the heap).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

interface Measured {
  heapMiBPerRow: number;
  estimateMiBPerRow: number;
}

function measure(shape: string): Measured {
  const out = execFileSync('npx', ['tsx', 'scripts/measure-memory.ts', '--one', shape], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Measured;
}

describe('the memory estimate against the tfjs-wasm heap', () => {
  it.each(['update,102,256,200,4,nano', 'update,2239,384,288,2,nano', 'scoring,102,256,200,16,nano'])(
    '%s: heap per row ≤ estimate ≤ 1.5 × heap',
    (shape) => {
      const m = measure(shape);
      expect(m.heapMiBPerRow).toBeGreaterThan(0);
      expect(m.heapMiBPerRow).toBeLessThanOrEqual(m.estimateMiBPerRow);
      expect(m.estimateMiBPerRow).toBeLessThanOrEqual(1.5 * m.heapMiBPerRow);
    },
  );
});
