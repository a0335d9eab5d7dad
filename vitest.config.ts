import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two workers on two cores: most files are single-threaded CPU work (tfjs on WASM/CPU), and
    // the default (cores − 1) ran them one at a time.
    maxWorkers: 2,
  },
});
