// The small "?" beside a chart title, a setup field or an echo-trap marker: opens the
// explanation popover for its items (texts.ts).

import type { ExplainItem } from '../store/explainSlice.js';
import { useApp } from '../store/index.js';

export interface ExplainButtonProps {
  title: string;
  items: ExplainItem[];
  /** data-testid of the button. */
  testId: string;
  /** Visible text (default "?"). */
  label?: string;
}

export function ExplainButton({ title, items, testId, label = '?' }: ExplainButtonProps) {
  const open = useApp((s) => s.openExplain);
  return (
    <button
      type="button"
      className={label === '?' ? 'explain-btn' : 'explain-link'}
      data-testid={testId}
      aria-label={`Explain ${title}`}
      title={`What is ${title}, and why it matters`}
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        open(title, items);
      }}
    >
      {label}
    </button>
  );
}
