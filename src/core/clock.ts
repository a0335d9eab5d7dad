// A millisecond clock for timings that works in browsers, workers and Node without DOM types.
const perf = (globalThis as { performance?: { now(): number } }).performance;

/** Milliseconds from an arbitrary origin, monotonic where the runtime allows. */
export const now = (): number => (perf ? perf.now() : Date.now());
