// A millisecond clock for timings and a wait for the next task, in browsers, workers and Node (no DOM types).
const perf = (globalThis as { performance?: { now(): number } }).performance;

/** Milliseconds from an arbitrary origin, monotonic where the runtime allows. */
export const now = (): number => (perf ? perf.now() : Date.now());

const timers = globalThis as unknown as { setTimeout(callback: () => void, ms: number): unknown };

/** Resolves once the event loop has run what waits in it (a control message, a signal). */
export const nextTask = (): Promise<void> => new Promise((resolve) => timers.setTimeout(resolve, 0));
