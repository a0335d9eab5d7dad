// The explanation popover: for each item (a metric, a field or a detector signal) its name,
// "what it is", "why it matters here" and the formula where there is one. Closes on Escape
// or on the Close button.

import { useRef } from 'react';
import { fieldByKey } from '../../core/config.js';
import { metricByKey } from '../../core/metrics/keys.js';
import { ALGORITHMS } from '../../core/variants/algorithms.js';
import { useDialogFocus, useEscapeToClose } from '../components/OverlayPanel.js';
import type { ExplainItem } from '../store/explainSlice.js';
import { useApp } from '../store/index.js';
import { explain, signalLabel } from './texts.js';

function nameOf(item: ExplainItem): string {
  if (item.kind === 'metric') return `${metricByKey.get(item.key)?.label ?? item.key} (${item.key})`;
  if (item.kind === 'field') return `${fieldByKey.get(item.key)?.label ?? item.key} (${item.key})`;
  return `Detector signal: ${signalLabel(item.key)}`;
}

export function ExplainPopover() {
  const items = useApp((s) => s.explainItems);
  const title = useApp((s) => s.explainTitle);
  const close = useApp((s) => s.closeExplain);
  // The algorithm's "?" says what the chosen one does, not only what the choice is.
  const algorithm = useApp((s) => s.values.algorithm);
  const chosen = ALGORITHMS[algorithm as keyof typeof ALGORITHMS];
  useEscapeToClose(Boolean(items), close);
  const dialog = useRef<HTMLDivElement>(null);
  useDialogFocus(dialog, Boolean(items));
  if (!items) return null;
  return (
    <div className="explain-backdrop" role="presentation">
      <div
        ref={dialog}
        tabIndex={-1}
        className="explain-popover"
        role="dialog"
        aria-modal="true"
        aria-label={`Explanation: ${title}`}
        data-testid="explain-popover"
      >
        <div className="explain-head">
          <h3>{title}</h3>
          <button type="button" className="small" data-testid="explain-close" onClick={close}>
            Close
          </button>
        </div>
        {items.map((item) => {
          const e = explain(item.kind, item.key);
          return (
            <section key={`${item.kind}:${item.key}`} className="explain-item" data-testid="explain-item">
              <h4>{nameOf(item)}</h4>
              {e ? (
                <>
                  <p data-testid="explain-what">
                    <b>What it is.</b> {e.what}
                  </p>
                  <p data-testid="explain-why">
                    <b>Why it matters here.</b> {e.why}
                  </p>
                  {item.kind === 'field' && item.key === 'algorithm' && chosen ? (
                    <p data-testid="explain-choice">
                      <b>The one chosen: {chosen.label}.</b> {chosen.summary}
                    </p>
                  ) : null}
                  {e.formula ? (
                    <p className="explain-formula" data-testid="explain-formula">
                      <code>{e.formula}</code>
                    </p>
                  ) : null}
                </>
              ) : (
                <p>No explanation yet.</p>
              )}
            </section>
          );
        })}
      </div>
    </div>
  );
}
