// A chart read by keyboard: the chart's body takes focus, ←/→ (Home/End) move a cursor over its
// iterations, and Enter or Space opens the reasoning panel at the cursor — what a click on an
// iteration does with the mouse.
import type React from 'react';
import { useState } from 'react';

export interface ChartKeyboard {
  /** The iteration under the keyboard cursor (null: none, or the chart not focused). */
  cursor: number | null;
  props: {
    tabIndex: number;
    role: 'button';
    'aria-label': string;
    onKeyDown: (e: React.KeyboardEvent) => void;
    onBlur: () => void;
  };
}

/** The cursor's next index for a key, or null for a key the chart does not take. */
export function nextIndex(key: string, index: number | null, count: number): number | null {
  if (count === 0) return null;
  const at = index ?? count - 1;
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, at - 1);
    case 'ArrowRight':
      return Math.min(count - 1, at + 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

export function useChartKeyboard(
  title: string,
  iterations: readonly number[],
  open: (it: number) => void,
): ChartKeyboard {
  const [index, setIndex] = useState<number | null>(null);
  const at = index !== null && index < iterations.length ? index : null;
  return {
    cursor: at === null ? null : (iterations[at] ?? null),
    props: {
      tabIndex: 0,
      role: 'button',
      'aria-label': `${title}: ←/→ move over the iterations${at !== null ? ` (now iteration ${iterations[at]})` : ''}; Enter opens the reasoning panel there`,
      onKeyDown: (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          const it = iterations[at ?? iterations.length - 1];
          if (it !== undefined) {
            e.preventDefault();
            open(it);
          }
          return;
        }
        const next = nextIndex(e.key, at, iterations.length);
        if (next !== null) {
          e.preventDefault();
          setIndex(next);
        }
      },
      onBlur: () => setIndex(null),
    },
  };
}
