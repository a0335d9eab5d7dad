import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The learning tests train for minutes each (DoorKey ~170 s, WebShop-lite ~140 s on 2 busy
 * cores) and are small files, so vitest's order (larger files first on a fresh clone, which has
 * no timing cache) started them last and the suite waited on them alone. They go first, one per
 * worker, and the short files fill the other slots.
 */
const LONG = /\/(learning|webshopLearning)\.test\.ts$/;

class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => (LONG.test(f.moduleId) ? 0 : 1);
    return [...sorted].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two workers on two cores: most files are single-threaded CPU work (tfjs on WASM/CPU), and
    // the default (cores − 1) ran them one at a time.
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
  },
});
