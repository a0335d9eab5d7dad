// Paced chart updates: a live run sends a batch of rows about every 250 ms, and redrawing
// fourteen recharts charts can take longer than that on a slow or busy machine — the page then
// spends all its time drawing and stops answering clicks (Stop included). The charts therefore
// show the newest rows at most once per `gap`, where the gap grows with what the last redraw
// cost (4× its time, never under `minMs`): drawing takes at most about a fifth of the main
// thread. The first value, and every value while the run is not live (paused, finished, a
// stored run), is shown at once, so a paused chart always shows every row.
import { useEffect, useRef, useState } from 'react';

/** How much slower than one redraw the updates come at the least. */
const COST_FACTOR = 4;

/** The pacing decision, apart from React and timers (tested in charts.test.ts). */
export class Pacer {
  private shownAt = Number.NEGATIVE_INFINITY;
  private cost = 0;

  constructor(private readonly minMs: number) {}

  /** Milliseconds from `now` until a new value may be shown (0: at once). */
  wait(now: number, live: boolean): number {
    if (!live) return 0;
    return Math.max(0, this.shownAt + this.gap - now);
  }

  /** A value was handed to the charts at `now`. */
  shown(now: number): void {
    this.shownAt = now;
  }

  /** The redraw of the value shown took `ms`. */
  drawn(ms: number): void {
    this.cost = ms;
  }

  /** The gap now in force while live, in ms. */
  get gap(): number {
    return Math.max(this.minMs, COST_FACTOR * this.cost);
  }
}

/**
 * `value`, handed on at most once per pacing gap while `live` (the latest one wins; nothing is
 * dropped for good: a trailing update always follows), at once otherwise.
 */
export function usePaced<T>(value: T, live: boolean, minMs = 1000): T {
  const [shown, setShown] = useState(value);
  const pacer = useRef(new Pacer(minMs));
  const latest = useRef(value);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const handedAt = useRef<number | null>(null);
  latest.current = value;

  useEffect(() => {
    if (Object.is(value, shown)) return;
    if (timer.current !== null) {
      if (live) return; // the scheduled update takes the latest value
      clearTimeout(timer.current);
      timer.current = null;
    }
    const hand = () => {
      timer.current = null;
      const now = performance.now();
      pacer.current.shown(now);
      handedAt.current = now;
      setShown(() => latest.current);
    };
    const wait = pacer.current.wait(performance.now(), live);
    if (wait === 0) hand();
    else timer.current = setTimeout(hand, wait);
  }, [value, shown, live]);

  // After every commit; the first one after a hand-over drew the handed value: what it cost.
  useEffect(() => {
    if (handedAt.current === null) return;
    pacer.current.drawn(performance.now() - handedAt.current);
    handedAt.current = null;
  });

  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  return shown;
}
